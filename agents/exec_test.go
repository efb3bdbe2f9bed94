package agents_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/execproc"
	"github.com/compact-eval/compact-eval/internal/testkit/exectest"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/google/go-cmp/cmp"
)

// decideRequest builds the compacted-arm request for the first probe of s, as
// the runner does, with every private field the request type can hold set.
func decideRequest(s *scenarios.Scenario) *agents.Request {
	p := s.Probes[0]
	req := agents.NewRequest()
	req.ScenarioID, req.Arm, req.Trial = s.ID, agents.ArmCompacted, 2
	req.Probe = agents.Question{ID: p.ID, Question: p.Question, Options: p.Options}
	req.Context = agents.Context{
		Rules: s.Rules, Goal: s.Goal,
		Summary: json.RawMessage(`{"schema_version": 1, "covers_through": 4, "text": "db resolves"}`),
		Events:  append(append([]scenarios.Event(nil), s.Events[4:]...), s.Arrivals...),
	}
	// The offline reference agent gets the probe's requires on the request
	// (a field never serialized); set it, so the test proves it does not
	// travel.
	req.Requires = p.Requires
	return req
}

func newExec(t *testing.T, command []string, opts providers.Options) agents.Agent {
	t.Helper()
	a, err := agents.New(providers.Spec{Kind: providers.KindExec, Command: command, Raw: providers.ExecSpec(command)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestExec builds the exec test programs once and runs every exec agent test
// against them.
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
	a := newExec(t, []string{progs["agent-good"]}, providers.Options{})
	d, err := a.Decide(context.Background(), decideRequest(exectest.PrivateScenario()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"proceed", "the first option, on the compacted arm"}, []string{d.Choice, d.Reason}); diff != "" {
		t.Errorf("choice, reason (-want +got):\n%s", diff)
	}
	if want := "exec:" + progs["agent-good"]; d.Call.Spec != want || d.Call.Latency <= 0 {
		t.Errorf("call %+v: want spec %q and a latency", d.Call, want)
	}
}

func testExecWire(t *testing.T, progs map[string]string) {
	log := filepath.Join(t.TempDir(), "stdin.log")
	a := newExec(t, []string{progs["agent-dumpstdin"]}, providers.Options{Env: []string{"EXECTEST_STDIN_LOG=" + log}})
	sc := exectest.PrivateScenario()
	if _, err := a.Decide(context.Background(), decideRequest(sc)); err != nil {
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
		"protocol": 1.0, "kind": "decide", "scenario_id": "privacy", "arm": "compacted",
		"probe": map[string]any{
			"id": "write-request", "question": sc.Probes[0].Question,
			"options": map[string]any{"proceed": "Run the restart", "refuse": "Decline: this run is read-only"},
		},
		"context": map[string]any{
			"rules": sc.Rules, "goal": sc.Goal,
			"summary": map[string]any{"schema_version": 1.0, "covers_through": 4.0, "text": "db resolves"},
			"events": []any{
				map[string]any{"seq": 5.0, "role": "assistant", "tool_call": map[string]any{"id": "c2", "name": "read_file", "args": map[string]any{"path": "config/db.yaml"}}},
				map[string]any{"seq": 6.0, "role": "user", "text": "Also check the TLS certificate, please."},
			},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("request on stdin (-want +got):\n%s", diff)
	}
	// Option order is part of the request: keys in file order.
	if i, j := strings.Index(string(dump), `"proceed"`), strings.Index(string(dump), `"refuse"`); i < 0 || j < i {
		t.Errorf("options out of file order in %s", dump)
	}
}

func testExecFailures(t *testing.T, progs map[string]string) {
	sh := func(script string) []string { return []string{"sh", "-c", "cat >/dev/null; " + script} }
	tests := []struct {
		name       string
		command    []string
		timeout    time.Duration
		wantKind   string
		wantReason string
		wantStderr string
	}{
		{"not an option", sh(`echo '{"choice": "restart", "reason": "why not"}'`), 0, execproc.KindBadReply,
			`choice "restart" is not an option of probe "write-request" (valid: proceed, refuse)`, ""},
		{"no choice", sh(`echo '{"reason": "undecided"}'`), 0, execproc.KindBadReply, `reply has no "choice"`, ""},
		{"empty choice", sh(`echo '{"choice": ""}'`), 0, execproc.KindBadReply, `reply has no "choice"`, ""},
		{"choice not a string", sh(`echo '{"choice": 1}'`), 0, execproc.KindBadReply,
			"reply: cannot unmarshal number into Go struct field execReply.choice of type string", ""},
		{"bare string", sh(`echo '"refuse"'`), 0, execproc.KindBadReply, `output is a JSON string, want {"choice": KEY, "reason": TEXT}`, ""},
		{"crash", sh(`echo 'model unavailable' >&2; exit 4`), 0, execproc.KindExit, "exit status 4", "model unavailable\n"},
		{"hang", []string{progs["summarizer-hang"]}, 300 * time.Millisecond, execproc.KindTimeout, "timed out after 300ms", "summarizer-hang: sleeping forever\n"},
		{"garbage", []string{progs["summarizer-garbage"]}, 0, execproc.KindNotJSON, `output is not JSON: invalid character 'h' in literal true (expecting 'r') (starts with "this is not JSON, sorry")`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newExec(t, tc.command, providers.Options{ExecTimeout: tc.timeout})
			d, err := a.Decide(context.Background(), decideRequest(exectest.PrivateScenario()))
			var e *execproc.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %+v, %v: want an *execproc.Error", d, err)
			}
			if diff := cmp.Diff([]string{tc.wantKind, tc.wantReason, tc.wantStderr}, []string{e.Kind, e.Reason, e.Stderr}); diff != "" {
				t.Errorf("kind, reason, stderr (-want +got):\n%s", diff)
			}
			if d == nil || d.Choice != "" || d.Call.Stderr != tc.wantStderr || d.Call.Spec != providers.ExecSpec(tc.command) || d.Call.Latency <= 0 {
				t.Errorf("decision %+v: want no choice, and a call with the spec, the stderr head and a latency", d)
			}
		})
	}
}

func TestNewExecMissingCommand(t *testing.T) {
	_, err := agents.NewExec([]string{"compact-eval-no-such-agent"}, providers.Options{})
	want := `exec agent: command "compact-eval-no-such-agent": executable file not found in $PATH`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
