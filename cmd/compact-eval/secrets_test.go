package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/redact/redacttest"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
	"github.com/compact-eval/compact-eval/viewer"
)

// Two scenario secrets, one with non-ASCII characters (Python's json.dumps
// writes them as \u escapes, which hid the rest of it from redaction: the
// issue's first finding), and an API key.
const (
	leakKey    = "sk-live-4f9a8b7c6d5e3f2a1b0c"
	leakDBPass = "contraseña-Ñandú-7x9Q2mZ"
	leakAPIKey = "sk-test-DONOTLEAK-every-writer-0123456789"
)

const leakScenario = `version: 1
id: leaky
title: Two secrets a summary must not keep
goal: Check the logs
rules: You are an on-call assistant.
compaction: {at: [3]}
events:
  - {role: user, text: "Use only the staging key ` + leakKey + ` for the test calls."}
  - {role: assistant, text: "Noted. The db password is ` + leakDBPass + `."}
  - {role: user, text: "Now check the logs."}
  - {role: assistant, text: "Checking."}
invariants:
  - {id: key, type: secret, value: ` + leakKey + `}
  - {id: dbpass, type: secret, value: ` + leakDBPass + `}
`

// leakRecallScenario is leakScenario with a probe: the recall arm's agent
// gets the secrets back from the recall tool, out of the events a summary
// replaces.
var leakRecallScenario = strings.Replace(leakScenario, "id: leaky\n", "id: leaky-recall\n", 1) + `probes:
  - id: which-key
    question: "Which key do the test calls use?"
    options: {staging: "the staging key", prod: "the production key"}
    expect: staging
    requires: {staging: ['staging key']}
`

// recallAgent is an exec agent that, on the recall arm, searches the
// stored events and repeats what the recall tool returned in its reason.
const recallAgent = `#!/bin/sh
req=$(cat)
case "$req" in
*'"arm":"recall"'*)
  case "$req" in
  *'"results":[]'*) printf '{"recall":{"query":"staging key password test calls"}}\n'; exit 0;;
  esac
  got=$(printf '%s' "$req" | sed -n 's/.*"results":\(.*\)$/\1/p' | tr -d '"\\{}[]')
  printf '{"choice":"staging","reason":"recalled: %s"}\n' "$got"; exit 0;;
esac
printf '{"choice":"staging","reason":"from my context"}\n'
`

