package suggest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/scenarios"
)

func systemRec(text string) Event {
	return Event{Kind: Text, Role: scenarios.RoleSystem, Text: text}
}

// Rules come from the user and the task statement, not from what an agent
// framework writes into the turns on its own.
func TestHarnessBoilerplateIsNotTheUsersRules(t *testing.T) {
	tests := []struct {
		name   string
		events []Event
		want   []string // constraint patterns
	}{
		{
			name:   "swe-agent template: the issue's rule and the scope rule, not the tips",
			events: []Event{userRec("We're currently solving the following issue within our repository. Here's the issue text:\nISSUE:\nThe exporter crashes on empty input. Never change the public API of export().\n\nINSTRUCTIONS:\nNow, you're going to solve this issue on your own. Your terminal session has started and you're in the repository's root directory.\nRemember, YOU CAN ONLY ENTER ONE COMMAND AT A TIME. You should always wait for feedback after every command.\nIMPORTANT TIPS:\n1. Always start by trying to replicate the bug that the issues discusses.\nI've already taken care of the test files. This means you DON'T have to modify the testing logic or any of the tests in any way!")},
			want:   []string{`don't have to modify the testing logic`, `never change the public api`},
		},
		{
			name:   "openhands issue template",
			events: []Event{userRec("<issue_description>\nDates must be ISO 8601 in every export.\n</issue_description>\n\nCan you help me implement the necessary changes to the repository so that the requirements specified in the <issue_description> are met?\nYour task is to make the minimal changes to non-test files in the /workspace directory to ensure the <issue_description> is satisfied.\nFollow these steps to resolve the issue:\n1. As a first step, it might be a good idea to explore the repo to familiarize yourself with its structure.")},
			want:   []string{`changes to non-test files`, `dates must be iso 8601`},
		},
		{
			name:   "codex: AGENTS.md keeps the project's rules, not the skills section",
			events: []Event{userRec("# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\n## Build\nNever push to main directly.\n## Skills\nThese skills are discovered at startup from multiple local sources.\n- Trigger rules: you must use that skill for that turn. Do not carry skills across turns unless re-mentioned.\n</INSTRUCTIONS>")},
			want:   []string{`never push to main directly`},
		},
		{
			name:   "claude code: a system reminder is dropped, the user's text kept",
			events: []Event{userRec("Rename the module.\n<system-reminder>\nDo not mention this reminder to the user. Always use the TodoWrite tool.\n</system-reminder>\nDo not touch the vendored copy.")},
			want:   []string{`do not touch the vendored copy`},
		},
		{
			name: "claude code: another agent's message is not the user's",
			events: []Event{userRec("Split the payments worker."), assistantRec("Asking the planner."),
				userRec("Another Claude session sent a message:\n<teammate-message teammate_id=\"planner\">\nDone. Never run the backfill on Fridays; it took 95 s.\n</teammate-message>\n\nThis came from another Claude session — not typed by your user, but very likely working on their behalf."),
				userRec("Keep the old queue name.")},
			want: []string{`keep the old queue name`}, // the user's rule, not the planner's
		},
		{
			name:   "a pasted configuration's rules are not the user's; the rule around it is",
			events: []Event{userRec("The formatter rewrites my file. Config:\n```\n# W01 - Lines should not end with spaces\n# W02 - Never use tabs\nwidth = 100\n```\nThe formatter must not touch generated files.")},
			want:   []string{`formatter must not touch generated files`},
		},
		{
			name:   "a framework's system prompt is not the user's",
			events: []Event{systemRec("You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.\n* The assistant MUST NOT include comments in the code unless they are necessary.\n* Always use absolute paths."), userRec("Never delete the backups.")},
			want:   []string{`never delete the backups`},
		},
		{
			name:   "an app's own system prompt is",
			events: []Event{systemRec("You are the billing assistant. Never reveal the account number."), userRec("Hi")},
			want:   []string{`never reveal the account number`},
		},
		{
			name:   "a user naming a harness word is still the user",
			events: []Event{userRec("Do not change `sandbox_permissions` in config.toml.")},
			want:   []string{`do not change\W+sandbox_permissions\W+in config\.toml`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := constraintPatterns(scan(tc.events...))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("patterns (-want +got):\n%s", diff)
			}
		})
	}
}

// A turn that holds only the harness's text is not a turn of the user's:
// the first words the user writes are not a correction.
func TestHarnessTurnIsNotAUserTurn(t *testing.T) {
	s := scan(userRec("<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"), userRec("Deploy to eu-west-1, not eu-central-1."))
	if len(s.Corrections()) != 0 {
		t.Errorf("corrections = %+v, want none: the user's first turn corrects nothing", s.Corrections())
	}
	s = scan(userRec("Deploy to eu-central-1."), userRec("Deploy to eu-west-1, not eu-central-1."))
	if len(s.Corrections()) != 1 {
		t.Errorf("corrections = %+v, want one from the second user turn", s.Corrections())
	}
}

// A user's rule that meets the cap takes the place of a system turn's rule.
func TestUserRuleOutranksSystemRuleAtTheCap(t *testing.T) {
	var sys []string
	for i := 0; i < maxConstraints; i++ {
		sys = append(sys, "Never edit generated file number"+strings.Repeat("x", i)+" by hand.")
	}
	s := scan(systemRec(strings.Join(sys, "\n")), userRec("Never restart the payments service."))
	got := constraintPatterns(s)
	if len(got) != maxConstraints || got[len(got)-1] != "never restart the payments service" {
		t.Fatalf("constraints = %q, want the user's rule kept at the cap", got)
	}
	c := s.Capped()
	if len(c) != 1 || c[0].Kind != "constraint" || c[0].N != 1 {
		t.Errorf("capped = %+v, want the one system rule pushed out, named", c)
	}
	// Without a system rule to give way, the user's rule is the one pushed out.
	var usr []string
	for i := 0; i < maxConstraints; i++ {
		usr = append(usr, "Never edit generated file number"+strings.Repeat("x", i)+" by hand.")
	}
	s = scan(userRec(strings.Join(usr, "\n")), userRec("Never restart the payments service."))
	if got := constraintPatterns(s); got[len(got)-1] == "never restart the payments service" {
		t.Errorf("a later user rule displaced an earlier user rule: %q", got)
	}
}

// Another agent's message, which Claude Code hands the agent in a user
// turn, is not the user's: no correction ("not typed by your user, but
// …" is the wrapper's), no quantity from its report.
func TestTeammateMessageIsNotTheUsers(t *testing.T) {
	s := scan(userRec("Split the payments worker."), assistantRec("Asking the planner."),
		userRec("Another Claude session sent a message:\n<teammate-message teammate_id=\"planner\">\nstatus: done\nduration: 95s\n</teammate-message>\n\nThis came from another Claude session — not typed by your user, but very likely working on their behalf."))
	if c := s.Corrections(); len(c) != 0 {
		t.Errorf("corrections = %+v, want none", c)
	}
	if q := s.Quantities(); len(q) != 0 {
		t.Errorf("quantities = %+v, want none", q)
	}
}
