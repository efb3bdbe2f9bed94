package scenarios_test

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// DecodeInvariants reads invariants apart from a scenario, each problem
// positioned in their own file.
func TestDecodeInvariants(t *testing.T) {
	node := func(src string) *yaml.Node {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Content[0].Content[1]
	}
	invs, err := scenarios.DecodeInvariants("inv.yaml", node("invariants:\n  - {id: a, type: constraint, source_seq: 3, match: [x]}\n  - {id: b, type: secret, value: s3cr3t-v4lue}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(invs) != 2 || invs[0].(*scenarios.Constraint).SourceSeq != 3 || invs[1].Position() != (result.Pos{Line: 3, Col: 5}) {
		t.Errorf("%+v", invs)
	}
	for _, tc := range []struct{ src, want string }{
		{"invariants:\n  - {id: a, type: constraint, match: [x]}\n", `inv.yaml:2:5: invariants[0] (constraint): missing required field "source_seq"`},
		{"invariants:\n  - {id: a, type: secret, value: v}\n  - {id: a, type: secret, value: w}\n", `inv.yaml:3:5: invariants[1]: duplicate invariant id "a" (first at line 2)`},
		{"invariants:\n  - &x {id: a, type: secret, value: v}\n  - *x\n", "alias"},
		{"invariants: {a: 1}\n", "inv.yaml:1:13:"},
	} {
		_, err := scenarios.DecodeInvariants("inv.yaml", node(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}
