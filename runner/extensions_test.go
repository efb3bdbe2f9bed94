package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

// Extensions are the summarizer's own (summary contract 1.1): the next
// generation's summarizer gets them back in previous_summary, the agent
// never sees them.
func TestExtensionsNeverReachTheAgent(t *testing.T) {
	var sc *scenarios.Scenario
	for _, s := range builtinSuite(t) {
		if s.ID == "repeated-incident-three-generations" {
			sc = s
		}
	}
	if sc == nil {
		t.Fatal("repeated-incident-three-generations not in the built-in suite")
	}
	const canary = "EXTENSION-CANARY-4711"
	var mu sync.Mutex
	var previous []string
	sum := summarizers.Func(func(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
		mu.Lock()
		previous = append(previous, string(req.PreviousSummary))
		mu.Unlock()
		doc := fmt.Sprintf(`{"schema_version":1,"covers_through":%d,"text":"gen %d","extensions":{"note":%q}}`, req.Cut, req.Generation, canary)
		return &summarizers.Response{Summary: json.RawMessage(doc)}, nil
	})
	seen := 0
	agent := agents.Func(func(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
		mu.Lock()
		defer mu.Unlock()
		if strings.Contains(string(req.Context.Summary), canary) || strings.Contains(string(req.Context.Summary), "extensions") {
			t.Errorf("probe %s, %s arm: the agent sees the extensions: %s", req.Probe.ID, req.Arm, req.Context.Summary)
		}
		if req.Arm == agents.ArmCompacted && len(req.Context.Summary) > 0 {
			seen++
			if !strings.Contains(string(req.Context.Summary), `"text":"gen `) {
				t.Errorf("the agent's summary lost its content: %s", req.Context.Summary)
			}
		}
		return &agents.Decision{Choice: req.Probe.Options[0].Key}, nil
	})
	opts := Options{Summarizers: []Summarizer{{Name: "ext", Summarizer: sum}}, Agent: agent, AgentName: "test", Out: filepath.Join(t.TempDir(), "run"), Now: fixedNow}
	if _, err := Run(context.Background(), []*scenarios.Scenario{sc}, opts); err != nil {
		t.Fatal(err)
	}
	if seen == 0 {
		t.Fatal("no compacted probe was asked: nothing was checked")
	}
	if len(previous) < 2 || !strings.Contains(previous[1], canary) {
		t.Errorf("the second generation's summarizer did not get the extensions back: %q", previous)
	}
}
