package reports_test

import (
	"sync"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/reports/internal/fake"
)

var (
	largeOnce sync.Once
	large     *reports.Result
)

// largeResult is 1,000 scenarios × 4 summarizers × 3 generations.
func largeResult() *reports.Result {
	largeOnce.Do(func() {
		large = fake.Result(fake.Config{Scenarios: 1000, Seed: 11})
		fake.Redact(large)
	})
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
	if err := reports.Write(&w, largeResult(), "html", reports.Options{}); err != nil {
		t.Fatal(err)
	}
	const limit = 20 << 20
	if w.n >= limit {
		t.Errorf("HTML is %d bytes, want < %d", w.n, limit)
	}
	t.Logf("HTML of %d units: %.1f MB", len(largeResult().Units), float64(w.n)/(1<<20))
}

// BenchmarkRender renders every format of 1,000 scenarios × 4 summarizers;
// the "all" case is the budget of the brief (< 5 s).
func BenchmarkRender(b *testing.B) {
	r := largeResult()
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
	r := largeResult()
	for b.Loop() {
		r.Aggregate()
	}
}

func BenchmarkCompare(b *testing.B) {
	r := largeResult()
	for b.Loop() {
		reports.Compare(r, r, 0.05)
	}
}
