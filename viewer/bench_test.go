package viewer_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/viewer"
)

// benchRuns is the number of run folders the benchmarks serve.
const benchRuns = 1000

var (
	benchOnce sync.Once
	benchDir  string
)

// benchFixture writes benchRuns run folders once per process: each the
// built-in suite's size (21 scenarios) × 3 summarizers × 3 generations,
// an hour apart, two runs per commit, ten in a hundred still being
// written and one corrupt. It is removed by TestMain.
func benchFixture(b *testing.B) string {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "viewer-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchDir = dir
		base := fake.Result(fake.Config{Scenarios: 21, Summarizers: []string{"builtin:truncate", "builtin:extractive", "ours"}, Seed: 1})
		for i := range benchRuns {
			r := *base
			if i%10 == 0 { // a different result now and then
				r = *fake.Result(fake.Config{Scenarios: 21, Summarizers: []string{"builtin:truncate", "builtin:extractive", "ours"}, Seed: uint64(i + 2)})
			}
			r.Started = t0.Add(time.Duration(i) * time.Hour)
			r.RunID = r.Started.Format("20060102T150405Z")
			r.Git = &result.Git{Commit: fmt.Sprintf("c%04d%035d", i/2, 0), Branch: "main"}
			d := writeRun(b, dir, r.RunID, &r)
			switch {
			case i%100 == 7:
				os.Remove(filepath.Join(d, "result.json"))
			case i == 500:
				os.WriteFile(filepath.Join(d, "result.json"), []byte("{"), 0o644)
			}
		}
	})
	return benchDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range []string{benchDir, largeDir} {
		if d != "" {
			os.RemoveAll(d)
		}
	}
	os.Exit(code)
}

// heapMB is the live heap after a collection, in MB.
func heapMB() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// BenchmarkListRuns is the first listing of 1,000 run folders, as when
// the viewer starts: every result read lightly (its head, tail and the
// opening of each unit line; see light.go), one reader per CPU.
func BenchmarkListRuns(b *testing.B) {
	dir := benchFixture(b)
	before := heapMB()
	var site *viewer.Server
	cpu := cpuTime()
	for b.Loop() {
		site = viewer.New([]string{dir})
		if n := len(site.Store().Runs()); n != benchRuns {
			b.Fatalf("%d runs", n)
		}
	}
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "CPU-s/op")
	b.ReportMetric(heapMB()-before, "MB-live")
	runtime.KeepAlive(site)
}

// BenchmarkRunsPage is GET / over 1,000 runs, once they have been read:
// what a reader waits for on every visit and every refresh.
func BenchmarkRunsPage(b *testing.B) {
	benchPage(b, "/", `data-state="in progress"`)
}

// BenchmarkTrendsPage is GET /trends over 1,000 runs, once read.
func BenchmarkTrendsPage(b *testing.B) {
	benchPage(b, "/trends?figure=constraint", `<a class="pt"`)
}

func benchPage(b *testing.B, path, want string) {
	dir := benchFixture(b)
	before := heapMB()
	site := viewer.New([]string{dir})
	site.Store().Runs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), want) {
			b.Fatalf("GET %s = %d", path, rec.Code)
		}
	}
	b.ReportMetric(heapMB()-before, "MB-live")
	runtime.KeepAlive(site)
}
