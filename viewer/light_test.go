package viewer

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// lightCases are results whose headline figures the light read must give
// exactly as the full decode does, and whether it may read them lightly
// (fake results have check and probe errors; the units that hold a unit's
// or a generation's error are decoded, and only they).
func lightCases() []struct {
	name  string
	res   *result.Result
	light bool
} {
	base := func(seed uint64) *result.Result {
		return fake.Result(fake.Config{Scenarios: 5, Summarizers: []string{"builtin:truncate", "builtin:extractive", "ours"}, Trials: 2, Seed: seed})
	}
	uncertain := base(2)
	for i := range uncertain.Units {
		for gi := range uncertain.Units[i].Generations {
			for ci := range uncertain.Units[i].Generations[gi].Checks {
				if c := &uncertain.Units[i].Generations[gi].Checks[ci]; (i+gi+ci)%7 == 0 {
					c.Status = result.Uncertain
				}
			}
		}
	}
	uncertain.Aggregate()
	extra := base(3) // a unit of a summarizer the config does not name
	extra.Config.Summarizers = extra.Config.Summarizers[:2]
	extra.Aggregate()
	intr := base(4)
	intr.Interrupted, intr.Resume, intr.MissingShards = true, "compact-eval run --resume out/x", []string{"2/3"}
	allPass := fake.Result(fake.Config{Scenarios: 2, Summarizers: []string{"ours"}, Seed: 5})
	for i := range allPass.Units {
		for gi := range allPass.Units[i].Generations {
			for ci := range allPass.Units[i].Generations[gi].Checks {
				allPass.Units[i].Generations[gi].Checks[ci].Status = result.Pass
			}
		}
		for pi := range allPass.Units[i].Probes {
			allPass.Units[i].Probes[pi].Class = result.Kept
		}
	}
	allPass.Aggregate()
	unitErr := base(6) // an error: its count only the units give
	unitErr.Units[1].Status, unitErr.Units[1].Error = result.UnitError, "summarizer: connection refused"
	unitErr.Units[1].Generations[0].Error = unitErr.Units[1].Error
	unitErr.Aggregate()
	probeErr := base(7)
	probeErr.Units[2].Probes[0].Class = result.ProbeErrored
	probeErr.Aggregate()
	genErr := base(8) // a generation's error, its checks errored after it
	genErr.Units[3].Generations[1].Error = "summarizer: timeout"
	for ci := range genErr.Units[3].Generations[1].Checks {
		genErr.Units[3].Generations[1].Checks[ci].Status = result.Error
	}
	genErr.Aggregate()
	both := base(9) // a unit error, and a generation error that says something else
	both.Units[4].Status, both.Units[4].Error = result.UnitError, "agent: exit status 2"
	both.Units[4].Generations[0].Error = "summarizer: 503"
	both.Units[5].Generations[2].Error = "summarizer: 503"
	both.Units[5].Generations[2].Checks[0].Status = result.Error
	both.Aggregate()
	judged := base(10) // "error" in a line that holds no unit's error
	judged.Units[0].Generations[0].Checks[0].Judge = &result.Judgement{Error: "judge: timeout"}
	judged.Aggregate()
	long := base(11) // a unit line longer than the reader's buffer, with an error
	long.Units[2].Warnings = []string{strings.Repeat("a long warning ", 8000)}
	long.Units[2].Status, long.Units[2].Error = result.UnitError, "summarizer: reply too long"
	long.Aggregate()
	empty := &result.Result{ResultVersion: result.ResultVersion, RunID: "empty", Config: result.RunConfig{Summarizers: []string{"ours"}, Trials: 1}}
	return []struct {
		name  string
		res   *result.Result
		light bool
	}{
		{"fails and regressions", base(1), true},
		{"uncertain checks", uncertain, true},
		{"a summarizer outside the config", extra, true},
		{"interrupted, a shard missing", intr, true},
		{"every check passed", allPass, true},
		{"no unit", empty, true},
		{"a probe error", probeErr, true},
		{"a unit error", unitErr, true},
		{"a generation error", genErr, true},
		{"unit and generation errors", both, true},
		{"a judge's error", judged, true},
		{"a long unit line with an error", long, true},
	}
}

// TestLightEqualsFull: a run's headline figures read lightly (no unit
// decoded but those that hold an error) are the full decode's, field by
// field.
func TestLightEqualsFull(t *testing.T) {
	for _, tc := range lightCases() {
		t.Run(tc.name, func(t *testing.T) {
			path := writeResult(t, tc.res)
			_, err := readLight(path)
			if tc.light != (err == nil) {
				t.Fatalf("readLight: %v; want it read lightly: %v", err, tc.light)
			}
			if err != nil && !errors.Is(err, errNotLight) {
				t.Fatalf("readLight: %v, want errNotLight", err)
			}
			full, err := reports.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			want := &Run{}
			want.fill(full)
			got := readRun(folder{dir: filepath.Dir(path)}, "")
			got.Dir, got.ID, got.stamp = "", "", ""
			if !reflect.DeepEqual(got, want) {
				t.Errorf("listing figures differ from the full decode's:\n got %+v\nwant %+v", got, want)
			}
			if tc.light && want.Verdict == "" {
				t.Error("no verdict")
			}
		})
	}
}

