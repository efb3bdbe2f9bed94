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
	result(3, "oh-1", "error", "def parse(s): pass"),
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
		result(3, "step-1", "ok", "Found 1 match: src/parse.py"),
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
			result(3, "c1", "ok", "a.py"),
			call(4, "", "function-read", "read", map[string]any{"path": "a.py"}),
			result(5, "function-read", "ok", "print(1)"),
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
		system(1, "SETTING: a shell."),
		user(2, "Fix the parser. Never edit the tests."),
		assistant(3, "Let me look."),
		user(4, "[File: src/parse.py (2 lines total)]"),
	}
	runFormatCases(t, importer.FormatOpenAI, []formatCase{
		{name: "--messages-path", opts: importer.Options{MessagesPath: "/trajectory"}, input: rec, want: want},
	})
	d, err := importer.DetectInput(bufio.NewReader(strings.NewReader(rec + rec)))
	if err != nil || d.Format != importer.FormatOpenAI || d.MessagesPath != "/trajectory" {
		t.Errorf("detected %v (%v), want openai with messages at /trajectory", d, err)
	}
}
