//go:build unix

package execproc_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/internal/execproc"
	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/internal/testkit/exectest"
	"github.com/google/go-cmp/cmp"
)

// progs maps each exectest program name to its binary, built once in TestMain.
var progs map[string]string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "execproc-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	progs, err = exectest.Build(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const summarizeReq = `{"protocol": 1, "kind": "summarize", "scenario_id": "s1", "generation": 1, "cut": 4,
"goal": "find the bug", "rules": "be careful", "previous_summary": null, "events": [
{"seq": 1, "role": "user", "text": "This is read-only: never write to prod."},
{"seq": 2, "role": "assistant", "text": "Checking DNS."},
{"seq": 3, "role": "assistant", "tool_call": {"id": "c1", "name": "dns_lookup", "args": {"host": "db"}}},
{"seq": 4, "role": "tool", "tool_result": {"call_id": "c1", "status": "ok", "text": "db -> 10.0.3.7"}}]}`

func TestRunGood(t *testing.T) {
	res, err := execproc.Run(context.Background(), []string{progs["summarizer-good"]}, []byte(summarizeReq), execproc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(res.Output, &got); err != nil {
		t.Fatalf("output %s: %v", res.Output, err)
	}
	want := map[string]any{
		"schema_version": 1.0, "covers_through": 4.0, "goal": "find the bug",
		"constraints": []any{map[string]any{"text": "This is read-only: never write to prod.", "source_seq": 1.0}},
		"verified":    []any{map[string]any{"claim": "db -> 10.0.3.7", "source_seq": 4.0}},
		"text":        "Summary of s1 through event 4. Last assistant note: Checking DNS.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if res.Stderr != "" || res.Latency <= 0 {
		t.Errorf("stderr %q latency %v: want empty stderr and a positive latency", res.Stderr, res.Latency)
	}
}

// errSummary is the part of an *execproc.Error a test compares.
type errSummary struct {
	Kind     string
	Reason   string
	ExitCode int
}

func TestRunFailures(t *testing.T) {
	// 6001 bytes of stderr: byte 4096 falls inside an é, so the head is cut
	// back to a rune boundary.
	long := "x" + strings.Repeat("é", 3000)
	tests := []struct {
		name       string
		command    []string
		opts       execproc.Options
		want       errSummary
		wantStderr string // prefix of the stderr head
		stderrLen  int    // exact length of the stderr head when > 0
	}{
		{
			name:       "crash",
			command:    []string{progs["summarizer-crash"]},
			want:       errSummary{execproc.KindExit, "exit status 3", 3},
			wantStderr: exectest.CrashStderr,
		},
		{
			name:    "garbage",
			command: []string{progs["summarizer-garbage"]},
			want:    errSummary{execproc.KindNotJSON, `output is not JSON: invalid character 'h' in literal true (expecting 'r') (starts with "this is not JSON, sorry")`, 0},
		},
		{
			name:    "huge",
			command: []string{progs["summarizer-huge"]},
			want:    errSummary{execproc.KindTooLarge, "output exceeds 16777216 bytes", -1},
		},
		{
			name:    "huge with a small cap",
			command: []string{progs["summarizer-huge"]},
			opts:    execproc.Options{MaxOutput: 1000},
			want:    errSummary{execproc.KindTooLarge, "output exceeds 1000 bytes", -1},
		},
		{
			name:       "hang",
			command:    []string{progs["summarizer-hang"]},
			opts:       execproc.Options{Timeout: 300 * time.Millisecond},
			want:       errSummary{execproc.KindTimeout, "timed out after 300ms", -1},
			wantStderr: "summarizer-hang: sleeping forever",
		},
		{
			name:    "empty output",
			command: []string{"sh", "-c", "printf '  \\n'"},
			want:    errSummary{execproc.KindEmpty, "empty output: want one JSON document on stdout", 0},
		},
		{
			name:    "two documents",
			command: []string{"sh", "-c", "echo '{}'; echo '{}'"},
			want:    errSummary{execproc.KindNotJSON, "output holds more than one JSON document", 0},
		},
		{
			name:    "two scalar documents",
			command: []string{"sh", "-c", "echo '1 2'"},
			want:    errSummary{execproc.KindNotJSON, "output holds more than one JSON document", 0},
		},
		{
			name:    "trailing garbage",
			command: []string{"sh", "-c", "echo '{} done'"},
			want:    errSummary{execproc.KindNotJSON, `output is not JSON: trailing data after the document ("done")`, 0},
		},
		{
			name:    "truncated document",
			command: []string{"sh", "-c", `printf '{"schema_version": 1,'`},
			want:    errSummary{execproc.KindNotJSON, `output is not JSON: unexpected EOF (starts with "{\"schema_version\": 1,")`, 0},
		},
		{
			name:    "not UTF-8",
			command: []string{"sh", "-c", `printf '{"text": "\377\376"}'`},
			want:    errSummary{execproc.KindNotJSON, "output is not JSON: not valid UTF-8", 0},
		},
		{
			name:    "killed by a signal",
			command: []string{"sh", "-c", "kill -9 $$"},
			want:    errSummary{execproc.KindExit, "signal: killed", -1},
		},
		{
			name:    "exit after valid output",
			command: []string{"sh", "-c", "echo '{}'; exit 1"},
			want:    errSummary{execproc.KindExit, "exit status 1", 1},
		},
		{
			name:    "missing command",
			command: []string{"compact-eval-no-such-program"},
			want:    errSummary{execproc.KindStart, `start: exec: "compact-eval-no-such-program": executable file not found in $PATH`, -1},
		},
		{
			name:    "empty command",
			command: nil,
			want:    errSummary{execproc.KindStart, "empty command", -1},
		},
		{
			name:       "stderr head is 4 KiB, cut at a rune boundary",
			command:    []string{"sh", "-c", "printf '%s' \"$LONG\" >&2; exit 2"},
			opts:       execproc.Options{Env: []string{"LONG=" + long}},
			want:       errSummary{execproc.KindExit, "exit status 2", 2},
			wantStderr: "xéé",
			stderrLen:  execproc.StderrHead - 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := execproc.Run(context.Background(), tc.command, []byte(summarizeReq), tc.opts)
			var e *execproc.Error
			if !errors.As(err, &e) {
				t.Fatalf("got result %+v, error %v: want an *execproc.Error", res, err)
			}
			if diff := cmp.Diff(tc.want, errSummary{e.Kind, e.Reason, e.ExitCode}); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(e.Stderr, tc.wantStderr) {
				t.Errorf("stderr head %q: want prefix %q", e.Stderr, tc.wantStderr)
			}
			if tc.stderrLen > 0 && len(e.Stderr) != tc.stderrLen {
				t.Errorf("stderr head is %d bytes, want %d", len(e.Stderr), tc.stderrLen)
			}
			if !utf8.ValidString(e.Stderr) {
				t.Errorf("stderr head ends in a cut rune: %q", e.Stderr[max(0, len(e.Stderr)-4):])
			}
			if tc.wantStderr != "" && !strings.Contains(e.Error(), strings.TrimSpace(tc.wantStderr)) {
				t.Errorf("Error() = %q: want the stderr head in it", e.Error())
			}
		})
	}
}

// alive reports whether pid names a live (not zombie) process, from /proc.
func alive(t *testing.T, pid int) bool {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	// The state follows the command name in parentheses: "pid (comm) S ...".
	rest := b[bytes.LastIndexByte(b, ')')+1:]
	state := strings.Fields(string(rest))[0]
	return state != "Z" && state != "X"
}

// runHang runs summarizer-hang until timeout or cancel and checks that its
// child died with it.
func runHang(t *testing.T, ctx context.Context, timeout time.Duration) *execproc.Error {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	start := time.Now()
	_, err := execproc.Run(ctx, []string{progs["summarizer-hang"]}, nil,
		execproc.Options{Timeout: timeout, Env: []string{"EXECTEST_PID_FILE=" + pidFile}})
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("run took %v: the kill did not end it", d)
	}
	var e *execproc.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v: want an *execproc.Error", err)
	}
	b, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatalf("the hanging program wrote no child pid: %v", rerr)
	}
	pid, _ := strconv.Atoi(string(b))
	deadline := time.Now().Add(5 * time.Second)
	for alive(t, pid) {
		if time.Now().After(deadline) {
			t.Fatalf("child %d of the hanging program is still alive: the process group was not killed", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return e
}

func TestRunTimeoutKillsGroup(t *testing.T) {
	// 2 s: long enough for the hanging program to start its child and
	// write its pid on a loaded machine (500 ms was not, at a load of 30).
	e := runHang(t, context.Background(), 2*time.Second)
	if e.Kind != execproc.KindTimeout {
		t.Errorf("kind %q (%v), want %q", e.Kind, e, execproc.KindTimeout)
	}
}

func TestRunCancelKillsGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(2*time.Second, cancel) // as in TestRunTimeoutKillsGroup
	e := runHang(t, ctx, time.Hour)
	if e.Kind != execproc.KindCanceled || e.Reason != "canceled: context canceled" {
		t.Errorf("got %s %q, want %s %q", e.Kind, e.Reason, execproc.KindCanceled, "canceled: context canceled")
	}
}

func TestRunCanceledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := execproc.Run(ctx, []string{progs["agent-good"]}, nil, execproc.Options{})
	var e *execproc.Error
	if !errors.As(err, &e) || e.Kind != execproc.KindCanceled {
		t.Errorf("error %v: want kind %q", err, execproc.KindCanceled)
	}
}

func TestRunEnvironment(t *testing.T) {
	t.Setenv("EXECPROC_INHERITED", "from the harness")
	script := `printf '{"protocol": "%s", "inherited": "%s", "extra": "%s"}' "$COMPACT_EVAL_PROTOCOL" "$EXECPROC_INHERITED" "$EXTRA"`
	res, err := execproc.Run(context.Background(), []string{"sh", "-c", script}, nil,
		execproc.Options{Env: []string{"EXTRA=given", "COMPACT_EVAL_PROTOCOL=0"}})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal(res.Output, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"protocol": "1", "inherited": "from the harness", "extra": "given"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("environment seen by the process (-want +got):\n%s", diff)
	}
}

func TestRunDir(t *testing.T) {
	dir := t.TempDir()
	res, err := execproc.Run(context.Background(), []string{"sh", "-c", `printf '"%s"' "$(pwd -P)"`}, nil, execproc.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	if got := strings.Trim(string(res.Output), `"`); got != want {
		t.Errorf("working directory %q, want %q", got, want)
	}
}

