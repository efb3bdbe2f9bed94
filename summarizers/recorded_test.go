package summarizers

import (
	"context"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/providers"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// The spec "recorded" builds the summarizer; it returns the recorded text
// as a text-only summary at the cut, refuses a cut with no recorded
// compaction, and skips a scenario that records none.
func TestRecorded(t *testing.T) {
	spec, err := providers.ParseSpec("recorded")
	if err != nil || spec.Kind != providers.KindRecorded {
		t.Fatalf("ParseSpec(recorded) = %+v, %v", spec, err)
	}
	s, err := New(spec, providers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	req := NewRequest()
	req.Cut = 7
	req.Recorded = &scenarios.RecordedCompaction{Boundary: 7, Summary: "Never push to main.", Tool: "codex", PreTokens: 9000}
	resp, err := s.Summarize(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	doc, violations, err := summary.Decode(resp.Summary)
	if err != nil || len(violations) > 0 || doc == nil {
		t.Fatalf("not a valid summary document: %v %v", violations, err)
	}
	if doc.CoversThrough != 7 || doc.Text != "Never push to main." || len(doc.Constraints) > 0 {
		t.Errorf("summary %+v, want the text alone covering through 7", doc)
	}
	if r := resp.Recorded; r == nil || r.Tool != "codex" || r.PreTokens != 9000 {
		t.Errorf("provenance %+v", r)
	}
	req.Recorded = nil
	if _, err := s.Summarize(context.Background(), req); err == nil || !strings.Contains(err.Error(), "no compaction at cut 7") {
		t.Errorf("a cut with no recorded compaction: %v", err)
	}
	sk := s.(Skipper)
	if why := sk.Skip(&scenarios.Scenario{}); why != NoRecordedCompactions {
		t.Errorf("Skip(no recorded) = %q", why)
	}
	if why := sk.Skip(&scenarios.Scenario{Recorded: []scenarios.RecordedCompaction{{Boundary: 1, Summary: "x"}}}); why != "" {
		t.Errorf("Skip(recorded) = %q, want it to apply", why)
	}
}
