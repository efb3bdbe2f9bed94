package scenarios

import (
	"gopkg.in/yaml.v3"
)

// DecodeInvariants decodes a list of invariants written in the scenario
// syntax (docs/formats.md §2, "invariants") from a YAML sequence node
// parsed elsewhere: a file that holds invariants apart from any scenario,
// such as a project's .compact-eval/invariants.yaml read by package guard.
// The node keeps its own positions, so every problem is reported as
// "file:line:col: message" in that file; the error is an ErrorList of
// every problem, nil when there is none. Only the structure is checked
// here (fields, types, patterns, duplicate ids); whether an invariant
// fits a session's events is LintScenario's business once the
// invariants are set on a scenario.
func DecodeInvariants(file string, n *yaml.Node) ([]Invariant, error) {
	d := newDecoder(file)
	if d.refuseAliases(n); len(d.errs) > 0 {
		return nil, d.errs.Err()
	}
	if d.refuseTags(n); len(d.errs) > 0 {
		return nil, d.errs.Err()
	}
	invs := d.invariants(n)
	if err := d.errs.Err(); err != nil {
		return nil, err
	}
	return invs, nil
}
