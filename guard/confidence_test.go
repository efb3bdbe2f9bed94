package guard_test

import (
	"path/filepath"
	"testing"

	"github.com/compact-eval/compact-eval/guard"
)

func TestClassOf(t *testing.T) {
	for id, want := range map[string]string{"constraint-12": "constraint", "id-3": "id", "attempt-1": "attempt", "no-force-push": "no-force-push", "x-": "x-", "pending-2": "pending"} {
		if got := guard.ClassOf(id); got != want {
			t.Errorf("ClassOf(%q) = %q, want %q", id, got, want)
		}
	}
}

// A class's confidence is the lower end of its Wilson interval: a class
// measured on few sessions gets little, whatever its rate.
func TestConfidence(t *testing.T) {
	for _, tc := range []struct {
		row  guard.ClassRow
		want float64
	}{
		{guard.ClassRow{Kept: 0, Suggested: 0}, 0},
		{guard.ClassRow{Kept: 4, Suggested: 4}, 0.51},
		{guard.ClassRow{Kept: 40, Suggested: 40}, 0.91},
		{guard.ClassRow{Kept: 25, Suggested: 28}, 0.72},
		{guard.ClassRow{Kept: 0, Suggested: 5}, 0},
	} {
		if got := tc.row.Confidence(); got != tc.want {
			t.Errorf("%d/%d: confidence %.2f, want %.2f", tc.row.Kept, tc.row.Suggested, got, tc.want)
		}
	}
	if guard.Confidence("no-such-class") != 0 {
		t.Error("an unmeasured class has a confidence")
	}
}

// Every class of suggestion the import makes on its fixtures has a row,
// with the type its suggestions have: a class the import adds is measured
// before the guard trusts it.
func TestEveryImportedClassHasARow(t *testing.T) {
	rows := map[string]string{}
	for _, r := range guard.Classes {
		rows[r.Class] = r.Type
	}
	logs, _ := filepath.Glob("../testdata/import/*.*")
	more, _ := filepath.Glob("../testdata/import/precision/*.*")
	seen := map[string]bool{}
	for _, log := range append(logs, more...) {
		s, err := guard.ReadFile(log, guard.ReadOptions{})
		if err != nil {
			continue // not a session log (labels, golden files)
		}
		for _, sg := range s.Suggestions {
			seen[sg.Class] = true
			typ, ok := rows[sg.Class]
			switch {
			case !ok:
				t.Errorf("%s: suggestion %s of class %q: confidence.tsv has no row for it (count its KEEP and noise lines with the command the file names, and add one)", filepath.Base(log), sg.Invariant.InvariantID(), sg.Class)
			case typ != sg.Invariant.Type():
				t.Errorf("%s: class %q suggests %s, its row says %s", filepath.Base(log), sg.Class, sg.Invariant.Type(), typ)
			}
		}
	}
	if len(seen) < 4 {
		t.Errorf("the fixtures' suggestions hold %d classes: the test read nothing", len(seen))
	}
}
