package importer_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/internal/testkit/suggestions"
	"github.com/compact-eval/compact-eval/scenarios"
)

// importSeeds are every session file of testdata/import, the public
// sets' included: the whole pipeline's fuzz seeds.
func importSeeds(f *testing.F) []string {
	var out []string
	err := filepath.WalkDir("../testdata/import", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext == ".json" || ext == ".jsonl" || ext == ".traj" {
			out = append(out, path)
		}
		return nil
	})
	if err != nil || len(out) < 60 {
		f.Fatalf("walking the fixtures: %v (%d files)", err, len(out))
	}
	return out
}

// FuzzImport: whatever the input and format, the whole pipeline (detect,
// read, suggest, check the suggestions, write) never panics, fails only
// with an *InputError, and what it writes loads and lints, with every
// suggestion accepted too. Seeded with every fixture, detected and as the
// five first formats; the public sets' real logs are the seeds that found
// the panics of issue 38.
func FuzzImport(f *testing.F) {
	for _, path := range importSeeds(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0))
		if strings.Contains(path, "/public") {
			for i := 1; i <= 5; i++ {
				f.Add(data, uint8(i))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		formats := append([]importer.Format{importer.FormatAuto}, importer.Formats...)
		opts := importer.Options{Format: formats[int(which)%len(formats)], MaxEventChars: int(which % 7 * 10), TempDir: t.TempDir()}
		var out bytes.Buffer
		rep, err := importer.Import(bytes.NewReader(data), &out, opts)
		if err != nil {
			var ie *importer.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error is not an *InputError: %v", err)
			}
			return
		}
		if rep.Events > scenarios.MaxEvents || out.Len() > scenarios.MaxFileSize {
			return
		}
		s, err := scenarios.LoadBytes("fuzz.yaml", out.Bytes())
		if err != nil {
			t.Fatalf("load: %v\n%s", err, out.Bytes())
		}
		if errs := scenarios.LintScenario(s); len(errs) > 0 {
			t.Fatalf("lint: %v\n%s", errs, out.Bytes())
		}
		if rep.Suggestions == 0 {
			return
		}
		accepted := suggestions.Accept(out.Bytes())
		s, err = scenarios.LoadBytes("fuzz.yaml", accepted)
		if err != nil {
			t.Fatalf("load with every suggestion: %v\n%s", err, accepted)
		}
		if errs := scenarios.LintScenario(s); len(errs) > 0 {
			t.Fatalf("lint with every suggestion: %v\n%s", errs, accepted)
		}
	})
}
