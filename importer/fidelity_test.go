package importer_test

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/internal/testkit/suggestions"
	"github.com/compact-eval/compact-eval/scenarios"
)

func load(t *testing.T, data []byte) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.LoadBytes("x.yaml", data)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return s
}

// statuses lists the status of each tool result, in order.
func statuses(s *scenarios.Scenario) []string {
	var out []string
	for _, e := range s.Events {
		if e.ToolResult != nil {
			out = append(out, e.ToolResult.Status)
		}
	}
	return out
}

// A Claude Code file whose messages are all sidechain is a subagent's
// transcript: it imports as that session, with a warning.
func TestSidechainOnly(t *testing.T) {
	out, rep := importFile(t, "../testdata/import/claude-code_sidechain.jsonl", importer.Options{})
	if rep.Events != 6 {
		t.Errorf("imported %d events, want the subagent's 6", rep.Events)
	}
	if !slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, "subagent's transcript") }) {
		t.Errorf("no warning says it is a subagent's transcript: %q", rep.Warnings)
	}
	s := load(t, out)
	if got := s.Events[0].Text; !strings.HasPrefix(got, "Find every caller of charge_card") {
		t.Errorf("first event %q, want the subagent's task", got)
	}
}

// mini-swe-agent messages saved as a bare array are detected as SWE-agent
// and read as its commands; --from swe-agent reads them too.
func TestMiniBareArray(t *testing.T) {
	data, err := os.ReadFile("../testdata/import/swe-agent_mini_bare.json")
	if err != nil {
		t.Fatal(err)
	}
	d, err := importer.DetectInput(bufio.NewReader(bytes.NewReader(data)))
	if err != nil || d.Format != importer.FormatSWEAgent {
		t.Fatalf("detected %v (%v), want swe-agent", d, err)
	}
	for _, f := range []importer.Format{importer.FormatAuto, importer.FormatSWEAgent} {
		out, rep := importFile(t, "../testdata/import/swe-agent_mini_bare.json", importer.Options{Format: f})
		if rep.Format != importer.FormatSWEAgent {
			t.Errorf("--from %s: read as %s", f, rep.Format)
		}
		want := []string{scenarios.StatusOK, scenarios.StatusError, scenarios.StatusOK}
		if got := statuses(load(t, out)); !slices.Equal(got, want) {
			t.Errorf("--from %s: results %v, want %v (the commands, the failing one an error)", f, got, want)
		}
	}
}

// A SWE-agent edit the tool refused (a syntax error, not applied) is an
// error; the edit that was applied after it is not.
func TestSWEAgentRejectedEdit(t *testing.T) {
	out, _ := importFile(t, "../testdata/import/swe-agent_rejected.traj", importer.Options{})
	want := []string{scenarios.StatusOK, scenarios.StatusError, scenarios.StatusOK, scenarios.StatusOK}
	if got := statuses(load(t, out)); !slices.Equal(got, want) {
		t.Errorf("results %v, want %v", got, want)
	}
}

// An escaped line break inside a call's arguments separates two paths: it
// is decoded before the paths are read, so no "nconfig/db.yaml" appears and
// the two near-twin files form one artifact.
func TestEscapedArgs(t *testing.T) {
	out, _ := importFile(t, "../testdata/import/openai_escaped_args.json", importer.Options{})
	s := load(t, suggestions.Accept(out))
	var paths []string
	for _, inv := range s.Invariants {
		if a, ok := scenarios.Pointer(inv).(*scenarios.Artifact); ok {
			paths = append(paths, a.Paths...)
		}
	}
	if want := []string{"config/db.yml", "config/db.yaml"}; !slices.Equal(paths, want) {
		t.Errorf("artifact paths %q, want %q", paths, want)
	}
}

