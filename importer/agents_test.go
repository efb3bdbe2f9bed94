package importer_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/scenarios"
)

func TestSWEAgent(t *testing.T) {
	runFormatCases(t, importer.FormatSWEAgent, []formatCase{
		{
			name: "function calling: tool results by id, demonstration dropped, system prompt as rules, interrupted call",
			input: `{"history": [
{"role": "system", "content": "You are a programmer.", "message_type": "system_prompt"},
{"role": "user", "content": "demo", "is_demo": true, "message_type": "demonstration"},
{"role": "user", "content": [{"type": "text", "text": "Fix the bug."}], "message_type": "observation"},
{"role": "assistant", "content": "raw output", "thought": "Look first.", "action": "ls", "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}], "message_type": "action"},
{"role": "tool", "content": "a.py", "tool_call_ids": ["t1"], "message_type": "observation"},
{"role": "assistant", "content": "x", "thought": "Run it.", "action": "python a.py", "tool_calls": [{"id": "t2", "type": "function", "function": {"name": "bash", "arguments": {"command": "python a.py"}}}], "message_type": "action"}
], "info": {"exit_status": "exit_context"}}`,
			want: []scenarios.Event{
				user(1, "Fix the bug."),
				call(2, "Look first.", "t1", "bash", map[string]any{"command": "ls"}),
				toolResult(3, "t1", "ok", "a.py"),
				call(4, "Run it.", "t2", "bash", map[string]any{"command": "python a.py"}),
			},
			wantWarn: []string{"SWE-agent demonstrations (in-context examples): 1", "exit status: exit_context"},
		},
		{
			name: "no function calling: the action is a call, the next observation its result",
			input: `{"trajectory": [{"thought": "ignored, history wins", "action": "x", "observation": "y"}], "history": [
{"role": "user", "content": "Solve it.", "message_type": "observation"},
{"role": "assistant", "content": "DISCUSSION\nOpen it.\n` + "```" + `\nopen src/a.py\n` + "```" + `", "thought": "Open it.", "action": "open src/a.py\n", "message_type": "action"},
{"role": "user", "content": "[File: src/a.py]", "message_type": "observation"},
{"role": "assistant", "content": "I cannot parse this.", "thought": "", "action": "", "message_type": "action"},
{"role": "assistant", "content": "Submit.", "thought": "Submit.", "action": "submit", "message_type": "action"}
]}`,
			want: []scenarios.Event{
				user(1, "Solve it."),
				call(2, "Open it.", "step-1", "open", map[string]any{"command": "open src/a.py"}),
				toolResult(3, "step-1", "ok", "[File: src/a.py]"),
				assistant(4, "I cannot parse this."),
				call(5, "Submit.", "step-3", "submit", map[string]any{"command": "submit"}),
			},
		},
		{
			name: "trajectory steps only: the task from the first query",
			input: `{"trajectory": [
{"thought": "Reproduce.", "action": "python repro.py", "observation": "344", "query": [{"role": "system", "content": "SYS"}, {"role": "user", "content": "demo", "is_demo": true}, {"role": "user", "content": "Fix rounding."}]},
{"thought": "", "action": "", "observation": "", "response": "Thinking aloud."}
]}`,
			want: []scenarios.Event{
				user(1, "Fix rounding."),
				call(2, "Reproduce.", "step-1", "python", map[string]any{"command": "python repro.py"}),
				toolResult(3, "step-1", "ok", "344"),
				assistant(4, "Thinking aloud."),
			},
			wantWarn: []string{`no "history"`},
		},
	})
}