// TestLightLayout: a result laid out otherwise than WriteJSON lays it out
// (one line, or units indented over many lines) is decoded in full and
// listed with the same figures; a head that does not decode is unreadable.
func TestLightLayout(t *testing.T) {
	res := lightCases()[0].res
	var want Run
	want.fill(res)
	compact, err := jsonMarshal(res)
	must(t, err)
	for name, data := range map[string][]byte{
		"one line":             compact,
		"indented throughout":  indent(t, compact),
		"units on their lines": writeJSON(t, res),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "result.json")
			must(t, os.WriteFile(path, data, 0o644))
			_, lerr := readLight(path)
			if name == "units on their lines" && lerr != nil {
				t.Fatalf("WriteJSON's layout not read lightly: %v", lerr)
			}
			if name != "units on their lines" && !errors.Is(lerr, errNotLight) {
				t.Fatalf("readLight = %v, want errNotLight", lerr)
			}
			got := readRun(folder{dir: dir}, "")
			if got.State != StateDone || got.Verdict != want.Verdict || got.Suite != want.Suite || got.Units != want.Units {
				t.Errorf("got %s %q %q %d, want done %q %q %d", got.State, got.Verdict, got.Suite, got.Units, want.Verdict, want.Suite, want.Units)
			}
		})
	}
	t.Run("unknown field in the head", func(t *testing.T) {
		data := bytes.Replace(writeJSON(t, res), []byte(`"run_id"`), []byte(`"runid": 1, "run_id"`), 1)
		dir := t.TempDir()
		must(t, os.WriteFile(filepath.Join(dir, "result.json"), data, 0o644))
		if got := readRun(folder{dir: dir}, ""); got.State != StateUnreadable || !strings.Contains(got.Reason, "runid") {
			t.Errorf("state %s, reason %q; want unreadable naming the field", got.State, got.Reason)
		}
	})
}

// TestOpenRefreshesListing: stored summaries edited by hand are what the
// listing shows until the run is opened; then the figures are the units'.
func TestOpenRefreshesListing(t *testing.T) {
	res := lightCases()[0].res
	data := writeJSON(t, res)
	kept := res.Summaries[0].InvariantsKept
	data = bytes.Replace(data, []byte(`"invariants_kept": `+jsonFloat(kept)), []byte(`"invariants_kept": 0.999`), 1)
	root := t.TempDir()
	dir := filepath.Join(root, "edited")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "result.json"), data, 0o644))
	s := NewStore([]string{root})
	r := s.Run("0/edited")
	if r == nil || r.Summaries[0].InvariantsKept != 0.999 {
		t.Fatalf("the listing did not read the stored summaries (fixture broken): %+v", r)
	}
	if _, _, err := s.Result("0/edited"); err != nil {
		t.Fatal(err)
	}
	if got := s.Run("0/edited").Summaries[0].InvariantsKept; got != kept {
		t.Errorf("after opening the run the listing says %v, want the units' %v", got, kept)
	}
}

func writeResult(t *testing.T, r *result.Result) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "result.json")
	must(t, os.WriteFile(path, writeJSON(t, r), 0o644))
	return path
}

func writeJSON(t *testing.T, r *result.Result) []byte {
	t.Helper()
	var b bytes.Buffer
	must(t, result.WriteJSON(&b, r))
	return b.Bytes()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

func indent(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	must(t, json.Indent(&out, b, "", "  "))
	return out.Bytes()
}

func jsonFloat(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// TestBenchFixtureLight: the benchmark's results (fake results have check
// and probe errors, never a unit's or a generation's) take the light read
// that BenchmarkListRuns means to measure.
func TestBenchFixtureLight(t *testing.T) {
	for _, seed := range []uint64{1, 2, 12} {
		r := fake.Result(fake.Config{Scenarios: 21, Summarizers: []string{"builtin:truncate", "builtin:extractive", "ours"}, Seed: seed})
		if _, err := readLight(writeResult(t, r)); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
	}
}

// TestLightUnaccountedErrors: stored errors that the unit lines do not
// hold (a summary edited by hand) send the result to the full decode.
func TestLightUnaccountedErrors(t *testing.T) {
	res := lightCases()[0].res
	data := writeJSON(t, res)
	at := bytes.Index(data, []byte(`"summaries": [`))
	n := bytes.Index(data[at:], []byte(`"errors": `))
	if at < 0 || n < 0 {
		t.Fatal("no stored summary errors (fixture broken)")
	}
	n += at + len(`"errors": `)
	edited := append(append(slices.Clone(data[:n]), '7'), data[n:]...)
	path := filepath.Join(t.TempDir(), "result.json")
	must(t, os.WriteFile(path, edited, 0o644))
	if _, err := readLight(path); !errors.Is(err, errNotLight) {
		t.Errorf("readLight = %v, want errNotLight", err)
	}
}
