package runner

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/runner/internal/gen"
	"github.com/compact-eval/compact-eval/scenarios"
)

// BenchmarkBuiltinSuite runs the built-in suite through the four built-in
// summarizers with the reference agent, journal and result file included
// (target: under 1 s a run on a 2-core machine).
func BenchmarkBuiltinSuite(b *testing.B) {
	list := builtinSuite(b)
	sums := builtins(b, nil)
	b.ReportAllocs()
	runEach(b, list, sums)
	b.ReportMetric(float64(len(list)*len(sums)), "units/op")
}

// runEach runs list × sums once per benchmark iteration, each run in a
// fresh folder, and fails unless every unit ran.
func runEach(b *testing.B, list []*scenarios.Scenario, sums []Summarizer) {
	b.Helper()
	dir := b.TempDir()
	i := 0
	for b.Loop() {
		i++
		opts := Options{Summarizers: sums, Agent: agents.Reference{}, AgentName: "builtin:reference", Out: filepath.Join(dir, fmt.Sprint(i))}
		res, err := Run(context.Background(), list, opts)
		if err != nil {
			b.Fatal(err)
		}
		if res.Ran != len(list)*len(sums) {
			b.Fatalf("ran %d units, want %d", res.Ran, len(list)*len(sums))
		}
	}
}

// generated returns n generated scenarios of 500 events.
func generated(b *testing.B, n int) []*scenarios.Scenario {
	b.Helper()
	var list []*scenarios.Scenario
	for i := 1; i <= n; i++ {
		var buf bytes.Buffer
		if err := gen.Write(&buf, i, gen.Options{}); err != nil {
			b.Fatal(err)
		}
		sc, err := scenarios.LoadBytes(fmt.Sprintf("gen-%05d.yaml", i), buf.Bytes())
		if err != nil {
			b.Fatal(err)
		}
		if len(sc.Events) != 500 {
			b.Fatalf("generated scenario %d has %d events, want 500", i, len(sc.Events))
		}
		list = append(list, sc)
	}
	return list
}

// BenchmarkGenerated100 runs 100 generated scenarios of 500 events through
// the four built-in summarizers (scripts/bench-run.sh runs 100 and 1,000
// through the command, with peak memory).
func BenchmarkGenerated100(b *testing.B) {
	list := generated(b, 100)
	runEach(b, list, builtins(b, nil))
}
