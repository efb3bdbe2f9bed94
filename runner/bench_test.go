package runner

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/compact-eval/compact-eval/agents"
)

// BenchmarkBuiltinSuite runs the built-in suite through the four built-in
// summarizers with the reference agent, journal and result file included
// (target: under 1 s a run on a 2-core machine).
func BenchmarkBuiltinSuite(b *testing.B) {
	list := builtinSuite(b)
	sums := builtins(b, nil)
	dir := b.TempDir()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		opts := Options{Summarizers: sums, Agent: agents.Reference{}, AgentName: "builtin:reference", Out: filepath.Join(dir, "run", string(rune('a'+i%26)), filepath.Base(b.Name())+itoa(i))}
		res, err := Run(context.Background(), list, opts)
		if err != nil {
			b.Fatal(err)
		}
		if res.Ran != len(list)*len(sums) {
			b.Fatalf("ran %d units, want %d", res.Ran, len(list)*len(sums))
		}
	}
	b.ReportMetric(float64(len(list)*len(sums)), "units/op")
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
