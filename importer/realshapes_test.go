package importer_test

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Shapes that real public logs take and that our first fixtures did not:
// each case is written from the format's published structure, not copied.

// OpenHands evaluation output of 2024 (before the event-list history) wrote
// "history" as [action, observation] pairs; an action with no observation
// is paired with a "null" observation.
const ohPairsRecord = `{"instance_id":"demo__demo-1","instruction":"Fix the parser.","history":[` +
	`[{"id":0,"timestamp":"2024-08-01T10:00:00","source":"user","message":"Fix src/parse.py.","action":"message","args":{"content":"Fix src/parse.py. Never touch vendor/.","wait_for_response":false}},` +
	`{"message":"No observation","observation":"null","content":"","extras":{}}],` +
	`[{"id":1,"source":"agent","message":"Running command: cat src/parse.py","action":"run","args":{"command":"cat src/parse.py","thought":"Read it first."}},` +
	`{"id":2,"source":"agent","cause":1,"observation":"run","content":"def parse(s): pass","extras":{"command_id":-1,"command":"cat src/parse.py","exit_code":1}}],` +
	`[{"id":3,"source":"agent","message":"Done.","action":"message","args":{"content":"The parser is fixed."}},` +
	`{"message":"No observation","observation":"null","content":"","extras":{}}]` +
	`],"metrics":{},"error":null}`

var ohPairsWant = []scenarios.Event{
	user(1, "Fix src/parse.py. Never touch vendor/."),
	call(2, "Read it first.", "oh-1", "run", map[string]any{"command": "cat src/parse.py"}),
	toolResult(3, "oh-1", "error", "def parse(s): pass"),
	assistant(4, "The parser is fixed."),
}

func TestOpenHandsHistoryPairs(t *testing.T) {
	pairs := ohPairsRecord[strings.Index(ohPairsRecord, `"history":`)+len(`"history":`) : strings.Index(ohPairsRecord, `,"metrics"`)]
	runFormatCases(t, importer.FormatOpenHands, []formatCase{
		{name: "evaluation output line", input: ohPairsRecord + "\n", want: ohPairsWant},
		{name: "array of records", input: "[" + ohPairsRecord + "]", want: ohPairsWant},
		{name: "one object", input: strings.Replace(ohPairsRecord, `"instance_id"`, "\n"+`"instance_id"`, 1), want: ohPairsWant},
		{name: "bare array of pairs", input: pairs, want: ohPairsWant},
	})
}

