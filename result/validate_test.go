package result_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"
)

// TestDecodeRefusesEditedResults (issue 26, finding 7): a hand-edited
// result that gate and compare used to trust is refused with the reason: a
// check type with a trailing space, trial -1, an interrupted run whose
// `interrupted` field was deleted, fewer units than its run planned.
func TestDecodeRefusesEditedResults(t *testing.T) {
	base := func() *result.Result {
		return &result.Result{ResultVersion: result.ResultVersion, Harness: "test", RunID: "r",
			Config: result.RunConfig{Summarizers: []string{"extractive"}, Trials: 1,
				Suite: []result.SuiteScenario{{ID: "a", Digest: "sha256:x"}, {ID: "b", Digest: "sha256:y"}}},
			Units: []result.Unit{sampleUnit("a"), sampleUnit("b")}}
	}
	tests := []struct {
		name string
		edit func(*result.Result)
		want string
	}{
		{"as written", func(*result.Result) {}, ""},
		{"check type with a space", func(r *result.Result) { r.Units[0].Generations[0].Checks[0].Check = "constraint " },
			`check "constraint " is not a check type`},
		{"structural kind on an unknown invariant", func(r *result.Result) { r.Units[0].Generations[0].Checks[0].Check = "constrain" },
			`"constrain" is not an invariant type`},
		{"unknown kind", func(r *result.Result) { r.Units[0].Generations[0].Checks[0].Kind = "other" }, `unknown kind "other"`},
		{"trial -1", func(r *result.Result) { r.Units[1].Trial = -1 }, "units[1]: trial -1 is outside the run's 1 trials"},
		{"trial past the trials", func(r *result.Result) { r.Units[1].Trial = 3 }, "units[1]: trial 3 is outside the run's 1 trials"},
		{"interrupted deleted, a unit missing", func(r *result.Result) { r.Units = r.Units[:1] },
			"the result holds 1 units, but its run planned 2 (2 scenarios × 1 summarizers × 1 trials) and it is not marked interrupted"},
		{"interrupted deleted, resume kept", func(r *result.Result) { r.Resume = "compact-eval run --resume out" },
			"names a resume command but is not marked interrupted"},
		{"interrupted deleted, a unit abandoned", func(r *result.Result) { r.Units[0].Status = result.UnitAbandoned },
			"units[0]: an abandoned unit in a result not marked interrupted"},
		{"a scenario outside the suite", func(r *result.Result) { r.Units[1].Scenario.ID = "c" }, `scenario "c" is not in the run's planned suite`},
		{"interrupted and short: fine", func(r *result.Result) { r.Units, r.Interrupted, r.Resume = r.Units[:1], true, "x" }, ""},
	}
	for _, tc := range tests {
		r := base()
		tc.edit(r)
		var b bytes.Buffer
		if err := result.WriteJSON(&b, r); err != nil {
			t.Fatal(err)
		}
		_, err := result.Decode(b.Bytes())
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
}