func TestOpenHands(t *testing.T) {
	runFormatCases(t, importer.FormatOpenHands, []formatCase{
		{
			name: "tool_call_metadata: parallel calls answered out of order, exit codes, condensation",
			input: `[
{"id": 1, "source": "user", "action": "message", "args": {"content": "go"}},
{"id": 2, "source": "agent", "action": "run", "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "a", "total_calls_in_response": 2}, "args": {"command": "ls", "thought": "both", "blocking": false, "hidden": false}},
{"id": 3, "source": "agent", "action": "read", "tool_call_metadata": {"function_name": "str_replace_editor", "tool_call_id": "b", "total_calls_in_response": 2}, "args": {"path": "x.py", "thought": ""}},
{"id": 4, "source": "agent", "observation": "read", "cause": 3, "content": "B", "tool_call_metadata": {"tool_call_id": "b"}},
{"id": 5, "source": "agent", "observation": "run", "cause": 2, "content": "A", "extras": {"metadata": {"exit_code": 2}}},
{"id": 6, "source": "agent", "action": "condensation", "args": {"forgotten_event_ids": [2, 3, 4, 5], "summary": null}},
{"id": 7, "source": "agent", "observation": "run", "content": "late, no cause", "tool_call_metadata": {"tool_call_id": "zzz"}},
{"id": 8, "source": "agent", "action": "finish", "tool_call_metadata": {"function_name": "finish", "tool_call_id": "f"}, "args": {"final_thought": "done", "thought": ""}}
]`,
			want: []scenarios.Event{
				user(1, "go"),
				call(2, "both", "a", "execute_bash", map[string]any{"command": "ls"}),
				call(3, "", "b", "str_replace_editor", map[string]any{"path": "x.py"}),
				toolResult(4, "b", "ok", "B"),
				toolResult(5, "a", "error", "A"),
				system(6, "[earlier compaction summary] (OpenHands forgot 4 events here and kept no summary)"),
				call(7, "", "f", "finish", map[string]any{"final_thought": "done"}),
			},
			wantWarn: []string{"tool results with no earlier call (dropped): 1"},
		},
		{
			name: "action/observation pairs by cause, without metadata; an error with no cause",
			input: `{"id":0,"source":"user","action":"message","args":{"content":"check"}}
{"id":1,"source":"agent","action":"run","args":{"command":"make","thought":"building"}}
{"id":2,"source":"agent","action":"think","args":{"thought":"hmm"}}
{"id":3,"source":"agent","observation":"run","cause":1,"content":"ok","extras":{"exit_code":0}}
{"id":4,"source":"agent","observation":"error","content":"stuck in a loop"}
{"id":5,"source":"agent","action":"message","args":{"content":"giving up"}}
`,
			want: []scenarios.Event{
				user(1, "check"),
				call(2, "building", "oh-1", "run", map[string]any{"command": "make"}),
				assistant(3, "hmm"),
				toolResult(4, "oh-1", "ok", "ok"),
				system(5, "[OpenHands error] stuck in a loop"),
				assistant(6, "giving up"),
			},
		},
		{
			name: "typed SDK events",
			input: `{"events": [
{"kind": "SystemPromptEvent", "source": "agent", "system_prompt": {"type": "text", "text": "SYS"}},
{"kind": "MessageEvent", "source": "user", "llm_message": {"role": "user", "content": [{"type": "text", "text": "bump"}]}},
{"kind": "ActionEvent", "source": "agent", "thought": [{"type": "text", "text": "view"}], "action": {"kind": "FileEditorAction", "command": "view", "path": "p"}, "tool_name": "file_editor", "tool_call_id": "c1"},
{"kind": "ObservationEvent", "tool_call_id": "c1", "observation": {"kind": "X", "content": [{"type": "text", "text": "v1"}], "exit_code": 1}},
{"kind": "ActionEvent", "source": "agent", "thought": [], "action": {"kind": "A", "command": "edit"}, "tool_name": "file_editor", "tool_call_id": "c2"},
{"kind": "UserRejectObservation", "tool_call_id": "c2", "rejection_reason": "no"},
{"kind": "CondensationSummaryEvent", "summary": "S"},
{"kind": "PauseEvent"}
]}`,
			want: []scenarios.Event{
				user(1, "bump"),
				call(2, "view", "c1", "file_editor", map[string]any{"command": "view", "path": "p"}),
				toolResult(3, "c1", "error", "v1"),
				call(4, "", "c2", "file_editor", map[string]any{"command": "edit"}),
				toolResult(5, "c2", "error", "rejected by the user: no"),
			},
			wantWarn: []string{"OpenHands PauseEvent events: 1"},
		},
		{
			name: "evaluation output: --record picks an instance",
			opts: importer.Options{Index: 1},
			input: `{"instance_id": "a", "history": [{"id": 0, "source": "user", "action": "message", "args": {"content": "first"}}]}
{"instance_id": "b", "history": [{"id": 0, "source": "user", "action": "message", "args": {"content": "second"}}]}
`,
			want:     []scenarios.Event{user(1, "second")},
			wantWarn: []string{"the input holds 2 records; imported #1"},
		},
	})
}