func TestDetectOpenHandsHistoryPairs(t *testing.T) {
	pairs := ohPairsRecord[strings.Index(ohPairsRecord, `"history":`)+len(`"history":`) : strings.Index(ohPairsRecord, `,"metrics"`)]
	for name, in := range map[string]string{
		"evaluation output":   ohPairsRecord + "\n" + ohPairsRecord + "\n",
		"one record":          ohPairsRecord + "\n",
		"array of records":    "[" + ohPairsRecord + "]",
		"bare array of pairs": pairs,
	} {
		d, err := importer.DetectInput(bufio.NewReader(strings.NewReader(in)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if d.Format != importer.FormatOpenHands {
			t.Errorf("%s: detected %s, want openhands", name, d)
		}
	}
}

// SWE-agent before 1.0 wrote history items without message_type: the system
// prompt (the agent's tools and standing rules) is the first item, an
// observation is a user message, and demonstrations carry is_demo.
func TestSWEAgentLegacyHistory(t *testing.T) {
	in := `{"environment": "swe_main", "history": [
{"role": "system", "content": "SETTING: a shell. Never use interactive editors.", "agent": "primary"},
{"role": "user", "content": "A demonstration.", "agent": "primary", "is_demo": true},
{"role": "user", "content": "Issue: the parser drops the last field.", "agent": "primary"},
{"role": "assistant", "content": "DISCUSSION\nFind it.\n` + "```" + `\nfind_file parse.py\n` + "```" + `", "thought": "DISCUSSION\nFind it.\n", "action": "find_file parse.py\n", "agent": "primary"},
{"role": "user", "content": "Found 1 match: src/parse.py", "agent": "primary"},
{"role": "system", "content": "Your command ran successfully and did not produce any output.", "agent": "primary"}
], "info": {"exit_status": "submitted", "model_stats": {"api_calls": 1}}}`
	got, _ := importString(t, in, importer.Options{Format: importer.FormatSWEAgent})
	want := []scenarios.Event{
		user(1, "Issue: the parser drops the last field."),
		call(2, "DISCUSSION\nFind it.", "step-1", "find_file", map[string]any{"command": "find_file parse.py"}),
		toolResult(3, "step-1", "ok", "Found 1 match: src/parse.py"),
		system(4, "Your command ran successfully and did not produce any output."),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	var out bytes.Buffer
	if _, err := importer.Import(strings.NewReader(in), &out, importer.Options{Format: importer.FormatSWEAgent, Name: "legacy.traj"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\nrules: 'SETTING: a shell. Never use interactive editors.'\n") {
		t.Errorf("the first system prompt is not the scenario's rules:\n%s", out.String())
	}
}

// Chat Completions messages as many published datasets and agent logs store
// them: the call's arguments as a JSON object rather than a string holding
// one (and the legacy function_call the same way).
func TestOpenAIArgumentsAsAnObject(t *testing.T) {
	runFormatCases(t, importer.FormatOpenAI, []formatCase{{
		name: "arguments object",
		input: `[{"role": "user", "content": "List the files."},
{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "bash", "arguments": {"command": "ls -la"}}}]},
{"role": "tool", "tool_call_id": "c1", "content": "a.py"},
{"role": "assistant", "function_call": {"name": "read", "arguments": {"path": "a.py"}}},
{"role": "function", "name": "read", "content": "print(1)"}]`,
		want: []scenarios.Event{
			user(1, "List the files."),
			call(2, "", "c1", "bash", map[string]any{"command": "ls -la"}),
			toolResult(3, "c1", "ok", "a.py"),
			call(4, "", "function-read", "read", map[string]any{"path": "a.py"}),
			toolResult(5, "function-read", "ok", "print(1)"),
		},
	}})
}

// Published SWE-agent trajectory datasets (one instance a JSONL record)
// write each message as {role: system|user|ai, text: …}: LangChain's role
// names and "text" for the content.
func TestRecordsWithAIRoleAndText(t *testing.T) {
	rec := `{"instance_id": "demo__demo-7", "model_name": "m", "target": true, "trajectory": [` +
		`{"role": "system", "system_prompt": "SETTING: a shell.", "text": "SETTING: a shell.", "mask": false},` +
		`{"role": "user", "text": "Fix the parser. Never edit the tests.", "mask": false},` +
		`{"role": "ai", "text": "Let me look.", "mask": false},` +
		`{"role": "human", "text": "[File: src/parse.py (2 lines total)]", "mask": true}` +
		`], "exit_status": "submitted"}` + "\n"
	want := []scenarios.Event{
		// the system prompt is the rules, not an event
		user(1, "Fix the parser. Never edit the tests."),
		assistant(2, "Let me look."),
		user(3, "[File: src/parse.py (2 lines total)]"),
	}
	runFormatCases(t, importer.FormatOpenAI, []formatCase{
		{name: "--messages-path", opts: importer.Options{MessagesPath: "/trajectory"}, input: rec, want: want},
	})
	d, err := importer.DetectInput(bufio.NewReader(strings.NewReader(rec + rec)))
	if err != nil || d.Format != importer.FormatOpenAI || d.MessagesPath != "/trajectory" {
		t.Errorf("detected %v (%v), want openai with messages at /trajectory", d, err)
	}
}

// mini-swe-agent (the SWE-agent team's bash-only agent) saves
// {info, messages, trajectory_format: "mini-swe-agent-1"}: each assistant
// message holds one fenced bash block, the command; the next user message,
// starting with <returncode>, is its output. Its later versions call tools
// instead, and end with an "exit" message.
func TestMiniSWEAgent(t *testing.T) {
	v1 := `{"info": {"exit_status": "Submitted", "submission": "diff", "model_stats": {"instance_cost": 0.1, "api_calls": 3}, "mini_version": "1.9.0"},
"messages": [
{"role": "system", "content": "You are a helpful assistant that can interact with a computer."},
{"role": "user", "content": "<pr_description>The parser drops the last field. You must not edit tests.</pr_description>"},
{"role": "assistant", "content": "THOUGHT: Read the parser first.\n\n` + "```" + `bash\ncat src/parse.py\n` + "```" + `"},
{"role": "user", "content": "<returncode>0</returncode>\n<output>\ndef parse(s): pass\n</output>"},
{"role": "assistant", "content": "THOUGHT: Run the tests.\n\n` + "```" + `bash\npython -m pytest -q\n` + "```" + `"},
{"role": "user", "content": "<returncode>1</returncode>\n<output>\n1 failed\n</output>"},
{"role": "assistant", "content": "Two commands at once is a format error.\n` + "```" + `bash\nls\n` + "```" + `\n` + "```" + `bash\npwd\n` + "```" + `"},
{"role": "user", "content": "Please always provide EXACTLY ONE action in triple backticks."}
], "trajectory_format": "mini-swe-agent-1"}`
	v2 := `{"info": {"exit_status": "Submitted"}, "messages": [
{"role": "system", "content": "SYS"},
{"role": "user", "content": "Task"},
{"role": "assistant", "content": "Look.", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}], "extra": {"actions": [{"command": "ls"}]}},
{"role": "tool", "tool_call_id": "call_1", "content": "<returncode>0</returncode>\n<output>a.py</output>", "extra": {"returncode": 0}},
{"role": "exit", "content": "Submitted", "extra": {"exit_status": "Submitted"}}
], "trajectory_format": "mini-swe-agent-1.1"}`
	runFormatCases(t, importer.FormatSWEAgent, []formatCase{
		{name: "bash blocks", input: v1, want: []scenarios.Event{
			user(1, "<pr_description>The parser drops the last field. You must not edit tests.</pr_description>"),
			call(2, "THOUGHT: Read the parser first.", "step-1", "bash", map[string]any{"command": "cat src/parse.py"}),
			toolResult(3, "step-1", "ok", "<returncode>0</returncode>\n<output>\ndef parse(s): pass\n</output>"),
			call(4, "THOUGHT: Run the tests.", "step-2", "bash", map[string]any{"command": "python -m pytest -q"}),
			toolResult(5, "step-2", "error", "<returncode>1</returncode>\n<output>\n1 failed\n</output>"),
			assistant(6, "Two commands at once is a format error.\n```bash\nls\n```\n```bash\npwd\n```"),
			user(7, "Please always provide EXACTLY ONE action in triple backticks."),
		}},
		{name: "tool calls", input: v2, want: []scenarios.Event{
			user(1, "Task"),
			call(2, "Look.", "call_1", "bash", map[string]any{"command": "ls"}),
			toolResult(3, "call_1", "ok", "<returncode>0</returncode>\n<output>a.py</output>"),
		}},
	})
	d, err := importer.DetectInput(bufio.NewReader(strings.NewReader(v1)))
	if err != nil || d.Format != importer.FormatSWEAgent {
		t.Errorf("detected %v (%v), want swe-agent", d, err)
	}
}
