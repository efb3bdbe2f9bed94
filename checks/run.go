package checks

import (
	"fmt"
	"slices"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Structural lists the always-on structural checks of docs/formats.md §2 in the
// order Run runs them. A library user may run a subset, or append a check
// of their own to a copy.
var Structural = []Check{
	SchemaCheck{}, CoverageCheck{}, ReferencesCheck{}, EvidenceCheck{}, TailCheck{},
	CompressionCheck{}, ProvenanceCheck{}, PathsCheck{}, UnresolvedCheck{},
	StalePendingCheck{}, GroundingCheck{},
}

// CheckNames lists every check type Run can produce: the structural checks
// in order, then the invariant types in order.
func CheckNames() []string {
	return append(slices.Clone(result.StructuralChecks), result.InvariantTypes...)
}

// ForInvariant returns the check of one invariant. The invariant may be a
// value or a pointer of the scenarios invariant types; any other type gives
// a check whose result is an error naming the type.
func ForInvariant(inv scenarios.Invariant) Check {
	switch v := scenarios.Pointer(inv).(type) {
	case *scenarios.Constraint:
		return ConstraintCheck{v}
	case *scenarios.RefutedHypothesis:
		return RefutedHypothesisCheck{v}
	case *scenarios.Artifact:
		return ArtifactCheck{v}
	case *scenarios.PendingOperation:
		return PendingOperationCheck{v}
	case *scenarios.Correction:
		return CorrectionCheck{v}
	case *scenarios.Quantity:
		return QuantityCheck{v}
	case *scenarios.Secret:
		return SecretCheck{v}
	case *scenarios.Approval:
		return ApprovalCheck{v}
	case *scenarios.Goal:
		return GoalCheck{v}
	case *scenarios.NextStep:
		return NextStepCheck{v}
	case *scenarios.Handoff:
		return HandoffCheck{v}
	}
	return Func(func(*Input) []result.CheckResult {
		r := result.CheckResult{Kind: result.KindInvariant, Status: result.Error, Message: fmt.Sprintf("no check for invariant type %T", inv)}
		if inv != nil {
			r.Check, r.Invariant, r.Pos = inv.Type(), inv.InvariantID(), inv.Position()
		}
		return []result.CheckResult{r}
	})
}

// Run runs every structural check (in the order of Structural), then the
// check of every invariant of in.Scenario (in scenario order), and returns
// their results in that stable order.
//
// Before returning, Run replaces every leak of a secret of the scenario (see
// Redact) in every message and evidence field with
// "[redacted:<invariant id>]", whichever check quoted it.
//
// With no summary at all (Raw empty and Summary nil: the `none` arm), every
// result is skip. With a document that cannot be decoded, schema says why
// and every other check says error.
func Run(in *Input) []result.CheckResult {
	if in == nil {
		in = &Input{}
	}
	cp := *in
	cp.memo = &memo{}
	n := len(Structural)
	if in.Scenario != nil {
		n += len(in.Scenario.Invariants)
	}
	out := make([]result.CheckResult, 0, n)
	for _, c := range Structural {
		out = append(out, c.Check(&cp)...)
	}
	if in.Scenario != nil {
		for _, inv := range in.Scenario.Invariants {
			out = append(out, ForInvariant(inv).Check(&cp)...)
		}
		Redact(out, in.Scenario)
	}
	return out
}

// Redact replaces, in place, every leak of a secret of sc (a run of 8 or
// more of its characters that is not public in the session; see
// SecretCheck) in the messages and evidence of results with
// "[redacted:<id>]".
func Redact(results []result.CheckResult, sc *scenarios.Scenario) {
	r := SecretRedactor(sc)
	if r == nil {
		return
	}
	for i := range results {
		res := &results[i]
		res.Message = r.String(res.Message)
		for j := range res.Evidence {
			e := &res.Evidence[j]
			e.Text, e.Pattern, e.Note, e.Pointer = r.String(e.Text), r.String(e.Pattern), r.String(e.Note), r.String(e.Pointer)
		}
	}
}
