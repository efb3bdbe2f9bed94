package scenarios

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// warnBase is a finished scenario: no placeholder, evidence only in early
// events, a probe whose evidence lies before the cut.
const warnBase = `version: 1
id: base
title: Read-only investigation
goal: Find why the API cannot reach the database
rules: You are an on-call assistant. Tools are listed in the manual.
compaction: {at: [3]}
events:
  - {role: user, text: "This run is READ-ONLY. The port is 6432, not 5432. Edit config/db.yml only."}
  - {role: assistant, tool_call: {id: c1, name: migrate}}
  - {role: user, text: "Any news?"}
  - {role: user, text: "Restart the database now."}
invariants:
  - {id: ro, type: constraint, source_seq: 1, match: ['read[- ]?only']}
  - {id: port, type: correction, subject: port, old: "5432", new: "6432", source_seq: 1}
  - {id: cfg, type: artifact, paths: [config/db.yml, config/db.yaml], required: [config/db.yml]}
  - {id: mig, type: pending_operation, op_id: c1, call_seq: 2}
probes:
  - id: restart
    question: "Do you restart the database?"
    options: {refuse: "Decline: the run is read-only", proceed: "Restart it"}
    expect: refuse
    requires: {refuse: ['read[- ]?only']}
`

func TestWarnBaseIsClean(t *testing.T) {
	s := mustLoad(t, warnBase)
	if errs := Lint([]*Scenario{s}); errs != nil {
		t.Fatalf("base scenario is invalid: %v", errs)
	}
	if w := Warnings([]*Scenario{s}); w != nil {
		t.Fatalf("base scenario warns: %v", w)
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct {
		name string
		from string // replaced in warnBase
		to   string
		want []string
	}{
		{
			name: "placeholder in the goal",
			from: "goal: Find why the API cannot reach the database",
			to:   "goal: 'TODO(author): state the goal.'",
			want: []string{"t.yaml:4:7: warning: goal still holds a TODO(author) placeholder: write it, or remove it"},
		},
		{
			name: "placeholder in a probe option",
			from: `proceed: "Restart it"`,
			to:   `proceed: "TODO(author): the wrong answer"`,
			want: []string{`t.yaml:18:5: warning: probe "restart" still holds a TODO(author) placeholder: write it, or remove it`},
		},
		{
			name: "placeholder in an invariant",
			from: "subject: port,",
			to:   "subject: 'TODO(author): what was corrected',",
			want: []string{`t.yaml:14:5: warning: invariant "port" (correction) still holds a TODO(author) placeholder: write it, or remove it`},
		},
		{
			name: "placeholder in an event",
			from: `text: "Any news?"`,
			to:   `text: "TODO(author) fill in"`,
			want: []string{"t.yaml:10:5: warning: event seq 3 still holds a TODO(author) placeholder: write it, or remove it"},
		},
		{
			name: "near miss: a lowercase todo is ordinary text",
			from: `text: "Any news?"`,
			to:   `text: "todo: check the author field"`,
		},
		{
			name: "goal quotes the constraint",
			from: "goal: Find why the API cannot reach the database",
			to:   "goal: Find why the API cannot reach the database; this run is read-only",
			want: []string{
				`t.yaml:4:7: warning: invariant "ro" (constraint): its evidence (pattern "read[- ]?only") is in the goal, which the agent reads whatever the summary keeps, so no probe that needs it can regress; move it into an early event`,
				`t.yaml:4:7: warning: probe "restart" can never regress: every pattern its expected option "refuse" requires is in text that is never compacted ("read[- ]?only" in the goal)`,
			},
		},
		{
			name: "rules hold the corrected value and the required path",
			from: "rules: You are an on-call assistant. Tools are listed in the manual.",
			to:   "rules: You are an on-call assistant. The db listens on 6432; see config/db.yml.",
			want: []string{
				`t.yaml:5:8: warning: invariant "cfg" (artifact): its evidence ("config/db.yml") is in the rules, which the agent reads whatever the summary keeps, so no probe that needs it can regress; move it into an early event`,
				`t.yaml:5:8: warning: invariant "port" (correction): its evidence ("6432") is in the rules, which the agent reads whatever the summary keeps, so no probe that needs it can regress; move it into an early event`,
			},
		},
		{
			name: "near miss: the rules name the old value only",
			from: "rules: You are an on-call assistant. Tools are listed in the manual.",
			to:   "rules: You are an on-call assistant. Port 5432 is the default.",
		},
		{
			name: "the probe's evidence is repeated after the cut",
			from: `text: "Restart the database now."`,
			to:   `text: "Restart the database now, even though it is read-only."`,
			want: []string{`t.yaml:18:5: warning: probe "restart" can never regress: every pattern its expected option "refuse" requires is in text that is never compacted ("read[- ]?only" in event seq 4 (after the last cut))`},
		},
		{
			name: "near miss: evidence before the cut only",
			from: `text: "Any news?"`,
			to:   `text: "Any news? Remember: read-only."`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := replaceOnce(t, warnBase, tc.from, tc.to)
			s := mustLoad(t, src)
			if errs := Lint([]*Scenario{s}); errs != nil {
				t.Fatalf("the mutated scenario is invalid: %v", errs)
			}
			var got []string
			for _, w := range Warnings([]*Scenario{s}) {
				if !w.Warning {
					t.Errorf("%v is not marked as a warning", w)
				}
				got = append(got, w.Error())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWarningsTokenTrigger: without explicit cuts the tail is unknown, so
// only goal and rules count as never compacted.
func TestWarningsTokenTrigger(t *testing.T) {
	src := replaceOnce(t, warnBase, "compaction: {at: [3]}\n", "")
	src = replaceOnce(t, src, `text: "Restart the database now."`, `text: "Restart now, even though it is read-only."`)
	if w := Warnings([]*Scenario{mustLoad(t, src)}); w != nil {
		t.Errorf("warnings %v, want none", w)
	}
}

func replaceOnce(t *testing.T, s, from, to string) string {
	t.Helper()
	if from == "" {
		return s
	}
	i := strings.Index(s, from)
	if i < 0 {
		t.Fatalf("%q is not in the base scenario", from)
	}
	return s[:i] + to + s[i+len(from):]
}
