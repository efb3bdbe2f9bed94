package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The flags of a run round-trip through run.json: what recordedFlags
// writes, resumeFlags sets again, but for a flag given on the command line
// (it wins), a flag that is not the run's own (never recorded), a value
// recorded redacted and a flag this binary does not know (refused, naming
// the flag).
func TestResumeFlags(t *testing.T) {
	newFS := func() (*flag.FlagSet, *runFlags) {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		return fs, setupRunFlags(fs)
	}
	fs, _ := newFS()
	if err := fs.Parse([]string{"--summarizer", "a=exec:sh a.sh", "--summarizer", "builtin:mask", "--trials", "3", "--judge-gate", "--out", "o", "--progress", "plain", "-j", "2"}); err != nil {
		t.Fatal(err)
	}
	rec := recordedFlags(fs)
	want := []string{"j=2", "judge-gate=true", "summarizer=a=exec:sh a.sh", "summarizer=builtin:mask", "trials=3"}
	if d := cmp.Diff(want, rec); d != "" {
		t.Fatalf("recorded flags (-want +got):\n%s", d)
	}
	write := func(flags ...string) string {
		dir := t.TempDir()
		quoted := make([]string, len(flags))
		for i, f := range flags {
			quoted[i] = `"` + strings.ReplaceAll(f, `"`, `\"`) + `"`
		}
		doc := `{"config": {"summarizers": [], "agent": "", "trials": 1, "tokenizer": "", "flags": [` + strings.Join(quoted, ",") + `]}}`
		if err := os.WriteFile(filepath.Join(dir, "run.json"), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}

	fs2, f2 := newFS()
	fs2.Parse([]string{"--trials", "5"})
	if err := resumeFlags(fs2, write(append(rec, "out=elsewhere")...)); err != nil {
		t.Fatal(err)
	}
	if got := []string(f2.summarizers); !cmp.Equal(got, []string{"a=exec:sh a.sh", "builtin:mask"}) {
		t.Errorf("summarizers %q", got)
	}
	if f2.trials != 5 || !f2.judgeGate || f2.jobs != 2 || f2.out != "" {
		t.Errorf("trials %d (want 5, given again), judge-gate %v, -j %d, out %q (never read back)", f2.trials, f2.judgeGate, f2.jobs, f2.out)
	}

	for _, tc := range []struct{ flag, err string }{
		{"summarizer=exec:sh a.sh --token [redacted:command-line-key]", "the run's --summarizer was recorded redacted (it held a key): give it again"},
		{"no-such-flag=1", "records --no-such-flag, which this compact-eval does not know"},
		{"trials=many", "the run's --trials: "},
	} {
		fs3, _ := newFS()
		err := resumeFlags(fs3, write(tc.flag))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: err = %v, want %q", tc.flag, err, tc.err)
		}
	}
	// Given again, a redacted flag is not read back.
	fs4, f4 := newFS()
	fs4.Parse([]string{"--summarizer", "builtin:mask"})
	if err := resumeFlags(fs4, write("summarizer=exec:sh a.sh --token [redacted:command-line-key]")); err != nil || len(f4.summarizers) != 1 {
		t.Errorf("err %v, summarizers %q", err, f4.summarizers)
	}
}