// Output of exactly MaxOutput bytes is within the cap; one byte more is not.
func TestRunOutputAtCap(t *testing.T) {
	doc := []byte(`{"text":"` + strings.Repeat("x", 990) + `"}`)
	res, err := execproc.Run(context.Background(), []string{"cat"}, doc, execproc.Options{MaxOutput: len(doc)})
	if err != nil {
		t.Fatalf("%d bytes with MaxOutput %d: %v", len(doc), len(doc), err)
	}
	if !bytes.Equal(res.Output, doc) {
		t.Errorf("output %d bytes, want the %d sent", len(res.Output), len(doc))
	}
	_, err = execproc.Run(context.Background(), []string{"cat"}, doc, execproc.Options{MaxOutput: len(doc) - 1})
	var e *execproc.Error
	if !errors.As(err, &e) || e.Kind != execproc.KindTooLarge {
		t.Errorf("%d bytes with MaxOutput %d: error %v, want %s", len(doc), len(doc)-1, err, execproc.KindTooLarge)
	}
}

// A request far above the pipe buffer, echoed back, must not deadlock: stdin
// is written while stdout is read.
func TestRunLargeRoundTrip(t *testing.T) {
	doc, _ := json.Marshal(map[string]string{"text": strings.Repeat("x", 4<<20)})
	res, err := execproc.Run(context.Background(), []string{"cat"}, doc, execproc.Options{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(res.Output, doc) {
		t.Errorf("echoed %d bytes, want the %d sent", len(res.Output), len(doc))
	}
}

// A process may answer without reading its request.
func TestRunIgnoresUnreadStdin(t *testing.T) {
	doc := bytes.Repeat([]byte(" "), 1<<20)
	res, err := execproc.Run(context.Background(), []string{"sh", "-c", "echo '{\"ok\": true}'"}, doc, execproc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Output) != `{"ok": true}` {
		t.Errorf("output %s", res.Output)
	}
}

// A background grandchild that keeps stdout open does not hold the call until
// the timeout, and does not outlive it.
func TestRunBackgroundGrandchild(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	start := time.Now()
	res, err := execproc.Run(context.Background(),
		[]string{"sh", "-c", `sleep 60 & echo $! > "$PIDFILE"; echo '{}'`}, nil,
		execproc.Options{Timeout: 30 * time.Second, Env: []string{"PIDFILE=" + pidFile}})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("call took %v", d)
	}
	if string(res.Output) != "{}" {
		t.Errorf("output %s", res.Output)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(5 * time.Second)
	for alive(t, pid) {
		if time.Now().After(deadline) {
			t.Fatalf("background grandchild %d outlived the call", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// BenchmarkRun measures one exec call around a trivial program (start,
// pipes, wait, JSON check): wall time per call, and the CPU time the harness
// itself spends per call (harness-cpu-ns/op), apart from the child's.
func BenchmarkRun(b *testing.B) {
	req := []byte(`{"protocol": 1, "kind": "decide", "arm": "full", "probe": {"id": "p", "question": "q", "options": {"a": "A", "b": "B"}}}`)
	before := selfCPU(b)
	for b.Loop() {
		if _, err := execproc.Run(context.Background(), []string{progs["agent-good"]}, req, execproc.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(selfCPU(b)-before)/float64(b.N), "harness-cpu-ns/op")
}

// BenchmarkRunParallel runs 32 calls at a time (as -j 32 would) to show
// that calls do not serialize in the harness.
func BenchmarkRunParallel(b *testing.B) {
	req := []byte(`{"protocol": 1, "kind": "decide", "arm": "full", "probe": {"id": "p", "question": "q", "options": {"a": "A", "b": "B"}}}`)
	b.SetParallelism(16) // × GOMAXPROCS (2 here) = 32 in flight
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := execproc.Run(context.Background(), []string{"sh", "-c", "sleep 0.1; echo '{}'"}, req, execproc.Options{}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// selfCPU is the user+system CPU time this process used so far.
func selfCPU(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The second finding: exec children inherited OPENAI_API_KEY and
// the api_key_env variables, and a child that printed its environment put
// the key into every output. Now the child gets no key variable (unless
// PassEnv names it), no variable whose value holds a key (in any writing
// of its letters and digits), and whatever it
// prints of a key is scrubbed from stderr and from every error.
func TestRunKeysStayWithTheHarness(t *testing.T) {
	const (
		openaiKey = "sk-test-DONOTLEAK-exec-0123456789"
		localKey  = "lk-test-DONOTLEAK-local-987654321"
		antKey    = "sk-ant-DONOTLEAK-passed-55555555"
	)
	t.Setenv("OPENAI_API_KEY", openaiKey)
	t.Setenv("ANTHROPIC_API_KEY", antKey)
	t.Setenv("LOCAL_LLM_KEY", localKey)
	redact.RegisterKeyVar("LOCAL_LLM_KEY") // a config's api_key_env
	t.Setenv("COPY_OF_KEY", "Bearer "+openaiKey)
	// the key with a space between its characters: the same key to
	// whatever reads it back
	t.Setenv("SPACED_KEY", strings.Join(strings.Split(openaiKey, ""), " "))
	t.Setenv("EXECPROC_HARMLESS", "kept")
	script := `env >&2
printf '{"openai":"%s","local":"%s","copy":"%s","spaced":"%s","passed":"%s","harmless":"%s"}' "$OPENAI_API_KEY" "$LOCAL_LLM_KEY" "$COPY_OF_KEY" "$SPACED_KEY" "$ANTHROPIC_API_KEY" "$EXECPROC_HARMLESS"`
	res, err := execproc.Run(context.Background(), []string{"sh", "-c", script}, nil,
		execproc.Options{PassEnv: []string{"ANTHROPIC_API_KEY"}})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal(res.Output, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"openai": "", "local": "", "copy": "", "spaced": "", "passed": antKey, "harmless": "kept"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("environment seen by the child (-want +got):\n%s", d)
	}
	for _, k := range []string{openaiKey, localKey, antKey} {
		if strings.Contains(res.Stderr, k) {
			t.Errorf("stderr holds a key: %s", k)
		}
	}
	if !strings.Contains(res.Stderr, "[redacted:ANTHROPIC_API_KEY]") {
		t.Errorf("the passed key printed on stderr is not shown redacted:\n%s", res.Stderr)
	}

	// A child that fails after printing its environment, and one whose
	// stdout quotes a key: the error's stderr and reason are scrubbed.
	for _, script := range []string{
		`echo "OPENAI_API_KEY=$LEAK" >&2; exit 3`,
		`echo "not json $LEAK"`,
	} {
		_, err := execproc.Run(context.Background(), []string{"sh", "-c", script}, nil,
			execproc.Options{Env: []string{"LEAK=" + openaiKey}})
		var e *execproc.Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: error %v", script, err)
		}
		if strings.Contains(e.Error(), openaiKey) || strings.Contains(e.Stderr, openaiKey) || strings.Contains(e.Reason, openaiKey) {
			t.Errorf("%q: the error holds the key: %v", script, e)
		}
		if !strings.Contains(e.Error(), "[redacted:OPENAI_API_KEY]") {
			t.Errorf("%q: error %q does not show the key redacted", script, e)
		}
	}
}

// Issue 26, finding 2: the 4 KiB head of stderr was cut before redaction,
// so the start of a secret's base64 that crossed the cut stayed, too short
// to be recognised once cut. The head is now cut after the redaction of
// what was read, with the scenario's secrets (from the context) too.
func TestRunStderrCutAfterRedaction(t *testing.T) {
	const secret = "sk_live_51QxT9mKq2RwZ8vN4bLc7HyPd3eFgA6sJ0tUi1oVzX5nMkE7Hq2"
	enc := base64.StdEncoding.EncodeToString([]byte(secret))
	pad := strings.Repeat("x", execproc.StderrHead-10)
	ctx := redact.NewContext(context.Background(), redact.New([]redact.Secret{{ID: "stripe", Value: secret}}))
	res, err := execproc.Run(ctx, []string{"sh", "-c", `printf '%s %s' "$PAD" "$ENC" >&2; echo '{}'`}, nil,
		execproc.Options{Env: []string{"PAD=" + pad, "ENC=" + enc}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Stderr) > execproc.StderrHead {
		t.Errorf("stderr head is %d bytes, over %d", len(res.Stderr), execproc.StderrHead)
	}
	if tail := res.Stderr[len(pad):]; strings.Contains(tail, enc[:6]) || tail != " " {
		t.Errorf("the head ends %q: the start of the encoded secret (%s…) stayed, or more than the text before it", tail, enc[:9])
	}
}
