package runner

import (
	"testing"

	"github.com/compact-eval/compact-eval/result"
)

// TestSuiteDiff: a resume names how the suite differs from the one the run
// started with (issue 26, finding 6): changed, new and gone scenarios.
func TestSuiteDiff(t *testing.T) {
	prev := []result.SuiteScenario{{ID: "a", Digest: "1"}, {ID: "b", Digest: "2"}, {ID: "c", Digest: "3"}}
	tests := []struct {
		name string
		cur  []result.SuiteScenario
		want string
	}{
		{"same", prev, ""},
		{"changed", []result.SuiteScenario{{ID: "a", Digest: "1"}, {ID: "b", Digest: "9"}, {ID: "c", Digest: "3"}}, "changed: b"},
		{"new and gone", []result.SuiteScenario{{ID: "a", Digest: "1"}, {ID: "b", Digest: "2"}, {ID: "d", Digest: "4"}}, "new: d; gone: c"},
		{"many", []result.SuiteScenario{{ID: "d"}, {ID: "e"}, {ID: "f"}, {ID: "g"}, {ID: "h"}, {ID: "i"}}, "new: d, e, f, g, h and 1 more; gone: a, b, c"},
	}
	for _, tc := range tests {
		if got := suiteDiff(prev, tc.cur); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// Paths: the same as written or once absolute; another list is not.
	if !samePaths([]string{"sc/"}, []string{"./sc"}) || samePaths([]string{"sc"}, []string{"other"}) || samePaths(nil, []string{"sc"}) {
		t.Error("samePaths")
	}
}
