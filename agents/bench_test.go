package agents

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// BenchmarkReference asks the reference agent every probe of every
// built-in scenario on its full context and on the compacted context of
// its gold summary (testdata/gold), each context read once for all its
// probes as the runner reads it (Context.ReadOnce). Run it on one core:
//
//	go test -run '^$' -bench Reference -cpu 1 ./agents
func BenchmarkReference(b *testing.B) {
	list, err := scenarios.Builtin()
	if err != nil {
		b.Fatal(err)
	}
	type arm struct {
		s *scenarios.Scenario
		c Context
	}
	var arms []arm
	for _, s := range list {
		arms = append(arms, arm{s, FullContext(s)})
		raw, err := os.ReadFile(filepath.Join("..", "testdata", "gold", s.ID+".json"))
		if err != nil {
			continue
		}
		var gold struct {
			Generations []struct {
				Summary json.RawMessage `json:"summary"`
			} `json:"generations"`
		}
		if err := json.Unmarshal(raw, &gold); err != nil || len(gold.Generations) == 0 {
			b.Fatalf("%s: gold: %v", s.ID, err)
		}
		doc := gold.Generations[len(gold.Generations)-1].Summary
		var sum summary.Summary
		if err := json.Unmarshal(doc, &sum); err != nil {
			b.Fatal(err)
		}
		i := sort.Search(len(s.Events), func(i int) bool { return s.Events[i].Seq > sum.CoversThrough })
		events := append(append([]scenarios.Event(nil), s.Events[i:]...), s.Arrivals...)
		arms = append(arms, arm{s, Context{Rules: s.Rules, Goal: s.Goal, Summary: summary.ForAgent(doc), Events: events}})
	}
	asked := 0
	b.ReportAllocs()
	for b.Loop() {
		asked = 0
		for _, a := range arms {
			c := a.c
			c.ReadOnce()
			for _, p := range a.s.Probes {
				if _, err := (Reference{}).Decide(context.Background(), ProbeRequest(a.s, p, ArmFull, c)); err != nil {
					b.Fatal(err)
				}
				asked++
			}
		}
	}
	if asked == 0 {
		b.Fatal("no probe asked")
	}
	b.ReportMetric(float64(asked)*float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}
