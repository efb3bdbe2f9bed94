package reports_test

import (
	"sync"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
)

var (
	largeOnce sync.Once
	large     *result.Result
)

// largeResult is 1,000 scenarios × 4 summarizers × 3 generations; it fails
// tb when the fake built anything smaller, so no size or speed is measured
// on an empty result.
func largeResult(tb testing.TB) *result.Result {
	tb.Helper()
	largeOnce.Do(func() {
		large = fake.Result(fake.Config{Scenarios: 1000, Seed: 11})
		fake.Redact(large)
	})
	gens, checks := 0, 0
	for _, u := range large.Units {
		gens += len(u.Generations)
		for _, g := range u.Generations {
			checks += len(g.Checks)
		}
	}
	if len(large.Units) != 4000 || gens < 11000 || checks == 0 {
		tb.Fatalf("large result has %d units, %d generations, %d checks; want 4000 units, about 12000 generations (some units error early) and checks", len(large.Units), gens, checks)
	}
	return large
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// TestLargeHTMLSize checks the HTML of 1,000 scenarios × 4 summarizers stays
// under 20 MB (a size, not a time: BenchmarkRender measures speed).
func TestLargeHTMLSize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 4,000-unit result")
	}
	var w countWriter
	if err := reports.Write(&w, largeResult(t), "html", reports.Options{}); err != nil {
		t.Fatal(err)
	}
	const limit = 20 << 20
	if w.n >= limit {
		t.Errorf("HTML is %d bytes, want < %d", w.n, limit)
	}
	t.Logf("HTML of %d units: %.1f MB", len(largeResult(t).Units), float64(w.n)/(1<<20))
}

// BenchmarkRender renders every format of 1,000 scenarios × 4 summarizers;
// the "all" case is the budget of the brief (< 5 s).
func BenchmarkRender(b *testing.B) {
	r := largeResult(b)
	for _, f := range append(append([]string(nil), reports.Formats...), "all") {
		b.Run(f, func(b *testing.B) {
			formats := []string{f}
			if f == "all" {
				formats = reports.Formats
			}
			var bytes int64
			for b.Loop() {
				bytes = 0
				for _, f := range formats {
					w := &countWriter{}
					if err := reports.Write(w, r, f, reports.Options{}); err != nil {
						b.Fatal(err)
					}
					bytes += w.n
				}
			}
			b.ReportMetric(float64(bytes)/(1<<20), "MB/op")
		})
	}
}

func BenchmarkAggregate(b *testing.B) {
	r := largeResult(b)
	for b.Loop() {
		r.Aggregate()
	}
}

func BenchmarkCompare(b *testing.B) {
	r := largeResult(b)
	if c := reports.Compare(r, r, 0.05); len(c.Rows) == 0 || c.Unpaired != 0 {
		b.Fatalf("comparing the large result with itself: %d rows, %d unpaired; want rows and every outcome paired", len(c.Rows), c.Unpaired)
	}
	for b.Loop() {
		reports.Compare(r, r, 0.05)
	}
}
