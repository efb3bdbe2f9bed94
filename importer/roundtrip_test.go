package importer_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/testkit/suggestions"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/scenarios"
)

// fixtures lists every fixture in testdata/import.
func fixtures(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"../testdata/import/*.json", "../testdata/import/*.jsonl", "../testdata/import/*.traj"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures in ../testdata/import")
	}
	return files
}

func importFile(t *testing.T, path string, opts importer.Options) ([]byte, *importer.Report) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if opts.Name == "" {
		opts.Name = filepath.Base(path)
	}
	var out bytes.Buffer
	rep, err := importer.Import(f, &out, opts)
	if err != nil {
		t.Fatalf("import %s: %v", path, err)
	}
	return out.Bytes(), rep
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata/import/golden")

// TestGolden compares each fixture's import, and its warnings, with a golden
// file; -update rewrites them.
func TestGolden(t *testing.T) {
	for _, path := range fixtures(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			out, rep := importFile(t, path, importer.Options{})
			got := string(out) + "\n# warnings:\n# " + strings.Join(rep.Warnings, "\n# ") + "\n"
			golden := filepath.Join("../testdata/import/golden", strings.TrimSuffix(name, filepath.Ext(name))+".yaml")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("import of %s (-want +got):\n%s", name, diff)
			}
		})
	}
}

// TestRoundTrip: every fixture imports to a scenario that loads, lints and
// whose probe template the reference agent answers as expected; with every
// suggestion uncommented, it still loads and lints.
func TestRoundTrip(t *testing.T) {
	for _, path := range fixtures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			out, rep := importFile(t, path, importer.Options{})
			check := func(t *testing.T, data []byte) *scenarios.Scenario {
				t.Helper()
				s, err := scenarios.LoadBytes(filepath.Base(path)+".yaml", data)
				if err != nil {
					t.Fatalf("load: %v\n%s", err, data)
				}
				if errs := scenarios.LintScenario(s); len(errs) > 0 {
					t.Fatalf("lint: %v\n%s", errs, data)
				}
				if errs := agents.CheckProbes(s); len(errs) > 0 {
					t.Fatalf("probes: %v", errs)
				}
				return s
			}
			s := check(t, out)
			if len(s.Events) != rep.Events {
				t.Errorf("loaded %d events, report says %d", len(s.Events), rep.Events)
			}
			wantAt := []int{rep.Cut}
			if len(rep.Recorded) > 0 {
				wantAt = rep.Recorded // the recorded compactions' boundaries
			}
			if !slices.Equal(s.Compaction.At, wantAt) {
				t.Errorf("compaction.at = %v, want %v", s.Compaction.At, wantAt)
			}
			if rep.Suggestions > 0 {
				s := check(t, suggestions.Accept(out))
				if len(s.Invariants) == 0 {
					t.Errorf("uncommented suggestions gave no invariants")
				}
			}
		})
	}
}