func TestMessagesPath(t *testing.T) {
	records := `[{"task_id": "t-1", "traj": [{"role": "user", "content": "one"}]},
{"task_id": "t-2", "reward": 1, "traj": [{"role": "user", "content": "two"}, {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}]`
	runFormatCases(t, importer.FormatOpenAI, []formatCase{
		{
			name:     "records, the second picked",
			opts:     importer.Options{MessagesPath: "/traj", Index: 1, Name: "bench.json"},
			input:    records,
			want:     []scenarios.Event{user(1, "two"), call(2, "", "c", "f", map[string]any{})},
			wantWarn: []string{"holds 2 records"},
		},
		{
			name:  "a nested pointer with an escaped key in one document",
			opts:  importer.Options{MessagesPath: "/data/a~1b/0"},
			input: `{"data": {"a/b": [[{"role": "user", "content": "deep"}]]}}`,
			want:  []scenarios.Event{user(1, "deep")},
		},
	})
	var out bytes.Buffer
	rep, err := importer.Import(strings.NewReader(records), &out, importer.Options{MessagesPath: "/traj", Index: 1, Name: "bench.json"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ID != "bench-t-2" || rep.Record != 1 || rep.Records != 2 {
		t.Errorf("report id %q record %d of %d, want bench-t-2, 1 of 2", rep.ID, rep.Record, rep.Records)
	}
}

func TestAutoDetectsWhereMessagesAre(t *testing.T) {
	tests := []struct {
		name, input string
		want        importer.Detection
	}{
		{"benchmark records", `[{"task_id": "x", "reward": 0, "traj": [{"role": "user", "content": "a"}]}]`,
			importer.Detection{Format: importer.FormatOpenAI, MessagesPath: "/traj", Records: true}},
		{"records as JSONL, anthropic blocks", "{\"id\": 1, \"conversation\": [{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"x\", \"name\": \"f\", \"input\": {}}]}]}\n{\"id\": 2, \"conversation\": []}\n",
			importer.Detection{Format: importer.FormatAnthropic, MessagesPath: "/conversation", Records: true}},
		{"one export object", `{"meta": {"v": 1}, "chat": {"turns": [{"role": "user", "content": "a"}]}}`,
			importer.Detection{Format: importer.FormatOpenAI, MessagesPath: "/chat/turns"}},
		{"swe-agent history", `{"trajectory": [], "history": [{"role": "system", "content": "s", "message_type": "system_prompt"}]}`,
			importer.Detection{Format: importer.FormatSWEAgent}},
		{"swe-agent steps", `{"environment": "e", "trajectory": [{"thought": "t", "action": "a", "observation": "o"}]}`,
			importer.Detection{Format: importer.FormatSWEAgent}},
		{"openhands array", `[{"id": 0, "source": "user", "action": "message", "args": {"content": "a"}}]`,
			importer.Detection{Format: importer.FormatOpenHands}},
		{"openhands jsonl", "{\"id\": 0, \"source\": \"user\", \"action\": \"message\", \"args\": {}}\n",
			importer.Detection{Format: importer.FormatOpenHands}},
		{"openhands sdk", `{"events": [{"kind": "MessageEvent", "source": "user", "llm_message": {"role": "user", "content": []}}]}`,
			importer.Detection{Format: importer.FormatOpenHands}},
		{"openhands evaluation output", "{\"instance_id\": \"a\", \"history\": [{\"id\": 0, \"source\": \"user\", \"observation\": \"x\"}]}\n{\"instance_id\": \"b\", \"history\": []}\n",
			importer.Detection{Format: importer.FormatOpenHands, Records: true}},
		{"mini-swe-agent messages", `{"info": {}, "messages": [{"role": "user", "content": "a"}], "trajectory_format": "mini-swe-agent-1.1"}`,
			importer.Detection{Format: importer.FormatSWEAgent}},
		{"plain messages", `[{"role": "user", "content": "a"}]`, importer.Detection{Format: importer.FormatOpenAI}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := importer.DetectInput(bufioReader(tc.input))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("detection (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRecordErrors(t *testing.T) {
	tests := []struct {
		name  string
		opts  importer.Options
		input string
		want  string
	}{
		{"record out of range", importer.Options{MessagesPath: "/traj", Index: 4}, `[{"traj": []}]`, "--record 4: the input holds 1 records"},
		{"no such key", importer.Options{MessagesPath: "/trajectory"}, `[{"traj": [], "task_id": "x"}]`, "/trajectory: no such key (the object has task_id, traj)"},
		{"not an array", importer.Options{MessagesPath: "/traj"}, `[{"traj": "text"}]`, "not an array of messages"},
		{"record on a single session", importer.Options{Format: importer.FormatClaudeCode, Index: 1}, `{"type":"user","uuid":"1","message":{"role":"user","content":"a"}}`, "--record picks a record"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := importer.Import(strings.NewReader(tc.input), &bytes.Buffer{}, tc.opts)
			var ie *importer.InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want an *InputError containing %q", err, tc.want)
			}
		})
	}
	if _, err := importer.Import(strings.NewReader("[]"), io.Discard, importer.Options{MessagesPath: "traj"}); err == nil || !strings.Contains(err.Error(), "must start with '/'") {
		t.Errorf("a pointer without '/': err = %v", err)
	}
	if _, err := importer.Import(strings.NewReader("[]"), io.Discard, importer.Options{MessagesPath: "/x", Format: importer.FormatCodex}); err == nil {
		t.Errorf("--messages-path with codex was accepted")
	}
}

// TestImportEach: every record becomes a scenario with a distinct id, even
// when the names are cut; a broken record is reported and the others kept.
func TestImportEach(t *testing.T) {
	long := "swe-gym-verified-long-running-migration-tasks-batch-2026-03-django__django-"
	input := `[{"task_id": "` + long + `11099", "traj": [{"role": "user", "content": "a"}]},
{"task_id": "` + long + `11133", "traj": [{"role": "user", "content": "b"}]},
{"task_id": "broken", "traj": "text"},
{"traj": [{"role": "user", "content": "d"}]}]`
	var ids []string
	var failed []string
	n, err := importer.ImportEach(strings.NewReader(input), importer.Options{Name: "runs.json"}, func(rep *importer.Report, write func(io.Writer) error, rerr error) error {
		if rerr != nil {
			failed = append(failed, rerr.Error())
			return nil
		}
		var out bytes.Buffer
		if err := write(&out); err != nil {
			return err
		}
		s, err := scenarios.LoadBytes(rep.ID+".yaml", out.Bytes())
		if err != nil {
			return err
		}
		if s.ID != rep.ID {
			t.Errorf("file id %q, report id %q", s.ID, rep.ID)
		}
		ids = append(ids, rep.ID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 || len(ids) != 3 || len(failed) != 1 {
		t.Fatalf("%d records, ids %v, failures %v; want 4 records, 3 ids, 1 failure", n, ids, failed)
	}
	if ids[0] == ids[1] {
		t.Errorf("two records share id %q", ids[0])
	}
	for _, id := range ids[:2] {
		if len(id) > importer.MaxIDLen {
			t.Errorf("id %q is longer than %d", id, importer.MaxIDLen)
		}
	}
	if ids[2] != "runs-3" {
		t.Errorf("a record without a name got id %q, want runs-3", ids[2])
	}
	if !strings.Contains(failed[0], "record 2") || !strings.Contains(failed[0], "not an array of messages") {
		t.Errorf("failure %q does not name the record and the reason", failed[0])
	}
	if _, err := importer.ImportEach(strings.NewReader(input), importer.Options{ID: "x"}, nil); err == nil {
		t.Errorf("ImportEach accepted one --id for every record")
	}
}

func bufioReader(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }

// TestPendingSuggestedBeforeTheCutOnly: a call with no result before the cut
// is a pending operation a summary must keep; one after it stays in the
// tail, where no summary can lose it, and is only counted.
func TestPendingSuggestedBeforeTheCutOnly(t *testing.T) {
	input := `[{"role":"user","content":"go"},
{"role":"assistant","tool_calls":[{"id":"early","type":"function","function":{"name":"migrate","arguments":"{}"}}]},
{"role":"user","content":"and?"},{"role":"assistant","content":"waiting"},{"role":"user","content":"ok"},
{"role":"assistant","content":"still waiting"},{"role":"user","content":"fine"},
{"role":"assistant","tool_calls":[{"id":"late","type":"function","function":{"name":"deploy","arguments":"{}"}}]}]`
	var out bytes.Buffer
	rep, err := importer.Import(strings.NewReader(input), &out, importer.Options{Format: importer.FormatOpenAI})
	if err != nil {
		t.Fatal(err)
	}
	y := out.String()
	if rep.Unresolved != 2 || rep.Cut >= 8 {
		t.Fatalf("report %+v: want 2 unresolved calls and the cut before the last", rep)
	}
	if !strings.Contains(y, "#   op_id: early\n") || strings.Contains(y, "#   op_id: late\n") {
		t.Errorf("want a pending operation for the early call only:\n%s", y)
	}
	if !strings.Contains(y, "# # 1 unresolved calls after the cut are not suggested: they stay in the tail\n") {
		t.Errorf("the late call is not counted:\n%s", y)
	}
}
