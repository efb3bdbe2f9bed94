package checks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/scenarios"
)

// score is what the headline figures of a run read from one summary:
// invariants kept and failed, structural failures, and compaction
// regressions of the reference agent.
type score struct {
	kept, lost, structural, regressions int
}

func scoreOf(t *testing.T, in *Input, probes bool) score {
	t.Helper()
	var s score
	for _, r := range Run(in) {
		switch {
		case r.Kind == result.KindInvariant && r.Status == result.Pass:
			s.kept++
		case r.Kind == result.KindInvariant && r.Status == result.Fail:
			s.lost++
		case r.Kind == result.KindStructural && r.Status == result.Fail:
			s.structural++
		}
	}
	if probes {
		s.regressions = regressions(t, in.Scenario, in.Raw)
	}
	return s
}

// regressions asks the reference agent every probe on the full context and
// on the compacted one (the summary as the agent sees it, the events after
// its coverage, the arrivals), as the runner does, and counts the probes
// right on the full context and wrong on the compacted one.
func regressions(t *testing.T, sc *scenarios.Scenario, raw json.RawMessage) int {
	t.Helper()
	return len(regressedProbes(t, sc, raw))
}

// regressedProbes is regressions by name: the ids of the probes the
// reference agent answers right on the full context and wrong on the
// compacted one.
func regressedProbes(t *testing.T, sc *scenarios.Scenario, raw json.RawMessage) []string {
	t.Helper()
	var sum summary.Summary
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	withArrivals := func(evs []scenarios.Event) []scenarios.Event {
		return append(append([]scenarios.Event(nil), evs...), sc.Arrivals...)
	}
	i := sort.Search(len(sc.Events), func(i int) bool { return sc.Events[i].Seq > sum.CoversThrough })
	full := agents.Context{Rules: sc.Rules, Goal: sc.Goal, Events: withArrivals(sc.Events)}
	comp := agents.Context{Rules: sc.Rules, Goal: sc.Goal, Summary: summary.ForAgent(raw), Events: withArrivals(sc.Events[i:])}
	var ids []string
	for _, pr := range sc.Probes {
		ask := func(c agents.Context) string {
			req := agents.NewRequest()
			req.ScenarioID, req.Probe, req.Context, req.Requires = sc.ID, agents.Question{ID: pr.ID, Question: pr.Question, Options: pr.Options}, c, pr.Requires
			d, err := agents.Reference{}.Decide(context.Background(), req)
			if err != nil {
				t.Fatalf("%s/%s: %v", sc.ID, pr.ID, err)
			}
			return d.Choice
		}
		// A compacted "unsure" where the full context decided is an
		// uncertain decision (result.ProbeUncertain), as the runner
		// classifies it: not kept, and no regression either.
		if f, c := ask(full), ask(comp); f == pr.Expect && c != pr.Expect && c != agents.Unsure {
			t.Logf("%s: probe %s: full chose %q, compacted %q", sc.ID, pr.ID, f, c)
			ids = append(ids, pr.ID)
		}
	}
	return ids
}

// Done when (issue 10): on the built-in suite a faithful summary,
// structured or text-only, draws zero failures and zero regressions, and no
// summary that inverts, smuggles, over-lists or fabricates citations (the
// mutation suite, one defect each) scores at or above the faithful one:
// it keeps fewer invariants, or as many with more regressions or more
// structural failures — the order result.Ranked ranks summarizers in.
func TestDoneWhenFaithfulOutranksEveryMutation(t *testing.T) {
	byID := builtinByID(t)
	faithful := map[string][]score{} // by scenario, per generation
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		g, ok := readGold(t, id)
		if !ok {
			continue
		}
		for n := 1; n <= len(g.Generations); n++ {
			last := n == len(g.Generations)
			for _, form := range []struct {
				name string
				raw  json.RawMessage
			}{{"structured", g.Generations[n-1].Summary}, {"text-only", textOnlyOf(t, g.Generations[n-1].Summary)}} {
				s := scoreOf(t, goldInput(t, byID[id], g, n, form.raw), last)
				if s.lost > 0 || s.structural > 0 || s.regressions > 0 {
					t.Errorf("%s generation %d, %s gold: %d invariant failures, %d structural failures, %d regressions", id, n, form.name, s.lost, s.structural, s.regressions)
				}
				if form.name == "structured" {
					faithful[id] = append(faithful[id], s)
				}
			}
		}
	}
	files, err := filepath.Glob(filepath.Join(mutationDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no mutations: %v", err)
	}
	tiers := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m mutationFile
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		g, ok := readGold(t, m.Scenario)
		if !ok || len(m.TailDrop) > 0 {
			continue // a dropped tail event is no summary's doing
		}
		last := m.Generation == len(g.Generations)
		gold := faithful[m.Scenario][m.Generation-1]
		got := scoreOf(t, goldInput(t, byID[m.Scenario], g, m.Generation, m.Summary), last)
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		switch {
		case got.kept < gold.kept:
			tiers["fewer invariants kept"]++
		case got.kept == gold.kept && got.regressions > gold.regressions:
			tiers["as many invariants, more regressions"]++
		case got.kept == gold.kept && got.regressions == gold.regressions && got.structural > gold.structural:
			tiers["as many invariants and regressions, more structural failures"]++
		default:
			t.Errorf("%s scores at or above the faithful summary: %+v vs gold %+v", name, got, gold)
		}
	}
	t.Logf("mutations ranked below the faithful summary by: %v", tiers)
}

// A faithful summary in another language than its scenario (the Spanish
// built-in scenario summarized in English, testdata/gold/translated) draws
// zero failures and zero regressions, structured and text-only.
func TestTranslatedGoldPasses(t *testing.T) {
	byID := builtinByID(t)
	files, err := filepath.Glob(filepath.Join(goldDir, "translated", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no translated gold summaries: %v", err)
	}
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(id, func(t *testing.T) {
			g, ok := readGold(t, filepath.Join("translated", id))
			if !ok || byID[g.Scenario] == nil {
				t.Fatalf("%s: no such built-in scenario", f)
			}
			for n := 1; n <= len(g.Generations); n++ {
				last := n == len(g.Generations)
				for _, raw := range []json.RawMessage{g.Generations[n-1].Summary, textOnlyOf(t, g.Generations[n-1].Summary)} {
					in := goldInput(t, byID[g.Scenario], g, n, raw)
					for _, r := range Run(in) {
						if r.Status != result.Pass && r.Status != result.Skip {
							t.Errorf("generation %d: %s/%s: %s: %s", n, r.Check, r.Invariant, r.Status, r.Message)
						}
					}
					if last {
						if k := regressions(t, in.Scenario, raw); k > 0 {
							t.Errorf("generation %d: %d compaction regressions", n, k)
						}
					}
				}
			}
		})
	}
}
