package suggest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each row of boilerplate.txt, in a turn beside a rule of the user's: the
// harness's text is never the user's rule, the user's rule stays, and a
// project instruction file's rule is the user's whatever wraps it.
func TestBoilerplateRows(t *testing.T) {
	const rule = "Never delete the release branch."
	const want = "never delete the release branch"
	for _, line := range strings.Split(boilerplateData, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			t.Errorf("row %q is not FRAMEWORK<TAB>KIND<TAB>TEXT", line)
			continue
		}
		kind, text := f[1], f[2]
		var turn string
		var wantRules []string
		switch kind {
		case "phrase":
			// the phrase in a sentence that also states a rule: the
			// sentence is the harness's
			turn = rule + "\nNever rename the module when " + text + " appears."
			wantRules = []string{want}
		case "tag":
			turn = rule + "\n<" + text + ">\nNever rename the module.\n</" + text + ">"
			wantRules = []string{want}
		case "heading":
			turn = rule + "\n\n## " + text + "\nNever rename the module.\n"
			wantRules = []string{want}
		case "task":
			continue // TestHarnessBoilerplateIsNotTheUsersRules reads templates
		case "project":
			// the file's rules are the user's, inside a reminder too
			turn = "<system-reminder>\n" + text + "\n" + rule + "\n</system-reminder>\nHi."
			if strings.HasPrefix(text, "<") {
				turn = text + "\n" + rule + "\n</" + strings.Trim(text, "<>") + ">\nHi."
			}
			wantRules = []string{want}
		default:
			t.Errorf("row %q: unknown kind %q", line, kind)
			continue
		}
		t.Run(f[0]+"/"+kind+"/"+text, func(t *testing.T) {
			got := constraintPatterns(scan(userRec(turn)))
			if diff := cmp.Diff(wantRules, got); diff != "" {
				t.Errorf("turn %q: patterns (-want +got):\n%s", turn, diff)
			}
		})
	}
}

// What could fool the project reading: a user quoting the marker in prose
// is no file, and the reminder's own imperative is not a rule.
func TestProjectInstructions(t *testing.T) {
	runPatternCases(t, []patternCase{
		{
			name:   "claude code: CLAUDE.md inside the claudeMd reminder",
			events: []Event{userRec("<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\nCodebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.\n\nContents of /Users/me/shop/CLAUDE.md (project instructions, checked into the codebase):\n\n# Shop\n- Never push to main.\n- Run `make lint` before every commit.\n\nContents of /Users/me/.claude/CLAUDE.md (user's private global instructions for all projects):\n\nAlways answer in British English.\n\n      IMPORTANT: this context may or may not be relevant to your tasks. You should not respond to this context unless it is highly relevant to your task.\n</system-reminder>\nAdd a coupon field to checkout.")},
			want:   []string{"never push to main", "always answer in british english"},
		},
		{
			name:   "codex: AGENTS.md, its wrapper a harness block",
			events: []Event{userRec("# AGENTS.md instructions for /work/app\n\n<INSTRUCTIONS>\nDo not edit generated files under gen/.\n</INSTRUCTIONS>"), userRec("Bump the version.")},
			want:   []string{"do not edit generated files"},
		},
		{
			name:   "codex: the older <user_instructions> block",
			events: []Event{userRec("<user_instructions>\nNever run the migrations against prod.\n</user_instructions>"), userRec("Fix the failing test.")},
			want:   []string{"never run the migrations against"},
		},
		{
			name:   "a user quoting the marker is no project file",
			events: []Event{userRec("Why does the log say (project instructions, checked into the codebase): at the top? Do not change the log format.")},
			want:   []string{"do not change the log format"},
		},
		{
			name:   "the reminder's own imperative is not a rule",
			events: []Event{userRec("<system-reminder>\nContents of /r/CLAUDE.md (project instructions, checked into the codebase):\n\nBe sure to adhere to these instructions.\n</system-reminder>\nHello.")},
		},
	})
}

// The project file is not the user's first turn: the first words the user
// types after it are not a correction of it.
func TestProjectFileIsNotAUserTurn(t *testing.T) {
	s := scan(userRec("# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\nDeploy to eu-central-1.\n</INSTRUCTIONS>"), userRec("Deploy to eu-west-1, not eu-central-1."))
	if len(s.Corrections()) != 0 {
		t.Errorf("corrections = %+v, want none: the user's first own turn corrects nothing", s.Corrections())
	}
}
