package importer_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/internal/testkit/suggestions"
	"github.com/compact-eval/compact-eval/scenarios"
)

// importAccepted imports input and loads the scenario with every
// suggestion accepted.
func importAccepted(t *testing.T, input string, opts importer.Options) *scenarios.Scenario {
	t.Helper()
	var out bytes.Buffer
	if _, err := importer.Import(strings.NewReader(input), &out, opts); err != nil {
		t.Fatalf("import: %v", err)
	}
	s, err := scenarios.LoadBytes("imported.yaml", suggestions.Accept(out.Bytes()))
	if err != nil {
		t.Fatalf("load: %v\n%s", err, out.String())
	}
	return s
}

func constraintsOf(s *scenarios.Scenario) []scenarios.Constraint {
	var out []scenarios.Constraint
	for _, inv := range s.Invariants {
		if c, ok := scenarios.Pointer(inv).(*scenarios.Constraint); ok {
			out = append(out, *c)
		}
	}
	return out
}

// The system prompt and the harness's instructions before the first event
// are the scenario's rules, never compacted events; their rules are not
// suggested (no summary can lose them). tau-bench's policy is the case
// that made 7 of 9 suggestions noise.
func TestSystemPromptIsTheRules(t *testing.T) {
	s := importAccepted(t, `{"messages":[
{"role":"system","content":"# Airline Agent Policy\n\n- You should deny user requests that are against this policy.\n- The agent must first obtain the user id."},
{"role":"developer","content":"Never call two tools at once."},
{"role":"user","content":"Book me a flight. I don't want to fly before 11 AM EST."},
{"role":"assistant","content":"Sure."},
{"role":"system","content":"Never offer a refund."}]}`, importer.Options{Format: importer.FormatOpenAI})
	if !strings.Contains(s.Rules, "Airline Agent Policy") || !strings.Contains(s.Rules, "Never call two tools at once.") {
		t.Errorf("rules = %q, want the system and developer messages", s.Rules)
	}
	if s.Events[0].Role != scenarios.RoleUser || len(s.Events) != 3 {
		t.Fatalf("events = %+v, want the user's turn first and the later system message kept as an event", s.Events)
	}
	for _, c := range constraintsOf(s) {
		if strings.Contains(strings.Join(c.Match, " "), "user id") || strings.Contains(strings.Join(c.Match, " "), "two tools") {
			t.Errorf("a rule of the rules was suggested: %v", c.Match)
		}
	}
	if got := constraintsOf(s); len(got) != 2 {
		t.Errorf("constraints = %+v, want the user's and the later system message's", got)
	}
}

// AGENTS.md, which Codex injects as a user message, is the user's: a user
// turn whose rules are suggested; the goal quotes the first prompt.
func TestCodexAgentsFileIsTheUsersRules(t *testing.T) {
	s := importAccepted(t, `{"type":"session_meta","payload":{"id":"s","cwd":"/work/app"}}
{"type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>\nsandbox_mode is workspace-write\n</permissions instructions>\n<collaboration_mode># Collaboration Mode: Default\n\nYou are now in Default mode.\n</collaboration_mode>"}]}}
{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"# AGENTS.md instructions for /work/app\n\n<INSTRUCTIONS>\n- Never push to main.\n</INSTRUCTIONS>"}]}}
{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/work/app</cwd>\n</environment_context>"}]}}
{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Bump the version."}]}}
{"type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"<collaboration_mode># Collaboration Mode: Plan\nYou must not edit files in Plan mode.\n</collaboration_mode>"}]}}
`, importer.Options{Format: importer.FormatCodex})
	if !strings.Contains(s.Rules, "sandbox_mode") || s.Events[0].Role != scenarios.RoleUser || !strings.Contains(s.Events[0].Text, "AGENTS.md") {
		t.Fatalf("rules %q, first event %+v: want the developer message as the rules and AGENTS.md a user turn", s.Rules, s.Events[0])
	}
	got := constraintsOf(s)
	if len(got) != 1 || got[0].SourceSeq != 1 || !strings.Contains(got[0].Match[0], "never push to main") {
		t.Errorf("constraints = %+v, want AGENTS.md's rule alone (the mode's is the harness's)", got)
	}
	if !strings.Contains(s.Goal, "Bump the version") {
		t.Errorf("goal = %q, want the first prompt, not AGENTS.md", s.Goal)
	}
}

// CLAUDE.md, as Claude Code shows it in the claudeMd reminder, is the
// user's: its rules are suggested, the reminder's wording is not.
func TestClaudeMdIsTheUsersRules(t *testing.T) {
	s := importAccepted(t, `{"type":"user","uuid":"u1","cwd":"/Users/me/shop","message":{"role":"user","content":[{"type":"text","text":"<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\nCodebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.\n\nContents of /Users/me/shop/CLAUDE.md (project instructions, checked into the codebase):\n\n- Never commit to main.\n</system-reminder>"},{"type":"text","text":"Add a coupon field."}]}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"role":"assistant","content":[{"type":"text","text":"On it."}]}}
`, importer.Options{Format: importer.FormatClaudeCode})
	got := constraintsOf(s)
	if len(got) != 1 || !strings.Contains(got[0].Match[0], "never commit to main") {
		t.Errorf("constraints = %+v, want CLAUDE.md's rule alone", got)
	}
}