// --all gives each record an id and a title that carry its task id, trial
// and reward.
func TestAllCarriesTrialAndReward(t *testing.T) {
	f, err := os.Open("../testdata/import/benchmark_trials.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ids, titles []string
	_, err = importer.ImportEach(f, importer.Options{Name: "benchmark_trials.json"}, func(rep *importer.Report, write func(io.Writer) error, err error) error {
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return err
		}
		s := load(t, buf.Bytes())
		ids, titles = append(ids, s.ID), append(titles, s.Title)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"benchmark-trials-fix-pager-trial-1", "benchmark-trials-fix-pager-trial-2"}; !slices.Equal(ids, want) {
		t.Errorf("ids %q, want %q", ids, want)
	}
	for i, want := range []string{"task fix-pager, trial 1, reward 0.0", "task fix-pager, trial 2, reward 1.0"} {
		if i >= len(titles) || !strings.HasSuffix(titles[i], want) {
			t.Errorf("title %d = %q, want it to end with %q", i, titles, want)
		}
	}
}

// The final reply of a completion log (the response to the last request,
// with its closing tool call) is kept after the request's messages: under
// a request/response wrapper, and beside the messages of one object; a
// log whose messages already end with the reply keeps it once.
func TestCompletionLogReply(t *testing.T) {
	out, rep := importFile(t, "../testdata/import/openai_completion_log.json", importer.Options{})
	s := load(t, out)
	last := s.Events[len(s.Events)-1]
	if last.Role != scenarios.RoleAssistant || last.ToolCall == nil || last.ToolCall.Name != "submit" || !strings.HasPrefix(last.Text, "Negative and zero amounts are exported now") {
		t.Errorf("last event %+v, want the reply with its submit call", last)
	}
	if !slices.Contains(rep.Warnings, "completion replies kept after the request's messages: 1") {
		t.Errorf("warnings %q do not say the reply was kept", rep.Warnings)
	}
	reply := `{"role": "assistant", "content": "Done.", "tool_calls": [{"id": "c9", "type": "function", "function": {"name": "submit", "arguments": "{}"}}]}`
	for _, tc := range []struct {
		name, input string
		events      int
	}{
		{"choices beside the messages", `{"model": "m", "messages": [{"role": "user", "content": "Fix it."}], "choices": [{"index": 0, "message": ` + reply + `}, {"index": 1, "message": {"role": "assistant", "content": "other"}}]}`, 2},
		{"the reply already in the messages", `{"messages": [{"role": "user", "content": "Fix it."}, ` + reply + `], "response": {"choices": [{"message": ` + reply + `}]}}`, 2},
		{"a batch output line", `{"custom_id": "r1", "request": {"messages": [{"role": "user", "content": "Fix it."}]}, "response": {"status_code": 200, "body": {"choices": [{"message": ` + reply + `}]}}}`, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if _, err := importer.Import(strings.NewReader(tc.input), &b, importer.Options{}); err != nil {
				t.Fatal(err)
			}
			s := load(t, b.Bytes())
			if len(s.Events) != tc.events || s.Events[len(s.Events)-1].ToolCall == nil || s.Events[len(s.Events)-1].ToolCall.Name != "submit" {
				t.Errorf("events %+v, want %d ending with the reply's submit call", s.Events, tc.events)
			}
		})
	}
}

// A message the user typed while the agent worked is a user turn where
// the running turn absorbed it (queue-operation remove), once where it
// was sent as the next turn (dequeue, then a user line), and nowhere when
// it never reached the agent (taken back, or never delivered); a queued
// task notification is the harness's.
func TestClaudeCodeQueued(t *testing.T) {
	out, rep := importFile(t, "../testdata/import/claude-code_queued.jsonl", importer.Options{})
	s := load(t, out)
	var users []string
	for _, e := range s.Events {
		if e.Role == scenarios.RoleUser {
			users = append(users, e.Text)
		}
	}
	want := []string{
		"Add a CSV export to the ledger report command.",
		"wait, write it to stdout instead of a file",    // removed: absorbed_mid_turn
		"and run the tests when you are done",           // dequeued: the user line, once
		"quote every field, the memo column has commas", // removed, no reason (older clients)
		"Also add a --since flag.",                      // sent after popAll; the popped text is not
	}
	if !slices.Equal(users, want) {
		t.Errorf("user turns:\n%q\nwant\n%q", users, want)
	}
	if s.Events[3].Text != want[1] || s.Events[2].ToolResult == nil {
		t.Errorf("the absorbed message is not right after the tool result it came with: %+v", s.Events[2:4])
	}
	if !strings.Contains(string(out), "- role: user # seq 4: typed while the agent worked, absorbed into its turn (queue-operation remove, absorbed_mid_turn)\n") {
		t.Errorf("the absorbed message's comment does not say how the log recorded it:\n%s", out)
	}
	for _, w := range []string{"absorbed into its turn (queue-operation remove), kept as user turns: 2", "<task-notification>, not the user's): 1",
		"never delivers (queue-operation enqueue with no dequeue or remove): 1", "taken back before the agent saw them (queue-operation popAll): 1"} {
		if !slices.ContainsFunc(rep.Warnings, func(s string) bool { return strings.Contains(s, w) }) {
			t.Errorf("no warning says %q: %q", w, rep.Warnings)
		}
	}
}

// A Codex subagent forked with its parent's history replays the parent's
// call that spawned it, whose output only the parent's log holds: it is
// no pending operation of the subagent's. The same call in any other
// session is.
func TestCodexSpawnCallIsNotPending(t *testing.T) {
	const body = `{"timestamp":"2026-03-01T10:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Audit the nginx configs."}]}}
{"timestamp":"2026-03-01T10:00:02Z","type":"response_item","payload":{"type":"function_call","name":"spawn_agent","arguments":"{\"message\":\"read sites-enabled\"}","call_id":"call-77"}}
{"timestamp":"2026-03-01T10:00:03Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Reading sites-enabled."}]}}
`
	run := func(meta string) string {
		var out bytes.Buffer
		if _, err := importer.Import(strings.NewReader(meta+"\n"+body), &out, importer.Options{Name: "rollout.jsonl", Format: importer.FormatCodex}); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	child := run(`{"timestamp":"2026-03-01T10:00:00Z","type":"session_meta","payload":{"id":"c1","source":{"subagent":{"thread_spawn":{"parent_thread_id":"p1","spawn_call_id":"call-77"}}}}}`)
	if strings.Contains(child, "type: pending_operation") || !strings.Contains(child, "spawned this subagent") {
		t.Errorf("a subagent's spawn call is suggested as pending, or not said why it is not:\n%s", child)
	}
	parent := run(`{"timestamp":"2026-03-01T10:00:00Z","type":"session_meta","payload":{"id":"p1","source":"cli"}}`)
	if !strings.Contains(parent, "type: pending_operation") {
		t.Errorf("an unanswered call of a session's own is not suggested as pending:\n%s", parent)
	}
}
