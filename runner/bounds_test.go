package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
	"github.com/compact-eval/compact-eval/summary"
)

// TestUnreadableSummaryIsAnError (issue 26, finding 7): a summary nested
// deeper than summary.MaxSummaryDepth, at every depth up to what the JSON
// decoder itself refuses, is an error of its generation with the reason,
// is never stored, and leaves a result every reader accepts; no check
// result (compression passing on it, say) is made of it.
func TestUnreadableSummaryIsAnError(t *testing.T) {
	sc := builtinSuite(t)[0]
	for _, n := range []int{summary.MaxSummaryDepth + 1, 5000, 9990} {
		sum := summarizers.Func(func(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
			deep := strings.Repeat("[", n) + strings.Repeat("]", n)
			doc := fmt.Sprintf(`{"schema_version":1,"covers_through":%d,"text":"x","extensions":{"a":%s}}`, req.Cut, deep)
			return &summarizers.Response{Summary: json.RawMessage(doc)}, nil
		})
		opts := Options{Summarizers: []Summarizer{{Name: "deep", Summarizer: sum}}, Agent: agents.Reference{}, AgentName: "ref",
			Out: filepath.Join(t.TempDir(), "run"), Now: fixedNow}
		res, err := Run(context.Background(), []*scenarios.Scenario{sc}, opts)
		if err != nil {
			t.Fatalf("depth %d: %v", n, err)
		}
		r, err := reports.Read(res.ResultPath)
		if err != nil {
			t.Fatalf("depth %d: the result cannot be read back: %v", n, err)
		}
		u := r.Units[0]
		if u.Status != result.UnitError || len(u.Generations) == 0 {
			t.Fatalf("depth %d: unit %s, %d generations", n, u.Status, len(u.Generations))
		}
		g := u.Generations[0]
		if !strings.Contains(g.Error, "nests deeper than") || len(g.Summary) != 0 || len(g.Checks) != 0 {
			t.Errorf("depth %d: generation error %q, summary %d bytes, %d checks", n, g.Error, len(g.Summary), len(g.Checks))
		}
	}
}
