package summarizers

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/compact-eval/compact-eval/providers"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// NoRecordedCompactions is why recorded skips a scenario that records no
// compaction.
const NoRecordedCompactions = "the scenario records no compaction (recorded_compactions): nothing to audit"

// NewRecorded returns the summarizer recorded (spec "recorded"): for
// each compaction the scenario records (recorded_compactions, kept from
// the agent's log by `compact-eval import`), the summary the agent really
// continued from, as a text-only summary document covering through the
// recorded boundary, with the compaction's provenance in the response. The
// runner cuts every summarizer of the scenario at the same boundaries, so
// the agent's own compaction is judged beside the others on the same cut.
// A scenario with no recorded compaction is skipped (Skip), never passed.
func NewRecorded() Summarizer { return recorded{} }

type recorded struct{}

// Skip says why a scenario without recorded compactions has nothing for
// recorded to return.
func (recorded) Skip(sc *scenarios.Scenario) string {
	if len(sc.Recorded) == 0 {
		return NoRecordedCompactions
	}
	return ""
}

func (recorded) Summarize(_ context.Context, req *Request) (*Response, error) {
	r := req.Recorded
	if r == nil {
		return nil, fmt.Errorf("recorded: the scenario records no compaction at cut %d", req.Cut)
	}
	doc, err := json.Marshal(summary.Summary{SchemaVersion: summary.SchemaVersion, CoversThrough: req.Cut, Text: r.Summary})
	if err != nil {
		return nil, err
	}
	return &Response{
		Summary:  doc,
		Call:     result.Call{Spec: providers.KindRecorded},
		Recorded: &result.Recorded{Tool: r.Tool, Trigger: r.Trigger, PreTokens: r.PreTokens, Timestamp: r.Timestamp},
	}, nil
}
