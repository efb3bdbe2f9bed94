package importer_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/scenarios"
)

// FuzzImport: whatever the input and format, Import never panics, fails only
// with an *InputError, and what it writes loads and lints.
func FuzzImport(f *testing.F) {
	for _, path := range []string{
		"../testdata/import/openai_parallel.json",
		"../testdata/import/anthropic_session.json",
		"../testdata/import/claude-code_session.jsonl",
		"../testdata/import/codex_rollout.jsonl",
		"../testdata/import/openai_messages.jsonl",
	} {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for i := range importer.Formats {
			f.Add(data, uint8(i))
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
	})
}