// leakSpellings is every encoding of every secret, as JSON string content:
// plain, \u-escaped (Python's default for non-ASCII, and every character),
// missing its first character, upper-cased, URL-escaped, base64, hex.
func leakSpellings() []string {
	esc := func(s string, all bool) string {
		var b strings.Builder
		for _, r := range s {
			if all || r >= 0x80 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	var out []string
	for _, s := range []string{leakKey, leakDBPass} {
		out = append(out, s, esc(s, false), esc(s, true), string([]rune(s)[1:]), strings.ToUpper(s),
			url.QueryEscape(s), base64.StdEncoding.EncodeToString([]byte(s)), hex.EncodeToString([]byte(s)))
	}
	return append(out, leakAPIKey)
}

// The first four findings at once, through every writer: an exec
// summarizer and an openai: summarizer that leak each secret in each
// encoding, in the summary, in stderr and in errors. Nothing compact-eval
// writes holds any of them, in any form: the run folder (journal, result,
// run.json), every report format (md, html, junit, json), the GitHub step
// summary and annotations, the console of every command, and the response
// cache, and every page the viewer serves over the run.
func TestNoSecretInAnyByteWritten(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("OPENAI_API_KEY", leakAPIKey)
	leak := strings.Join(leakSpellings(), " ")

	// The openai: summarizer's endpoint answers with a summary that leaks.
	srv := llmtest.New(t)
	srv.SetDefault(func(r llmtest.Request) llmtest.Reply {
		rep := llmtest.Simulated(r)
		rep.Content = strings.Replace(rep.Content, `"simulated summary"`, `"`+leak+`"`, 1)
		return rep
	})
	llm.ForgetOutputModes()
	t.Setenv("OPENAI_BASE_URL", srv.BaseURL())

	// The exec summarizer leaks in its summary, its stderr, and a second
	// time by failing with the secrets in its stderr.
	script := "#!/bin/sh\nreq=$(cat)\ncut=$(printf '%s' \"$req\" | sed -n 's/.*\"cut\": *\\([0-9]*\\).*/\\1/p')\n" +
		"printf '%s\\n' '" + leak + "' >&2\n" +
		"gen=$(printf '%s' \"$req\" | sed -n 's/.*\"generation\": *\\([0-9]*\\).*/\\1/p')\n" +
		"printf '{\"schema_version\": 1, \"covers_through\": %s, \"text\": \"%s\", \"extensions\": {\"%s\": \"%s\"}}' \"$cut\" '" + leak + "' '" + leak + "' '" + leak + "'\n"
	crash := "#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '" + leak + "' >&2\nexit 3\n"
	for name, body := range map[string]string{"leak.sh": script, "crash.sh": crash, "s.yaml": leakScenario, "recall.sh": recallAgent, "r.yaml": leakRecallScenario} {
		if err := os.WriteFile(name, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	summary := filepath.Join(work, "step_summary.md")
	getenv := func(k string) string {
		switch k {
		case "GITHUB_ACTIONS":
			return "true"
		case "GITHUB_STEP_SUMMARY":
			return summary
		}
		return os.Getenv(k)
	}
	var console []string
	cmd := func(args ...string) int {
		var out, errb bytes.Buffer
		env := newEnv(strings.NewReader(""), &out, &errb)
		env.Getenv = getenv
		code := run(context.Background(), args, env)
		console = append(console, out.String(), errb.String())
		return code
	}
	if code := cmd("run", "--out", "out", "--summarizer", "leak=exec:./leak.sh", "--summarizer", "crash=exec:./crash.sh",
		"--summarizer", "openai:sim", "--min-pass", "all=1", "s.yaml"); code != exitGate {
		t.Fatalf("run: exit %d, want %d (the secret checks fail)\n%s", code, exitGate, strings.Join(console, "\n"))
	}
	// The recall arm: the agent gets the secrets back from the recall tool
	// and repeats them in its reason.
	if code := cmd("run", "--out", "rec", "--summarizer", "builtin:truncate", "--agent", "exec:./recall.sh", "--recall", "r.yaml"); code != exitGate && code != exitOK {
		t.Fatalf("run --recall: exit %d\n%s", code, strings.Join(console, "\n"))
	}
	for _, f := range []string{"md", "html", "junit", "json"} {
		if code := cmd("report", "out/result.json", "--format", f, "-o", "report."+f); code != exitOK {
			t.Fatalf("report --format %s: exit %d", f, code)
		}
		if code := cmd("report", "rec/result.json", "--format", f, "-o", "recall-report."+f); code != exitOK {
			t.Fatalf("report --format %s of the recall run: exit %d", f, code)
		}
	}
	if b, _ := os.ReadFile("rec/result.json"); !bytes.Contains(b, []byte(`"reason":"recalled: call:query:staging key password test calls,events:seq:1`)) || !bytes.Contains(b, []byte("[redacted:")) {
		t.Errorf("the recall run's agent did not repeat what it recalled, redacted: the test proves nothing for it\n%s", b)
	}
	cmd("report", "out/result.json") // md to the console
	cmd("compare", "out/result.json", "out/result.json")
	cmd("gate", "out/result.json", "--min-pass", "all=1")

	// Every page of the viewer over the run folder, each unit's drill-down
	// included (the report shows every unit in full for this small run).
	site := viewer.New([]string{"."})
	var pages []string
	for _, p := range []string{"/", "/runs/rows", "/trends", "/trends?figure=secret", "/diff?base=0/out&new=0/out",
		"/diff?run=0/out&a=leak&b=crash", "/diff?run=0/out&a=leak&b=openai:sim", "/run/0/out", "/run/0/out/report.csv"} {
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		if rec.Code != http.StatusOK {
			t.Errorf("viewer %s: %d", p, rec.Code)
		}
		pages = append(pages, rec.Body.String())
		console = append(console, rec.Body.String())
	}
	if !strings.Contains(strings.Join(pages, ""), "[redacted:") {
		t.Error("no viewer page shows a redaction: the leaks did not reach it, and the test proves little")
	}

	var written []string
	for _, dir := range []string{work, cache} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			// The tokenizer's vocabulary table (internal/tokens) is derived
			// from the encoding alone, never from a run: it holds every
			// token, "contraseña" among them.
			if err == nil && !d.IsDir() && !slices.Contains([]string{"leak.sh", "crash.sh", "s.yaml", "recall.sh", "r.yaml", "o200k.v2.bin"}, d.Name()) {
				written = append(written, p)
			}
			return nil
		})
	}
	for _, want := range []string{"out/journal.jsonl", "out/result.json", "report.md", "report.html", "report.junit", "report.json", "step_summary.md",
		"rec/journal.jsonl", "rec/result.json", "recall-report.md", "recall-report.html", "recall-report.junit", "recall-report.json"} {
		if !slices.Contains(written, filepath.Join(work, want)) {
			t.Errorf("%s was not written: the test would prove nothing for it (written: %q)", want, written)
		}
	}
	if n, _, _ := llm.Stats(filepath.Join(cache, "compact-eval")); n == 0 {
		t.Log("the cache holds no entry: every reply leaked, none was stored")
	}
	for _, p := range written {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{leakKey, leakDBPass, leakAPIKey} {
			redacttest.AssertNone(t, p, b, s)
		}
	}
	for i, c := range console {
		for _, s := range []string{leakKey, leakDBPass, leakAPIKey} {
			redacttest.AssertNone(t, fmt.Sprintf("console output %d", i), []byte(c), s)
		}
	}
	all := strings.Join(console, "\n")
	if !strings.Contains(all, "[redacted:") {
		t.Errorf("the console never shows a redaction: the leaks did not reach it, and the test proves little:\n%s", all)
	}
	if srv.Count() == 0 {
		t.Error("the openai: summarizer sent no request")
	}
}
