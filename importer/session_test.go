package importer

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/importer/suggest"
	"github.com/compact-eval/compact-eval/scenarios"
)

func userRec(text string) rec {
	return rec{kind: kindText, role: scenarios.RoleUser, text: text}
}

// scan feeds events to a new scanner, numbering them from 0, as the
// renderer does.
func scan(events ...rec) *suggest.Scanner {
	s := suggest.New()
	for i, e := range events {
		s.Add(i, e.suggestEvent())
	}
	return s
}

// TestGoalQuotesNoEvidence: the skeleton's goal quotes only the opening
// sentences that hold no suggested invariant's evidence.
func TestGoalQuotesNoEvidence(t *testing.T) {
	tests := []struct {
		name, opening string
		want          string
	}{
		{"the rule left out", "The export writes to the wrong bucket. Fix scripts/export.py. Logging MUST remain disabled in production.",
			"TODO(author): restate the goal without the rules and values the invariants check. The session opened with: The export writes to the wrong bucket. Fix scripts/export.py."},
		{"nothing left", "This run is read-only. Keep p99 under 200 ms.",
			"TODO(author): state the session's goal in your own words, without the rules and values the invariants check."},
		{"no evidence at all", "Why is the report empty?",
			"TODO(author): restate the goal without the rules and values the invariants check. The session opened with: Why is the report empty?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := &builder{scan: scan(userRec(tc.opening)), goal: tc.opening}
			if got := b.goalText(); got != tc.want {
				t.Errorf("goal:\n got %q\nwant %q", got, tc.want)
			}
			if strings.Contains(tc.want, "MUST") {
				t.Fatal("the expected goal quotes the rule")
			}
		})
	}
}

func TestChooseCut(t *testing.T) {
	text := meta{role: scenarios.RoleUser, kind: kindText, result: -1}
	call := func(result int32) meta { return meta{role: scenarios.RoleAssistant, kind: kindCall, result: result} }
	res := meta{role: scenarios.RoleTool, kind: kindResult, result: -1}
	tests := []struct {
		name  string
		metas []meta
		want  int
	}{
		{"one event", []meta{text}, 1},
		{"plain text", []meta{text, text, text, text, text, text}, 4},
		{"moved before a call", []meta{text, text, text, call(4), res, text}, 3},
		{"interleaved parallel calls", []meta{text, call(4), call(3), res, res, text}, 1},
		{"unresolved call does not block", []meta{text, text, text, call(-1), text, text}, 4},
		{"later when nothing earlier works", []meta{call(2), text, res}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := chooseCut(tc.metas); got != tc.want {
				t.Errorf("chooseCut = %d, want %d", got, tc.want)
			}
		})
	}
}
