package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/compact-eval/compact-eval/internal/testkit/providerfake"
)

// fakes are the provider fakes the scripts started, by script work dir.
var (
	fakesMu sync.Mutex
	fakes   = map[string]*providerfake.Server{}
	seen    = map[string]int{}
)

// cmdProviderFake is the script command "providerfake [-odd]": it starts a fake of
// the Anthropic Messages API and the OpenAI Responses API for this script
// (internal/testkit/providerfake), expecting the keys in
// ANTHROPIC_API_KEY and OPENAI_API_KEY, and points ANTHROPIC_BASE_URL and
// OPENAI_BASE_URL at it. The fake answers every probe with its last
// option.
func cmdProviderFake(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 || len(args) == 1 && args[0] != "-odd" {
		ts.Fatalf("usage: providerfake [-odd]")
	}
	f := providerfake.New()
	// -odd: every reply indented, CRLF, escaped unicode, a trailing
	// newline (providerfake.OddJSON).
	f.Odd = len(args) == 1
	f.AnthropicKey, f.OpenAIKey = ts.Getenv("ANTHROPIC_API_KEY"), ts.Getenv("OPENAI_API_KEY")
	f.Answer = func(q providerfake.Question) string { return q.Keys[len(q.Keys)-1] }
	ts.Defer(f.Close)
	fakesMu.Lock()
	fakes[ts.Getenv("WORK")] = f
	fakesMu.Unlock()
	ts.Setenv("ANTHROPIC_BASE_URL", f.URL+"/v1")
	ts.Setenv("OPENAI_BASE_URL", f.URL+"/v1")
}

// cmdFakeRequests is "fakerequests N [PATH-SUFFIX]": it fails unless the
// script's provider fake received exactly N requests (ending in the
// suffix) since the last fakerequests, which starts the count again.
func cmdFakeRequests(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: fakerequests N [PATH-SUFFIX]")
	}
	fakesMu.Lock()
	defer fakesMu.Unlock()
	f := fakes[ts.Getenv("WORK")]
	if f == nil {
		ts.Fatalf("no providerfake started")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("fakerequests %q: not a number", args[0])
	}
	suffix := ""
	if len(args) == 2 {
		suffix = args[1]
	}
	key := ts.Getenv("WORK") + "\x00" + suffix
	got := f.Count(suffix) - seen[key]
	seen[key] = f.Count(suffix)
	if got != want {
		ts.Fatalf("the provider fake received %d requests%s, want %d", got, map[bool]string{true: " to *" + suffix, false: ""}[suffix != ""], want)
	}
}

// cmdNoCanary is "nocanary PATH…": it fails if any file under the paths
// (folders are walked) holds the value of ANTHROPIC_API_KEY or
// OPENAI_API_KEY: the key canaries never reach an output, a journal or the
// cache.
func cmdNoCanary(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: nocanary PATH…")
	}
	var keys []string
	for _, v := range []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY"} {
		if k := ts.Getenv(v); k != "" {
			keys = append(keys, k)
		}
	}
	files := 0
	for _, a := range args {
		err := filepath.WalkDir(ts.MkAbs(a), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			for _, k := range keys {
				if bytes.Contains(b, []byte(k)) {
					ts.Fatalf("%s holds an API key", path)
				}
			}
			return nil
		})
		if err != nil {
			ts.Fatalf("nocanary %s: %v", a, err)
		}
	}
	if files == 0 {
		ts.Fatalf("nocanary: no file under %v", args)
	}
}
