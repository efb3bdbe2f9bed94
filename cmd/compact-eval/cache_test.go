package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
)

// TestOpenAIRunCache runs a scenario twice through an openai: summarizer and
// an openai: agent against a counting endpoint: the second run must send
// zero requests. With a recognisable fake key, nothing the runs printed or
// wrote (run folders, cache) may contain it.
func TestOpenAIRunCache(t *testing.T) {
	const fakeKey = "sk-test-DONOTLEAK-1234567890"
	srv := llmtest.New(t)
	srv.SetDefault(llmtest.Simulated)
	llm.ForgetOutputModes()
	cache := t.TempDir()
	t.Setenv("OPENAI_BASE_URL", srv.BaseURL())
	t.Setenv("OPENAI_API_KEY", fakeKey)
	t.Setenv("XDG_CACHE_HOME", cache)
	files, err := filepath.Glob("../../scenarios/builtin/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no built-in scenario files to run (%v)", err)
	}
	work := t.TempDir()
	var printed []string
	var counts []int
	for i, out := range []string{"run1", "run2"} {
		var stdout, stderr bytes.Buffer
		env := newEnv(strings.NewReader(""), &stdout, &stderr)
		code := run(context.Background(), []string{"run", "--summarizer", "openai:sim", "--agent", "openai:sim-agent",
			"--out", filepath.Join(work, out), files[0]}, env)
		if code != exitOK {
			t.Fatalf("run %d: exit %d\nstdout:\n%s\nstderr:\n%s", i+1, code, stdout.String(), stderr.String())
		}
		printed = append(printed, stdout.String(), stderr.String())
		counts = append(counts, srv.Count())
		if i == 0 {
			llm.ForgetOutputModes() // the second run is a new process
		}
	}
	t.Logf("requests: first run %d, second run %d", counts[0], counts[1]-counts[0])
	if counts[0] == 0 {
		t.Fatal("the first run sent no request")
	}
	if counts[1] != counts[0] {
		t.Errorf("the second identical run sent %d requests, want 0", counts[1]-counts[0])
	}
	for i, p := range printed {
		if strings.Contains(p, fakeKey) {
			t.Errorf("output %d holds the API key", i)
		}
	}
	var scanned int
	for _, dir := range []string{work, cache} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Error(err)
				return nil
			}
			scanned++
			if bytes.Contains(b, []byte(fakeKey)) {
				t.Errorf("%s holds the API key", p)
			}
			return nil
		})
	}
	if n, _, _ := llm.Stats(filepath.Join(cache, "compact-eval")); n == 0 || scanned < n+2 {
		t.Errorf("cache entries = %d, files scanned = %d: the runs wrote less than expected", n, scanned)
	}
}
