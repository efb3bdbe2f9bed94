package agents

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/scenarios"
)

const probeBase = `version: 1
id: t
goal: Keep prod safe
events:
  - {role: user, text: "This run is read-only."}
  - {role: assistant, tool_call: {id: c1, name: deploy}}
  - {role: tool, tool_result: {call_id: c1, status: timeout, text: "no answer"}}
arrivals:
  - {role: user, text: "Freeze window starts at 18:00."}
`

func TestCheckProbes(t *testing.T) {
	tests := []struct {
		name   string
		probes string
		want   []string
	}{
		{
			name: "expect found in the events",
			probes: `probes:
  - {id: p, question: q, options: {go: Go, stop: Stop}, expect: stop, requires: {stop: read-only}}
`,
		},
		{
			name: "arrivals are part of the full context",
			probes: `probes:
  - {id: p, question: q, options: {go: Go, wait: Wait}, expect: wait, requires: {wait: [freeze window, '18:00']}}
`,
		},
		{
			name: "a requires pattern of expect finds nothing",
			probes: `probes:
  - {id: p, question: q, options: {go: Go, stop: Stop}, expect: stop, requires: {stop: [read-only, change freeze]}}
`,
			want: []string{`t.yaml:11:5: probe "p": on the full context the reference agent picks "go", want "stop": requires.stop pattern "change freeze" found nothing`},
		},
		{
			name: "an earlier option matches first",
			probes: `probes:
  - {id: p, question: q, options: {retry: Retry, check: Check}, expect: check, requires: {retry: 'no answer', check: timeout}}
`,
			want: []string{`t.yaml:11:5: probe "p": on the full context the reference agent picks "retry", want "check": option "retry" comes first and every pattern of requires.retry matches ("no answer"); narrow them or reorder the options`},
		},
		{
			name: "expect has no requires and another option without requires comes first",
			probes: `probes:
  - {id: p, question: q, options: {go: Go, stop: Stop}, expect: stop}
`,
			want: []string{`t.yaml:11:5: probe "p": on the full context the reference agent picks "go", want "stop": neither has requires, and "go" comes first; give "stop" a requires pattern`},
		},
		{
			name: "no option can be chosen",
			probes: `probes:
  - {id: p, question: q, options: {go: Go, stop: Stop}, expect: stop, requires: {go: zebra, stop: giraffe}}
`,
			want: []string{`t.yaml:11:5: probe "p": on the full context the reference agent picks nothing, want "stop": requires.stop pattern "giraffe" found nothing`},
		},
		{
			name: "an expect outside the options is left to scenarios.Lint",
			probes: `probes:
  - {id: p, question: q, options: {go: Go, stop: Stop}, expect: halt}
`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := scenarios.LoadBytes("t.yaml", []byte(probeBase+tc.probes))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range CheckProbes(s) {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("CheckProbes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBuiltinProbes: every built-in probe is self-consistent.
func TestBuiltinProbes(t *testing.T) {
	list, err := scenarios.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		for _, e := range CheckProbes(s) {
			t.Error(e)
		}
	}
}
