package viewer

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// TestIndexReadsWhatPagesNeed: the index finds every unit from its line's
// opening, a grid page decodes only the chunks of its rows, the unit page
// one line, and what it decodes is the result's own unit; a result laid
// out otherwise is decoded in full, with the same figures.
func TestIndexReadsWhatPagesNeed(t *testing.T) {
	r := fake.Result(fake.Config{Scenarios: 200, Trials: 2, Seed: 4}) // 1,600 units, 7 chunks
	dir := t.TempDir()
	path := filepath.Join(dir, "result.json")
	must(t, os.WriteFile(path, writeJSON(t, r), 0o644))
	x, err := buildIndex(path, r.RunID, r.Config.Summarizers, reports.Pricing{})
	must(t, err)
	if x.res != nil || len(x.units) != len(r.Units) || len(x.scenarios) != 200 || x.trials != 2 || !slices.Equal(x.sums, r.Config.Summarizers) {
		t.Fatalf("index: full %v, %d units, %d scenarios, %d trials, %v", x.res != nil, len(x.units), len(x.scenarios), x.trials, x.sums)
	}
	decoded := func() (n int) {
		for i := range x.chunks {
			if x.chunks[i].figs != nil {
				n++
			}
		}
		return n
	}
	p, err := x.page("0/run", "/run/0/run", gridQuery{Show: showAll, Page: 1, Per: 10}, nil)
	must(t, err)
	if len(p.Rows) != 10 || decoded() != 1 {
		t.Errorf("page 1 of 10 rows: %d rows, %d of %d chunks decoded, want 1", len(p.Rows), decoded(), len(x.chunks))
	}
	for _, i := range []int{0, 1, 777, len(r.Units) - 1} {
		u, err := x.unit(i)
		must(t, err)
		want := &r.Units[i]
		if u.Scenario.ID != want.Scenario.ID || u.Summarizer != want.Summarizer || u.Trial != want.Trial || !bytes.Equal(mustJSON(t, u), mustJSON(t, want)) {
			t.Errorf("unit %d decodes to another unit", i)
		}
		if x.byAnchor[reports.UnitAnchor(want.Scenario.ID, want.Summarizer, want.Trial)] != i {
			t.Errorf("unit %d: its anchor does not find it", i)
		}
	}
	must(t, x.ensureAll())
	for i := range r.Units {
		if got, want := *x.fig(i), reports.FiguresOf(&r.Units[i], reports.Pricing{}); got != want {
			t.Fatalf("unit %d: figures %+v, want %+v", i, got, want)
		}
	}
	// One line of JSON: decoded in full, the same figures.
	compact, err := jsonMarshal(r)
	must(t, err)
	must(t, os.WriteFile(path, compact, 0o644))
	y, err := buildIndex(path, r.RunID, r.Config.Summarizers, reports.Pricing{})
	must(t, err)
	must(t, y.ensureAll())
	if y.res == nil || len(y.units) != len(r.Units) || *y.fig(777) != *x.fig(777) {
		t.Error("a result on one line is not indexed from its full decode")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := jsonMarshal(v)
	must(t, err)
	return b
}

// TestUnitHead reads the trial after the opening, and refuses a line laid
// out otherwise.
func TestUnitHead(t *testing.T) {
	u := result.Unit{Scenario: result.ScenarioRef{ID: "a,b", Title: `say "x"`}, Summarizer: "ours", Trial: 12, Status: "ok"}
	line, err := result.MarshalUnit(&u)
	must(t, err)
	ref, sum, trial, ok := unitHead(append([]byte("    "), line...))
	if !ok || trial != 12 || string(sum) != `"ours"` || !strings.Contains(string(ref), `"a,b"`) {
		t.Errorf("unitHead = %s %s %d %v", ref, sum, trial, ok)
	}
	for _, bad := range []string{`    {"scenario":{"id":"a"},"summarizer":"s","status":"ok"}`, `    {"scenario":{"id":"a"},"summarizer":"s","trial":-1,`, `{"scenario":{"id":"a"}`} {
		if _, _, _, ok := unitHead([]byte(bad)); ok {
			t.Errorf("unitHead(%s) ok", bad)
		}
	}
}

// TestSlimFigures: a unit decoded for its figures alone has the figures of
// the unit decoded in full, for a unit that sets every field FiguresOf
// reads (judged checks, judged answers, the recall arm, cache hits,
// retries, errors, a skip).
func TestSlimFigures(t *testing.T) {
	call := func(spec string, in, out int) result.Call {
		return result.Call{Spec: spec, Latency: 1234567, Usage: result.Usage{PromptTokens: in, CompletionTokens: out}, Retries: 1, CacheHit: in%2 == 0}
	}
	judge := &result.Judgement{Verdict: "kept", Quote: "q", Call: call("openai:j", 51, 7)}
	u := result.Unit{Scenario: result.ScenarioRef{ID: "s", File: "f.yaml", Title: "t", Plan: &result.Plan{}}, Summarizer: "ours", Trial: 3,
		Status: result.UnitError, Error: "boom", Skipped: "", Duration: 987654321, Warnings: []string{"w"},
		Generations: []result.Generation{
			{N: 1, Summary: []byte(`{"text":"x"}`), SummaryTokens: 10, ReplacedTokens: 100, Call: call("openai:s", 100, 10),
				Checks: []result.CheckResult{{Check: "constraint", Kind: result.KindInvariant, Status: result.Pass, Judge: judge, Message: "m", Evidence: []result.Evidence{{Seq: 1, Text: "x"}}},
					{Check: "schema", Kind: result.KindStructural, Status: result.Uncertain}}},
			{N: 2, Error: "gen", Call: call("openai:s", 0, 0), Checks: []result.CheckResult{{Check: "constraint", Kind: result.KindInvariant, Status: result.Error}}},
		},
		Probes: []result.Probe{
			{ID: "p", Class: result.CompactionRegression, Full: result.Decision{Call: call("openai:a", 30, 3), Judge: judge}, Compacted: result.Decision{Call: call("openai:a", 20, 2)},
				Recall: &result.Decision{Call: call("openai:a", 40, 4), Judge: judge}},
			{ID: "q", Class: result.ProbeSkipped},
		}}
	line, err := result.MarshalUnit(&u)
	must(t, err)
	slim, err := decodeSlim(line)
	must(t, err)
	p := reports.Pricing{Prices: reports.Prices{"ours": {Input: 1, Output: 2}, "openai:a": {Input: 3, Output: 4}, "openai:j": {Input: 5, Output: 6}}}
	if got, want := reports.FiguresOf(slim, p), reports.FiguresOf(&u, p); got != want {
		t.Errorf("slim figures %+v\nwant %+v", got, want)
	}
	u.Skipped, u.Status, u.Error = "no recorded compaction", result.UnitOK, ""
	line, _ = result.MarshalUnit(&u)
	slim, _ = decodeSlim(line)
	if got, want := reports.FiguresOf(slim, p), reports.FiguresOf(&u, p); got != want {
		t.Errorf("skipped: slim figures %+v\nwant %+v", got, want)
	}
}
