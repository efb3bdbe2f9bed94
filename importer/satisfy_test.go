package importer_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/internal/testkit/suggestions"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/selftest"
	"github.com/google/go-cmp/cmp"
)

// satisfyFixtures are every session the importer is tested on: the format
// fixtures, the precision sessions (the public ones too) and the sessions written for the
// satisfiability check, whose rules hold commas, backticks, quotes,
// brackets and quantities a faithful summary respells.
func satisfyFixtures(t *testing.T) []string {
	files := fixtures(t)
	for _, pat := range []string{"../testdata/import/satisfy/*.jsonl", "../testdata/import/precision/*.json*", "../testdata/import/precision/*.traj",
		"../testdata/import/precision/public/*.json*", "../testdata/import/precision/public/*.traj",
		"../testdata/import/precision/public2/*.json*", "../testdata/import/precision/public3/*.json*", "../testdata/import/precision/public3/*.traj", "../testdata/import/precision/public4/*.json", "../testdata/import/precision/public5/*.json", "../testdata/import/precision/public6/*.json"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	return files
}

// TestSuggestionsSatisfiable: with every suggestion uncommented, selftest
// finds none that no summary can pass, in any session.
func TestSuggestionsSatisfiable(t *testing.T) {
	total := 0
	for _, path := range satisfyFixtures(t) {
		out, rep := importFile(t, path, importer.Options{})
		if rep.Suggestions == 0 {
			continue
		}
		sc, err := scenarios.LoadBytes(filepath.Base(path)+".yaml", suggestions.Accept(out))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		total += len(sc.Invariants)
		for target, why := range selftest.Unsatisfiable(sc, rep.Cut) {
			t.Errorf("%s: %s cannot be passed: %s", filepath.Base(path), target, strings.Join(why, "; "))
		}
	}
	if total < 40 {
		t.Errorf("only %d suggestions checked across the fixtures", total)
	}
}

// TestTallyLine compares the line import prints about its suggestions with
// a golden file, one line a session.
func TestTallyLine(t *testing.T) {
	var got strings.Builder
	for _, path := range satisfyFixtures(t) {
		_, rep := importFile(t, path, importer.Options{})
		got.WriteString(filepath.Base(path) + ": " + rep.Tally.Line() + "\n")
	}
	golden := "../testdata/import/golden/suggestion-lines.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("suggestion lines (-want +got):\n%s", diff)
	}
}

// The patterns of rules whose words are quoted, punctuated or bracketed
// keep matching their source: the comma of "TodoWrite, TaskCreate", the
// backticks of `sandbox_permissions`; a rule whose quantity a summary
// respells is repaired; a quantity inside a negated rule is left out with
// the reason. (The system prompt is the scenario's rules, never an event:
// its rules are not suggested.)
func TestSuggestionRepairs(t *testing.T) {
	out, rep := importFile(t, "../testdata/import/satisfy/punctuation.jsonl", importer.Options{})
	s := string(out)
	for _, want := range []string{
		`match: [never use todowrite\W+taskcreate]`,
		`match: [do not change\W+sandbox_permissions\W+in config\.toml]`,
		`match: [never\W+sleep]`,
		`quantity: "30 seconds" at seq 1 — left out, no summary can pass`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the import lacks %q", want)
		}
	}
	if rep.Tally.Kept != 5 || rep.Tally.Repaired != 1 || rep.Tally.LeftOut != 1 {
		t.Errorf("tally = %+v, want 5 kept, 1 repaired, 1 left out", rep.Tally)
	}
}
