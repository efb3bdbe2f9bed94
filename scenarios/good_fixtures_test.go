package scenarios

import (
	"path/filepath"
	"testing"
)

// TestGoodFixturesPassValidate: every scenario under testdata/scenarios/good
// is good by the rules validate applies, not only by the schema and the
// loader (TestSchemaAcceptsGoodScenarios): it loads, lints clean (cuts
// that split no protocol unit, unique ids, …) and draws no warning, since
// validate --strict counts those too. explicit-seqs.yaml once passed the
// schema test with a cut through a call and its result.
func TestGoodFixturesPassValidate(t *testing.T) {
	files, err := filepath.Glob("../testdata/scenarios/good/*.y*ml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no good fixtures found (%v)", err)
	}
	list, err := LoadPaths([]string{"../testdata/scenarios/good"})
	if err != nil {
		t.Fatalf("a good fixture does not load:\n%v", err)
	}
	if len(list) != len(files) {
		t.Fatalf("loaded %d scenarios from %d files", len(list), len(files))
	}
	for _, p := range Lint(list) {
		t.Errorf("lint: %v", p)
	}
	for _, p := range Warnings(list) {
		t.Errorf("warning: %v", p)
	}
}
