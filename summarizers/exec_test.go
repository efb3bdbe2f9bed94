package summarizers_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/internal/execproc"
	"github.com/compact-eval/compact-eval/internal/testkit/exectest"
	"github.com/compact-eval/compact-eval/providers"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
	"github.com/compact-eval/compact-eval/summary"
	"github.com/google/go-cmp/cmp"
)

// summarizeRequest builds the request for the first cut of s, as the runner
// does: events [1, cut], no previous summary.
func summarizeRequest(s *scenarios.Scenario) *summarizers.Request {
	cut := s.Compaction.At[0]
	req := summarizers.NewRequest()
	req.ScenarioID, req.Generation, req.Cut = s.ID, 1, cut
	req.Goal, req.Rules = s.Goal, s.Rules
	for _, e := range s.Events {
		if e.Seq <= cut {
			req.Events = append(req.Events, e)
		}
	}
	req.Trial, req.ContextWindow, req.MaxRatio = 3, 16000, 0.5
	return req
}

func newExec(t *testing.T, command []string, opts providers.Options) summarizers.Summarizer {
	t.Helper()
	s, err := summarizers.New(providers.Spec{Kind: providers.KindExec, Command: command, Raw: providers.ExecSpec(command)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestExec builds the exec test programs once and runs every exec summarizer
// test against them.
func TestExec(t *testing.T) {
	progs, err := exectest.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Run("good", func(t *testing.T) { testExecGood(t, progs) })
	t.Run("wire", func(t *testing.T) { testExecWire(t, progs) })
	t.Run("failures", func(t *testing.T) { testExecFailures(t, progs) })
}

func testExecGood(t *testing.T, progs map[string]string) {
	s := newExec(t, []string{progs["summarizer-good"]}, providers.Options{})
	resp, err := s.Summarize(context.Background(), summarizeRequest(exectest.PrivateScenario()))
	if err != nil {
		t.Fatal(err)
	}
	if v := summary.Validate(resp.Summary); v != nil {
		t.Errorf("summary-good's document breaks the summary schema: %v", v)
	}
	var sum summary.Summary
	dec := json.NewDecoder(strings.NewReader(string(resp.Summary)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sum); err != nil {
		t.Fatalf("summary %s: %v", resp.Summary, err)
	}
	want := summary.Summary{
		SchemaVersion: 1, CoversThrough: 4, Goal: "Find why the API cannot reach the database",
		Constraints: []summary.Constraint{{Text: "Do not change production: this is read-only.", SourceSeq: 1}},
		Verified:    []summary.Claim{{Claim: "db -> 10.0.3.7", SourceSeq: 4}},
		Text:        "Summary of privacy through event 4. Last assistant note: Starting with name resolution.",
	}
	if diff := cmp.Diff(want, sum); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if want := "exec:" + progs["summarizer-good"]; resp.Call.Spec != want {
		t.Errorf("Call.Spec = %q, want %q", resp.Call.Spec, want)
	}
	if resp.Call.Latency <= 0 || resp.NoCompaction {
		t.Errorf("call %+v NoCompaction %v: want a latency and a summary", resp.Call, resp.NoCompaction)
	}
}

// testExecWire checks the exact request a process reads, and that nothing
// private reaches it: no invariant, no expect, no requires, no trial.
func testExecWire(t *testing.T, progs map[string]string) {
	log := filepath.Join(t.TempDir(), "stdin.log")
	s := newExec(t, []string{progs["summarizer-good"]}, providers.Options{Env: []string{"EXECTEST_STDIN_LOG=" + log}})
	sc := exectest.PrivateScenario()
	if _, err := s.Summarize(context.Background(), summarizeRequest(sc)); err != nil {
		t.Fatal(err)
	}
	dump, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if err := exectest.CheckPrivate(dump); err != nil {
		t.Error(err)
	}
	var got map[string]any
	if err := json.Unmarshal(dump, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"protocol": 1.0, "kind": "summarize", "scenario_id": "privacy", "generation": 1.0, "cut": 4.0,
		"goal": sc.Goal, "rules": sc.Rules, "previous_summary": nil,
		"events": []any{
			map[string]any{"seq": 1.0, "role": "user", "text": "Do not change production: this is read-only."},
			map[string]any{"seq": 2.0, "role": "assistant", "text": "Starting with name resolution."},
			map[string]any{"seq": 3.0, "role": "assistant", "tool_call": map[string]any{"id": "c1", "name": "dns_lookup", "args": map[string]any{"host": "db"}}},
			map[string]any{"seq": 4.0, "role": "tool", "tool_result": map[string]any{"call_id": "c1", "status": "ok", "text": "db -> 10.0.3.7"}},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("request on stdin (-want +got):\n%s", diff)
	}
}

func testExecFailures(t *testing.T, progs map[string]string) {
	tests := []struct {
		name       string
		command    []string
		timeout    time.Duration
		wantKind   string
		wantReason string
		wantStderr string
	}{
		{"crash", []string{progs["summarizer-crash"]}, 0, execproc.KindExit, "exit status 3", exectest.CrashStderr},
		{"hang", []string{progs["summarizer-hang"]}, 300 * time.Millisecond, execproc.KindTimeout, "timed out after 300ms", "summarizer-hang: sleeping forever\n"},
		{"garbage", []string{progs["summarizer-garbage"]}, 0, execproc.KindNotJSON, `output is not JSON: invalid character 'h' in literal true (expecting 'r') (starts with "this is not JSON, sorry")`, ""},
		{"huge", []string{progs["summarizer-huge"]}, 0, execproc.KindTooLarge, "output exceeds 16777216 bytes", ""},
		{"array", []string{"sh", "-c", "cat >/dev/null; echo '[1]'; echo warn >&2"}, 0, execproc.KindBadReply, "output is a JSON array, want a summary object", "warn\n"},
		{"null", []string{"sh", "-c", "echo null"}, 0, execproc.KindBadReply, "output is a JSON null, want a summary object", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newExec(t, tc.command, providers.Options{ExecTimeout: tc.timeout})
			resp, err := s.Summarize(context.Background(), summarizeRequest(exectest.PrivateScenario()))
			var e *execproc.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %+v, %v: want an *execproc.Error", resp, err)
			}
			got := []string{e.Kind, e.Reason, e.Stderr}
			if diff := cmp.Diff([]string{tc.wantKind, tc.wantReason, tc.wantStderr}, got); diff != "" {
				t.Errorf("kind, reason, stderr (-want +got):\n%s", diff)
			}
			// The provenance of the failed call goes with the error.
			if resp == nil || resp.Summary != nil || resp.Call.Stderr != tc.wantStderr || resp.Call.Spec != providers.ExecSpec(tc.command) || resp.Call.Latency <= 0 {
				t.Errorf("response %+v: want no summary, and a call with the spec, the stderr head and a latency", resp)
			}
		})
	}
}

func TestNewExecMissingCommand(t *testing.T) {
	tests := []struct {
		name    string
		command []string
		opts    providers.Options
		want    string
	}{
		{"not in PATH", []string{"compact-eval-no-such-summarizer", "--x"}, providers.Options{},
			`exec summarizer: command "compact-eval-no-such-summarizer": executable file not found in $PATH`},
		{"relative to Dir", []string{"./missing.py"}, providers.Options{Dir: "/nonexistent-dir"},
			`exec summarizer: command "./missing.py": stat /nonexistent-dir/missing.py: no such file or directory`},
		{"empty", nil, providers.Options{}, "exec summarizer: empty command"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := summarizers.NewExec(tc.command, tc.opts)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
