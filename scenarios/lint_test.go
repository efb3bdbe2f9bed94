package scenarios

import (
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"
)

// lintBase is a valid scenario the lint tests add to or break.
const lintBase = `version: 1
id: base
events:
  - {role: user, text: "Read-only run. Config is in config/db.yml. Token sk-live-abcdef123456."}
  - {role: assistant, text: "I think DNS is broken."}
  - {role: assistant, tool_call: {id: c1, name: dns_lookup, args: {host: db}}}
  - {role: tool, tool_result: {call_id: c1, text: "db -> 10.0.3.7, DNS is fine"}}
  - {role: assistant, tool_call: {id: c2, name: migrate}}
  - {role: user, text: "Port is 6432, not 5432."}
`

func mustLoad(t *testing.T, src string) *Scenario {
	t.Helper()
	s, err := LoadBytes("t.yaml", []byte(src))
	if err != nil {
		t.Fatalf("loading:\n%v", err)
	}
	return s
}

func TestLintBaseIsValid(t *testing.T) {
	if errs := Lint([]*Scenario{mustLoad(t, lintBase)}); errs != nil {
		t.Fatalf("base scenario: %v", errs)
	}
}

func TestLint(t *testing.T) {
	tests := []struct {
		name   string
		extra  string            // appended to lintBase
		mutate func(s *Scenario) // applied after loading
		want   []string          // every problem, sorted
	}{
		{
			name:  "constraint cites an assistant event",
			extra: "invariants: [{id: ro, type: constraint, source_seq: 2, match: read-only}]\n",
			want:  []string{`t.yaml:10:14: invariant "ro" (constraint): source_seq 2 is an assistant event; it must be a user or system event`},
		},
		{
			name:  "constraint cites no event",
			extra: "invariants: [{id: ro, type: constraint, source_seq: 99, match: read-only}]\n",
			want:  []string{`t.yaml:10:14: invariant "ro" (constraint): source_seq 99: no event has this seq`},
		},
		{
			name:  "correction cites an assistant event",
			extra: "invariants: [{id: port, type: correction, old: 5432, new: 6432, subject: port, source_seq: 2}]\n",
			want:  []string{`t.yaml:10:14: invariant "port" (correction): source_seq 2 is an assistant event; it must be a user or system or tool event`},
		},
		{
			name:  "correction cites a tool's error",
			extra: "invariants: [{id: port, type: correction, old: 5432, new: 6432, subject: port, source_seq: 4}]\n",
		},
		{
			name:  "refuted hypothesis refuted by the assistant",
			extra: "invariants: [{id: h, type: refuted_hypothesis, hypothesis_seq: 2, refuted_by_seq: 5, match: dns}]\n",
			want:  []string{`t.yaml:10:14: invariant "h" (refuted_hypothesis): refuted_by_seq 5 is an assistant event; it must be a user or tool event`},
		},
		{
			name:  "refuted hypothesis refuted before it was stated",
			extra: "invariants: [{id: h, type: refuted_hypothesis, hypothesis_seq: 6, refuted_by_seq: 4, match: dns}]\n",
			want:  []string{`t.yaml:10:14: invariant "h" (refuted_hypothesis): refuted_by_seq 4 must come after hypothesis_seq 6`},
		},
		{
			name:  "pending operation at a call that has a result",
			extra: "invariants: [{id: op, type: pending_operation, op_id: c1, call_seq: 3}]\n",
			want:  []string{`t.yaml:10:14: invariant "op" (pending_operation): call "c1" has an ok result at seq 4; a pending operation has no result or a timeout`},
		},
		{
			name:  "pending operation whose op_id is not the call's id",
			extra: "invariants: [{id: op, type: pending_operation, op_id: c9, call_seq: 5}]\n",
			want:  []string{`t.yaml:10:14: invariant "op" (pending_operation): the tool_call at seq 5 has id "c2", not op_id "c9"`},
		},
		{
			name:  "pending operation at an assistant event with no call",
			extra: "invariants: [{id: op, type: pending_operation, op_id: c2, call_seq: 2}]\n",
			want:  []string{`t.yaml:10:14: invariant "op" (pending_operation): call_seq 2 has no tool_call`},
		},
		{
			name:  "pending operation at a user event",
			extra: "invariants: [{id: op, type: pending_operation, op_id: c2, call_seq: 1}]\n",
			want:  []string{`t.yaml:10:14: invariant "op" (pending_operation): call_seq 1 is a user event; it must be an assistant event`},
		},
		{
			name:  "artifact: required not among paths, absent from events, digest of a stranger",
			extra: "invariants: [{id: a, type: artifact, paths: [config/db.yml, config/db.yaml], required: [config/db.yml, config/x.yml, config/db.yaml], digests: {other.yml: 'sha256:1'}}]\n",
			want: []string{
				`t.yaml:10:14: invariant "a" (artifact): digest for "other.yml", which is not among paths`,
				`t.yaml:10:14: invariant "a" (artifact): required path "config/db.yaml" occurs in no event`,
				`t.yaml:10:14: invariant "a" (artifact): required path "config/x.yml" is not among paths`,
				`t.yaml:10:14: invariant "a" (artifact): required path "config/x.yml" occurs in no event`,
			},
		},
		{
			name:  "artifact with no paths, required path only in tool arguments",
			extra: "invariants: [{id: a, type: artifact, paths: [], required: []}, {id: b, type: artifact, paths: [db], required: [db]}]\n",
			want:  []string{`t.yaml:10:14: invariant "a" (artifact): paths is empty`},
		},
		{
			name:  "refuted hypothesis patterns that do not compile",
			extra: "invariants: [{id: h, type: refuted_hypothesis, hypothesis_seq: 2, refuted_by_seq: 4, match: dns, conclusion: 'fine)'}]\n",
			want:  []string{"t.yaml:10:14: invariant \"h\" (refuted_hypothesis): conclusion: pattern \"fine)\": error parsing regexp: unexpected ): `(?i)fine)`"},
		},
		{
			name:  "secret that no event holds",
			extra: "invariants: [{id: s, type: secret, value: sk-live-zzz}, {id: s2, type: secret, value: sk-live-abcdef123456}]\n",
			want:  []string{`t.yaml:10:14: invariant "s" (secret): the secret value occurs in no event`},
		},
		{
			name:  "patterns that do not compile",
			extra: "invariants: [{id: ro, type: constraint, source_seq: 1, match: ['read(only']}, {id: q, type: quantity, value: 3, unit: s, match: '[a-'}]\n",
			want: []string{
				"t.yaml:10:14: invariant \"ro\" (constraint): match: pattern \"read(only\": error parsing regexp: missing closing ): `(?i)read(only`",
				"t.yaml:10:79: invariant \"q\" (quantity): match: pattern \"[a-\": error parsing regexp: missing closing ]: `[a-`",
			},
		},
		{
			name: "probe keys not among options, bad pattern",
			extra: `probes:
  - id: p
    question: q
    options: {go: Go, stop: Stop}
    expect: halt
    requires: {stop: 'read-only', wait: x, go: '(('}
`,
			want: []string{
				`t.yaml:11:5: probe "p": expect "halt" is not an option (valid: go, stop)`,
				`t.yaml:15:35: probe "p": requires names "wait", which is not an option (valid: go, stop)`,
				"t.yaml:15:44: probe \"p\": requires.go: pattern \"((\": error parsing regexp: missing closing ): `(?i)((`",
			},
		},
		{
			name:  "cut splits a protocol unit",
			extra: "compaction: {at: [3]}\n",
			want:  []string{`t.yaml:10:19: compaction.at: cut 3 splits a protocol unit: call "c1" at seq 3 has its result at seq 4`},
		},
		{
			name:  "cuts must rise and stay inside the events",
			extra: "compaction: {at: [4, 2, 9, 0]}\n",
			want: []string{
				`t.yaml:10:22: compaction.at: cut 2 must be greater than the cut before it, 4`,
				`t.yaml:10:25: compaction.at: cut 9 is outside the events (1..6)`,
				`t.yaml:10:28: compaction.at: cut 0 is outside the events (1..6)`,
			},
		},
		{
			name: "result before its call, unknown call, second result, reused call id",
			extra: `arrivals:
  - {role: tool, tool_result: {call_id: c3, text: early}}
  - {role: assistant, tool_call: {id: c3, name: x}}
  - {role: tool, tool_result: {call_id: nope, text: who}}
  - {role: tool, tool_result: {call_id: c1, text: again}}
  - {role: assistant, tool_call: {id: c1, name: y}}
`,
			want: []string{
				`t.yaml:11:5: seq 7: tool_result names call "c3", which no earlier event makes`,
				`t.yaml:13:5: seq 9: tool_result names call "nope", which no earlier event makes`,
				`t.yaml:14:5: seq 10: call "c1" (seq 3) already has a result at seq 4; a call has at most one result`,
				`t.yaml:15:5: seq 11: tool_call id "c1" is already used at seq 3`,
			},
		},
		{
			name:  "a timeout result is still pending; a result among arrivals does not split the cut",
			extra: "compaction: {at: [5]}\narrivals: [{role: tool, tool_result: {call_id: c2, status: ok, text: migrated}}]\ninvariants: [{id: op, type: pending_operation, op_id: c2, call_seq: 5}]\n",
		},
		{
			name: "built in code: bad id, version, seqs, arrivals, compaction values",
			mutate: func(s *Scenario) {
				s.ID = "Bad id"
				s.Version = 3
				s.Events[2].Seq = 2
				s.Arrivals = []Event{{Seq: 6, Role: RoleUser, Text: "late", Pos: result.Pos{Line: 20, Col: 3}}}
				s.Compaction.Rebuild = "sometimes"
				s.Compaction.MaxRatio = 2
				s.Compaction.ThresholdFraction = -1
			},
			want: []string{
				`t.yaml:1:1: compaction.max_ratio: 2 is not in (0, 1]`,
				`t.yaml:1:1: compaction.rebuild: "sometimes" is not a rebuild mode (valid: iterative, from_source)`,
				`t.yaml:1:1: compaction.threshold_fraction: -1 is not in (0, 1]`,
				`t.yaml:1:1: version 3 is not supported (this compact-eval reads version 1)`,
				`t.yaml:2:5: id "Bad id": want lowercase letters, digits and '-', starting with a letter or digit`,
				`t.yaml:6:5: seq 2 must be greater than 2, the seq before it`,
				`t.yaml:20:3: arrival seq 6 must be greater than 6 (arrivals come after the last event)`,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustLoad(t, lintBase+tc.extra)
			if tc.mutate != nil {
				tc.mutate(s)
			}
			var got []string
			for _, e := range Lint([]*Scenario{s}) {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("lint (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLintSuiteDuplicateID(t *testing.T) {
	a := mustLoad(t, lintBase)
	a.File = "a.yaml"
	b := mustLoad(t, lintBase)
	b.File = "b.yaml"
	c := mustLoad(t, lintBase)
	c.File = "c.yaml"
	var got []string
	for _, e := range Lint([]*Scenario{a, b, c}) {
		got = append(got, e.Error())
	}
	want := []string{
		`b.yaml:2:5: id "base" is already used by a.yaml`,
		`c.yaml:2:5: id "base" is already used by a.yaml`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lint (-want +got):\n%s", diff)
	}
}
