package selftest

import (
	"context"
	"testing"

	"github.com/compact-eval/compact-eval/scenarios"
)

// BenchmarkSelftestBuiltin selftests the built-in suite with the reference
// agent: oracles in both forms for every generation, satisfiability, and
// every planted variant through the runner. Run it on one core:
//
//	go test -run '^$' -bench SelftestBuiltin -cpu 1 -benchtime 5x ./selftest
func BenchmarkSelftestBuiltin(b *testing.B) {
	list, err := scenarios.Builtin()
	if err != nil {
		b.Fatal(err)
	}
	planted := 0
	for b.Loop() {
		r, err := Run(context.Background(), list, Options{Jobs: 1})
		if err != nil {
			b.Fatal(err)
		}
		if r.Planted == 0 {
			b.Fatal("nothing planted")
		}
		planted = r.Planted
	}
	b.ReportMetric(float64(planted), "variants/op")
}
