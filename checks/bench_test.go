package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
)

// benchScenario is a 500-event session: the fixture's 16 events, then
// rounds of user questions, assistant remarks and tool calls with results.
func benchScenario() *scenarios.Scenario {
	sc := testScenario()
	seq := len(sc.Events)
	var evs []scenarios.Event
	evs = append(evs, sc.Events...)
	for len(evs) < 500 {
		seq++
		i := seq
		switch i % 4 {
		case 0:
			evs = append(evs, scenarios.Event{Seq: seq, Role: scenarios.RoleUser, Text: fmt.Sprintf("Can you check shard %d of the orders table and tell me whether the index on created_at is used by the nightly report query? It ran for %d s yesterday.", i, 30+i%50)})
		case 1:
			evs = append(evs, scenarios.Event{Seq: seq, Role: scenarios.RoleAssistant, Text: fmt.Sprintf("Looking at shard %d now; the planner statistics were refreshed %d minutes ago, so the estimate should be close.", i, i%90)})
		case 2:
			evs = append(evs, scenarios.Event{Seq: seq, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: fmt.Sprintf("b%d", i), Name: "run_sql", Args: map[string]any{"q": fmt.Sprintf("EXPLAIN SELECT * FROM orders_%d WHERE created_at > now() - interval '1 day'", i)}}})
		case 3:
			evs = append(evs, scenarios.Event{Seq: seq, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: fmt.Sprintf("b%d", i-1), Status: "ok", Text: fmt.Sprintf("Index Scan using orders_%d_created_at_idx on orders_%d (cost=0.43..%d.12 rows=%d width=96)\n  Index Cond: (created_at > (now() - '1 day'::interval))", i-1, i-1, 800+i, 1200+i)}})
		}
	}
	sc.Events = evs
	sc.Compaction = scenarios.Compaction{At: []int{480}}
	sc.Arrivals = nil
	return sc
}

// benchSummary is a realistic structured summary of about 2,000 tokens.
func benchSummary(cut int) *summary.Summary {
	s := goldSummary()
	s.CoversThrough = cut
	for i := 0; i < 32; i++ {
		seq := 20 + i*16 + 3 // tool results
		s.Verified = append(s.Verified, summary.Claim{Claim: fmt.Sprintf("orders_%d uses orders_%d_created_at_idx for the nightly report (cost up to %d, about %d rows)", seq-1, seq-1, 800+seq, 1200+seq), SourceSeq: seq})
	}
	for i := 0; i < 12; i++ {
		s.Decisions = append(s.Decisions, summary.Statement{Text: fmt.Sprintf("leave shard %d alone: its plan already uses the created_at index and statistics are fresh", 20+i*16), SourceSeq: 20 + i*16})
	}
	for i := 0; i < 10; i++ {
		s.NextSteps = append(s.NextSteps, fmt.Sprintf("re-run EXPLAIN on shard %d after tonight's vacuum and compare the row estimate with the actual count", 300+i*7))
	}
	s.Text = "The session started read-only: the user forbade any change to prod. DNS was suspected and ruled out (db resolves to 10.0.3.7); the port was corrected from 5432 to 6432. A select timed out after 30 s and the migration c4 never returned, so both stay pending. Since then the work has been a shard-by-shard review of the nightly report's plans: every shard checked so far uses its created_at index; none needed a change."
	return s
}

// BenchmarkChecks runs every check (Run, schema validation and token
// counting of the summary included) on a ~2,000-token summary of a
// 500-event scenario. The scenario's own data (its replaced-token count,
// path and quantity lookups) is computed once and cached, as in a run.
//
//	go test -run=^$ -bench=BenchmarkChecks -cpu=1 ./checks
func BenchmarkChecks(b *testing.B) {
	sc := benchScenario()
	cut := 480
	raw := mustJSON(b, benchSummary(cut))
	g := genAt(sc, cut, false)
	in := &Input{Scenario: sc, Gen: g, Raw: raw}
	res := Run(in) // warm the per-scenario cache
	for _, r := range res {
		if r.Status == result.Error {
			b.Fatalf("%s/%s: %s", r.Check, r.Invariant, r.Message)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Run(in)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "summaries/s")
	b.ReportMetric(float64(tokens.Default().Count(string(raw))), "summary-tokens")
}

// BenchmarkEachCheck runs each check of Run alone on the input of
// BenchmarkChecks, with a fresh per-summary memo each time: its figure is
// what the check costs when no other check has read the summary first
// (the work checks share is counted in each that needs it).
//
//	go test -run=^$ -bench=BenchmarkEachCheck -cpu=1 ./checks
func BenchmarkEachCheck(b *testing.B) {
	sc := benchScenario()
	cut := 480
	in := &Input{Scenario: sc, Gen: genAt(sc, cut, false), Raw: mustJSON(b, benchSummary(cut))}
	Run(in) // warm the per-scenario cache
	type named struct {
		name string
		c    Check
	}
	var all []named
	for _, c := range Structural {
		all = append(all, named{fmt.Sprintf("%T", c), c})
	}
	for _, inv := range sc.Invariants {
		all = append(all, named{inv.Type() + "/" + inv.InvariantID(), ForInvariant(inv)})
	}
	for _, n := range all {
		b.Run(strings.TrimPrefix(n.name, "checks."), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cp := *in
				cp.memo = &memo{}
				n.c.Check(&cp)
			}
		})
	}
}
