package runner

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/reports"
)

// TestBuiltinScoresDiffer runs the built-in suite through the built-in
// summarizers and checks that their scores differ as the summarizers'
// documentation (summarizers.Builtins) says they should.
func TestBuiltinScoresDiffer(t *testing.T) {
	notUnderRace(t, "TestJobsDeterministic")
	opts := baseOptions(t, filepath.Join(t.TempDir(), "run"))
	res, err := Run(context.Background(), builtinSuite(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reports.Read(res.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	sum := map[string]result.SummarizerSummary{}
	for _, s := range r.Summaries {
		sum[s.Summarizer] = s
	}
	rate := func(s, check string) float64 {
		t.Helper()
		a := result.FindAggregate(r, s, check)
		if a == nil || a.Pass+a.Fail == 0 {
			t.Fatalf("%s × %s: no pass or fail", s, check)
		}
		return a.PassRate
	}
	none, trunc, mask, extr := "builtin:none", "builtin:truncate", "builtin:mask", "builtin:extractive"

	if s := sum[none]; s.InvariantPass+s.InvariantFail+s.StructuralPass+s.StructuralFail != 0 || s.Regressions != 0 {
		t.Errorf("none: %+v; want every check skipped and no regression", s)
	}
	if a := result.FindAggregate(r, trunc, "compression"); a == nil || a.Fail != 0 {
		t.Errorf("truncate fails compression: %+v; it fits its budget by construction", a)
	}
	if tr, m, e := rate(trunc, "constraint"), rate(mask, "constraint"), rate(extr, "constraint"); tr >= m || tr >= e {
		t.Errorf("constraints kept: truncate %.2f, mask %.2f, extractive %.2f; truncate loses the early constraint", tr, m, e)
	}
	if tr, e := rate(trunc, "pending_operation"), rate(extr, "pending_operation"); tr >= e {
		t.Errorf("pending operations kept: truncate %.2f, extractive %.2f", tr, e)
	}
	if e, m := rate(extr, "correction"), rate(mask, "correction"); e >= m {
		t.Errorf("corrections kept: extractive %.2f, mask %.2f; extractive cannot tell the new value from the old", e, m)
	}
	if tr, m, e := sum[trunc].Regressions, sum[mask].Regressions, sum[extr].Regressions; tr <= m || tr <= e {
		t.Errorf("regressions: truncate %d, mask %d, extractive %d; truncate should regress most", tr, m, e)
	}
}
