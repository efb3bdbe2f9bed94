package result

import "slices"

// Plan is what a unit of a scenario is planned to hold, recorded with
// the unit (ScenarioRef.Plan) when the scenario is loaded, so that a result
// with outcomes deleted (by hand, by a tool that filters it) can be told
// from a complete one: every generation of a finished unit holds one
// outcome of each planned invariant and at least Structural structural
// checks; the unit holds one outcome of each planned probe; with explicit
// cuts it has Generations generations unless one was refused or declined
// (compaction then stops). Absent in a result written before plans were
// recorded.
type Plan struct {
	// Invariants are the scenario's invariants as "type/id", in file order.
	Invariants []string `json:"invariants"`
	// Probes are the scenario's probe ids, in file order.
	Probes []string `json:"probes"`
	// Generations is the number of generations of a unit whose every
	// summary installs, with explicit cuts (compaction.at, or the
	// boundaries of recorded compactions); 0 when the compaction is
	// token-triggered, whose generations depend on the summaries' sizes.
	Generations int `json:"generations,omitempty"`
	// Structural is the number of structural checks each generation
	// holds (len(StructuralChecks) of the harness that wrote it).
	Structural int `json:"structural"`
}

// Equal reports whether p and q plan the same outcomes.
func (p *Plan) Equal(q *Plan) bool {
	if p == nil || q == nil {
		return p == q
	}
	return slices.Equal(p.Invariants, q.Invariants) && slices.Equal(p.Probes, q.Probes) && p.Generations == q.Generations && p.Structural == q.Structural
}
