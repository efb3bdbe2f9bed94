package viewer_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/viewer"
)

// t0 is when the first fixture run started.
var t0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// writeRun writes r as the run folder dir/name: run.json, journal.jsonl
// (one line per unit) and result.json, as run writes them.
func writeRun(t testing.TB, dir, name string, r *result.Result) string {
	t.Helper()
	d := filepath.Join(dir, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	head := *r
	head.Units = nil
	var hb []byte
	hb = fmt.Appendf(hb, `{"result_version": 1, "run_id": %q, "started": %q, "config": {"summarizers": [], "agent": "", "trials": 1, "tokenizer": ""}}`, r.RunID, r.Started.Format(time.RFC3339))
	must(t, os.WriteFile(filepath.Join(d, "run.json"), hb, 0o644))
	var journal []byte
	for i := range r.Units {
		line, err := result.MarshalUnit(&r.Units[i])
		must(t, err)
		journal = append(journal, line...)
	}
	must(t, os.WriteFile(filepath.Join(d, "journal.jsonl"), journal, 0o644))
	f, err := os.Create(filepath.Join(d, "result.json"))
	must(t, err)
	must(t, result.WriteJSON(f, r))
	must(t, f.Close())
	return d
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// fixtureRun is fake run number i: two summarizers, started an hour after
// the previous one, on commit c<i/2> of main (two runs per commit).
func fixtureRun(i int, scenarios int) *result.Result {
	r := fake.Result(fake.Config{Scenarios: scenarios, Summarizers: []string{"builtin:truncate", "builtin:extractive"}, Seed: uint64(i + 1)})
	r.RunID = t0.Add(time.Duration(i) * time.Hour).Format("20060102T150405Z")
	r.Started = t0.Add(time.Duration(i) * time.Hour)
	r.Finished = r.Started.Add(time.Minute)
	r.Git = &result.Git{Commit: fmt.Sprintf("c%03d%036d", i/2, 0), Branch: "main", Dirty: i%2 == 1}
	return r
}

// fixture writes n runs into a new folder and returns it.
func fixture(t testing.TB, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		writeRun(t, dir, fixtureRun(i, 4).RunID, fixtureRun(i, 4))
	}
	return dir
}

// get fetches path from the site and returns the status and body.
func get(t testing.TB, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	b, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(b)
}

var _ = viewer.New
