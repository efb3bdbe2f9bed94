package reports_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
)

// TestEmptyAndClean renders a result with no unit and one where every check
// passed: no panic, and the verdict says so.
func TestEmptyAndClean(t *testing.T) {
	empty := &result.Result{ResultVersion: 1, RunID: "empty"}
	empty.Aggregate()
	clean := fake.Result(fake.Config{Scenarios: 1, Summarizers: []string{"builtin:none"}})
	for i := range clean.Units {
		clean.Units[i].Probes = nil // drop the fixture's agent error
	}
	clean.Aggregate()
	for _, tc := range []struct {
		name    string
		r       *result.Result
		verdict string
	}{
		{"empty", empty, "✅ every check passed (0 scenarios × 0 summarizers, 0 units)"},
		{"clean", clean, "✅ every check passed (1 scenario × 1 summarizer, 1 unit)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := reports.Verdict(tc.r, nil); got != tc.verdict {
				t.Errorf("Verdict = %q, want %q", got, tc.verdict)
			}
			for _, f := range reports.Formats {
				out := render(t, tc.r, f, reports.Options{})
				if len(out) == 0 {
					t.Errorf("%s: empty output", f)
				}
			}
			if md := render(t, tc.r, "md", reports.Options{}); strings.Contains(md, "### Failures") {
				t.Errorf("a clean result lists failures:\n%s", md)
			}
		})
	}
}

// FuzzDecode feeds arbitrary bytes to the strict reader: an error or a
// result, never a panic; an accepted result renders in every format.
func FuzzDecode(f *testing.F) {
	var b bytes.Buffer
	result.WriteJSON(&b, fake.Result(fake.Config{Scenarios: 1, Generations: 1, Summarizers: []string{"builtin:extractive"}}))
	f.Add(b.Bytes())
	f.Add([]byte(`{"result_version":1,"units":[{"scenario":{"id":"a"},"summarizer":"s","status":"ok","generations":[{"n":0,"summary":"x","checks":[{"status":"fail","evidence":[{"pointer":"/"}]}]}]}]}`))
	f.Add([]byte(`{"result_version":1,"units":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := result.Decode(data)
		if err != nil {
			return
		}
		for _, format := range reports.Formats {
			if err := reports.Write(&bytes.Buffer{}, r, format, reports.Options{}); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
		}
		reports.Compare(r, r, 0)
		reports.Gate(r, reports.GateOptions{MinPass: reports.MinPass{Rates: map[string]float64{"all": 0.5}}, Baseline: r})
	})
}
