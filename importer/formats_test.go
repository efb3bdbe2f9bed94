package importer_test

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	result "github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/scenarios"
)

// importString imports input and loads the result back, returning its
// events (positions cleared) and the report.
func importString(t *testing.T, input string, opts importer.Options) ([]scenarios.Event, *importer.Report) {
	t.Helper()
	var out bytes.Buffer
	rep, err := importer.Import(strings.NewReader(input), &out, opts)
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	s, err := scenarios.LoadBytes("imported.yaml", out.Bytes())
	if err != nil {
		t.Fatalf("load: %v\n%s", err, out.String())
	}
	if errs := scenarios.LintScenario(s); len(errs) > 0 {
		t.Fatalf("lint: %v\n%s", errs, out.String())
	}
	for i := range s.Events {
		s.Events[i].Pos = result.Pos{}
	}
	return s.Events, rep
}

func user(seq int, text string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleUser, Text: text}
}

func assistant(seq int, text string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleAssistant, Text: text}
}

func system(seq int, text string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleSystem, Text: text}
}

func call(seq int, text, id, name string, args map[string]any) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleAssistant, Text: text, ToolCall: &scenarios.ToolCall{ID: id, Name: name, Args: args}}
}

func toolResult(seq int, id, status, text string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: id, Status: status, Text: text}}
}

type formatCase struct {
	name     string
	opts     importer.Options
	input    string
	want     []scenarios.Event
	wantWarn []string // substrings, each found in some warning
}

func runFormatCases(t *testing.T, format importer.Format, tests []formatCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Format = format
			got, rep := importString(t, tc.input, tc.opts)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			for _, w := range tc.wantWarn {
				if !strings.Contains(strings.Join(rep.Warnings, "\n"), w) {
					t.Errorf("no warning contains %q; warnings:\n%s", w, strings.Join(rep.Warnings, "\n"))
				}
			}
		})
	}
}

func TestOpenAI(t *testing.T) {
	runFormatCases(t, importer.FormatOpenAI, []formatCase{
		{
			name: "interleaved parallel calls and an unresolved call",
			input: `[{"role":"user","content":"go"},
{"role":"assistant","content":"both","tool_calls":[
 {"id":"a","type":"function","function":{"name":"f","arguments":"{\"n\":1}"}},
 {"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]},
{"role":"tool","tool_call_id":"b","content":"B"},
{"role":"tool","tool_call_id":"a","content":"A"},
{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"h","arguments":""}}]}]`,
			want: []scenarios.Event{
				user(1, "go"),
				call(2, "both", "a", "f", map[string]any{"n": 1}),
				call(3, "", "b", "g", map[string]any{}),
				toolResult(4, "b", "ok", "B"),
				toolResult(5, "a", "ok", "A"),
				call(6, "", "c", "h", nil),
			},
		},
		{
			name: "messages wrapper, content parts, bad arguments, orphan result; a leading developer message is the rules",
			input: `{"model":"m","messages":[{"role":"developer","content":"be brief"},
{"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"x"}}]},
{"role":"assistant","tool_calls":[{"id":"x","type":"function","function":{"name":"sh","arguments":"ls -l"}}]},
{"role":"tool","tool_call_id":"nope","content":"orphan"},
{"role":"tool","tool_call_id":"x","content":"total 0"}]}`,
			want: []scenarios.Event{
				user(1, "look"),
				call(2, "", "x", "sh", map[string]any{"input": "ls -l"}),
				toolResult(3, "x", "ok", "total 0"),
			},
			wantWarn: []string{"tool results with no earlier call (dropped): 1", "content parts of type image_url: 1"},
		},
		{
			name:     "jsonl, one conversation a line, --index 1",
			opts:     importer.Options{Index: 1},
			input:    "{\"messages\":[{\"role\":\"user\",\"content\":\"first\"}]}\n[{\"role\":\"user\",\"content\":\"second\"},{\"role\":\"assistant\",\"content\":\"ok\"}]\nnot json\n",
			want:     []scenarios.Event{user(1, "second"), assistant(2, "ok")},
			wantWarn: []string{"holds 3 conversations"},
		},
		{
			name:     "jsonl, one message a line, malformed line skipped",
			input:    "{\"role\":\"user\",\"content\":\"a\"}\n{\"role\":\"assistant\",\n{\"role\":\"assistant\",\"content\":\"b\"}\n",
			want:     []scenarios.Event{user(1, "a"), assistant(2, "b")},
			wantWarn: []string{"line 2: malformed"},
		},
		{
			name: "legacy function_call",
			input: `[{"role":"user","content":"weather?"},
{"role":"assistant","content":null,"function_call":{"name":"weather","arguments":"{\"city\":\"Madrid\"}"}},
{"role":"function","name":"weather","content":"sunny"}]`,
			want: []scenarios.Event{
				user(1, "weather?"),
				call(2, "", "function-weather", "weather", map[string]any{"city": "Madrid"}),
				toolResult(3, "function-weather", "ok", "sunny"),
			},
		},
		{
			name:  "duplicate call ids are renamed",
			input: `[{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"f"}}]},{"role":"tool","tool_call_id":"a","content":"1"},{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"f"}}]},{"role":"tool","tool_call_id":"a","content":"2"}]`,
			want: []scenarios.Event{
				call(1, "", "a", "f", nil), toolResult(2, "a", "ok", "1"),
				call(3, "", "a-2", "f", nil), toolResult(4, "a-2", "ok", "2"),
			},
			wantWarn: []string{"duplicate tool call ids (renamed): 1"},
		},
	})
}

func TestAnthropic(t *testing.T) {
	runFormatCases(t, importer.FormatAnthropic, []formatCase{
		{
			name: "blocks, error result, text after a result, thinking dropped",
			input: `{"system":"rules here","messages":[
{"role":"user","content":"deploy"},
{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"two reads"},
 {"type":"tool_use","id":"t1","name":"read","input":{"path":"a.txt"}},
 {"type":"tool_use","id":"t2","name":"read","input":{"path":"b.txt"}}]},
{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"B","is_error":true},
 {"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"A"}]},
 {"type":"text","text":"now stop"}]}]}`,
			want: []scenarios.Event{
				user(1, "deploy"),
				call(2, "two reads", "t1", "read", map[string]any{"path": "a.txt"}),
				call(3, "", "t2", "read", map[string]any{"path": "b.txt"}),
				toolResult(4, "t2", "error", "B"),
				toolResult(5, "t1", "ok", "A"),
				user(6, "now stop"),
			},
			wantWarn: []string{"thinking blocks: 1"},
		},
	})
}

func TestClaudeCode(t *testing.T) {
	runFormatCases(t, importer.FormatClaudeCode, []formatCase{
		{
			name: "boundary and compact summary become one recorded compaction, no event",
			input: `{"type":"user","uuid":"1","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"fix it"}}
{"type":"assistant","uuid":"2","parentUuid":"1","message":{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"Bash","input":{"command":"make"}}]}}
{"type":"user","uuid":"3","parentUuid":"2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"u1","content":"ok"}]}}
{"type":"system","subtype":"compact_boundary","uuid":"4","compactMetadata":{"trigger":"manual","preTokens":1000}}
{"type":"user","uuid":"5","isCompactSummary":true,"message":{"role":"user","content":"Summary: make passes."}}
{broken
{"type":"assistant","uuid":"6","isSidechain":true,"message":{"role":"assistant","content":"side"}}
{"type":"user","uuid":"7","parentUuid":"5","message":{"role":"user","content":"thanks"}}
`,
			want: []scenarios.Event{
				user(1, "fix it"),
				call(2, "", "u1", "Bash", map[string]any{"command": "make"}),
				toolResult(3, "u1", "ok", "ok"),
				user(4, "thanks"),
			},
			wantWarn: []string{"line 6: malformed", "sub-agent (sidechain) lines: 1", "dropped 1 timestamps"},
		},
		{
			name: "boundary without summary text",
			input: `{"type":"user","uuid":"1","message":{"role":"user","content":"a"}}
{"type":"system","subtype":"compact_boundary","uuid":"2"}
`,
			want: []scenarios.Event{user(1, "a"), system(2, "[earlier compaction summary] conversation compacted here")},
		},
		{
			name: "a boundary with no text before another stays a note",
			input: `{"type":"user","uuid":"1","message":{"role":"user","content":"a"}}
{"type":"system","subtype":"compact_boundary","uuid":"2"}
{"type":"system","subtype":"compact_boundary","uuid":"3","compactMetadata":{"trigger":"manual","preTokens":9}}
{"type":"user","uuid":"4","isCompactSummary":true,"message":{"role":"user","content":"second"}}
`,
			want: []scenarios.Event{
				user(1, "a"),
				system(2, "[earlier compaction summary] conversation compacted here"),
			},
			wantWarn: []string{"compactions with no summary text (kept as notes): 1"},
		},
		{
			name: "a removal with no text is the oldest queued one; a dequeued one is the user line's",
			input: `{"type":"user","uuid":"1","message":{"role":"user","content":"rotate the keys"}}
{"type":"queue-operation","operation":"enqueue","content":"only the staging ones"}
{"type":"queue-operation","operation":"enqueue","content":"then tell me"}
{"type":"queue-operation","operation":"remove"}
{"type":"queue-operation","operation":"dequeue"}
{"type":"user","uuid":"2","parentUuid":"1","message":{"role":"user","content":"then tell me"}}
{"type":"queue-operation","operation":"remove"}
`,
			want:     []scenarios.Event{user(1, "rotate the keys"), user(2, "only the staging ones"), user(3, "then tell me")},
			wantWarn: []string{"kept as user turns: 1", "queue-operation remove lines with no text: 1"},
		},
	})
}

func TestCodex(t *testing.T) {
	runFormatCases(t, importer.FormatCodex, []formatCase{
		{
			name: "calls, exit codes, compacted (a recorded compaction, no event), injected context before the first event is the rules",
			input: `{"timestamp":"2026-01-01T10:00:00Z","type":"session_meta","payload":{"id":"s"}}
{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>cwd</environment_context>"}]}}
{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"run tests"}]}}
{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}}
{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"false\"]}","call_id":"c2"}}
{"type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"{\"output\":\"\",\"metadata\":{\"exit_code\":1}}"}}
{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Exit code: 0\nOutput:\na b\n"}}
{"type":"compacted","payload":{"message":"ran ls"}}
{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch","call_id":"p1"}}
{"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"p1","output":"Exit code: 2\nOutput:\nbad patch"}}
{"type":"event_msg","payload":{"type":"token_count"}}
{"type":"response_item","payload":{"type":"function_call","name":"view","arguments":"{}","call_id":"c4"}}
{"type":"response_item","payload":{"type":"function_call_output","call_id":"c4","output":[{"type":"input_text","text":"listing"},{"type":"input_image","image_url":"data:"}]}}
{"type":"response_item","payload":{"type":"function_call","name":"mcp","arguments":"{}","call_id":"c5"}}
{"type":"response_item","payload":{"type":"function_call_output","call_id":"c5","output":{"content":"denied","success":false}}}
{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c3"}}
{"type":"response_item","payload":
`,
			want: []scenarios.Event{
				user(1, "run tests"),
				call(2, "", "c1", "shell", map[string]any{"command": []any{"ls"}}),
				call(3, "", "c2", "shell", map[string]any{"command": []any{"false"}}),
				toolResult(4, "c2", "error", ""),
				toolResult(5, "c1", "ok", "Exit code: 0\nOutput:\na b\n"),
				call(6, "", "p1", "apply_patch", map[string]any{"input": "*** Begin Patch"}),
				toolResult(7, "p1", "error", "Exit code: 2\nOutput:\nbad patch"),
				call(8, "", "c4", "view", map[string]any{}),
				toolResult(9, "c4", "ok", "listing"),
				call(10, "", "c5", "mcp", map[string]any{}),
				toolResult(11, "c5", "error", "denied"),
				call(12, "", "c3", "shell", map[string]any{}),
			},
			wantWarn: []string{"line 17: malformed", "session_meta lines: 1", "event_msg lines"},
		},
		{
			name: "legacy rollout without payloads",
			input: `{"id":"s","timestamp":"2025-05-01T10:00:00Z","instructions":""}
{"record_type":"state"}
{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}
{"type":"function_call","name":"shell","arguments":"{}","call_id":"c"}
{"type":"function_call_output","call_id":"c","output":"{\"output\":\"x\",\"metadata\":{\"exit_code\":0}}"}
`,
			want: []scenarios.Event{user(1, "hi"), call(2, "", "c", "shell", map[string]any{}), toolResult(3, "c", "ok", "x")},
		},
	})
}

func TestStrictMalformedLine(t *testing.T) {
	tests := []struct {
		name   string
		format importer.Format
		input  string
		line   int
	}{
		{"claude-code", importer.FormatClaudeCode, "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"a\"}}\n\n{oops\n", 3},
		{"codex", importer.FormatCodex, "{\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"user\",\"content\":\"a\"}}\nnope\n", 2},
		{"openai jsonl", importer.FormatOpenAI, "{\"role\":\"user\",\"content\":\"a\"}\n{\"role\":\n", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := importer.Import(strings.NewReader(tc.input), &out, importer.Options{Format: tc.format, Strict: true})
			var ie *importer.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an *InputError", err)
			}
			if ie.Line != tc.line {
				t.Errorf("line = %d, want %d (%v)", ie.Line, tc.line, err)
			}
			if out.Len() != 0 {
				t.Errorf("wrote %d bytes on error, want none", out.Len())
			}
		})
	}
}

func TestImportErrors(t *testing.T) {
	tests := []struct {
		name  string
		opts  importer.Options
		input string
		want  string
	}{
		{"empty", importer.Options{}, "", "empty"},
		{"not json", importer.Options{}, "hello", "not JSON"},
		{"index out of range", importer.Options{Format: importer.FormatOpenAI, Index: 5}, "[{\"role\":\"user\",\"content\":\"a\"}]\n", "holds 1 conversations"},
		{"no events", importer.Options{Format: importer.FormatOpenAI}, "[]", "no events"},
		{"index on a codex log", importer.Options{Index: 1}, `{"type":"session_meta","payload":{}}`, "--record picks a record"},
		{"broken array", importer.Options{Format: importer.FormatOpenAI}, "[{\"role\":\"user\",\"content\":\"a\"},\n{\"role\":", "at byte"},
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
}

func TestMaxEventChars(t *testing.T) {
	input := `[{"role":"user","content":"short"},{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"cat"}}]},{"role":"tool","tool_call_id":"a","content":"ñandú-0123456789"}]`
	got, rep := importString(t, input, importer.Options{Format: importer.FormatOpenAI, MaxEventChars: 5})
	want := []scenarios.Event{
		user(1, "short"),
		call(2, "", "a", "cat", nil),
		toolResult(3, "a", "ok", "ñandú…[trimmed 11 chars]"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "trimmed by --max-event-chars: 1") {
		t.Errorf("warnings %q lack the trim count", rep.Warnings)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  importer.Format
	}{
		{"openai array", `[{"role":"user","content":"a"},{"role":"assistant","tool_calls":[]}]`, importer.FormatOpenAI},
		{"anthropic array", `[{"role":"assistant","content":[{"type":"tool_use","id":"x","name":"f","input":{}}]}]`, importer.FormatAnthropic},
		{"plain text array reads as openai", `[{"role":"user","content":"a"}]`, importer.FormatOpenAI},
		{"openai wrapper, pretty", "{\n  \"messages\": [\n    {\"role\": \"tool\", \"tool_call_id\": \"a\"}\n  ]\n}", importer.FormatOpenAI},
		{"anthropic wrapper", `{"system":"s","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"}]}]}`, importer.FormatAnthropic},
		{"claude code", `{"parentUuid":null,"type":"user","message":{"role":"user","content":"a"},"uuid":"1"}`, importer.FormatClaudeCode},
		{"claude code summary first", "{\"type\":\"summary\",\"summary\":\"x\",\"leafUuid\":\"1\"}\n", importer.FormatClaudeCode},
		{"codex", `{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}`, importer.FormatCodex},
		{"legacy codex", "{\"id\":\"x\",\"timestamp\":\"t\",\"instructions\":null}\n{\"record_type\":\"state\"}\n", importer.FormatCodex},
		{"codex after a broken first line", "{oops\n{\"type\":\"response_item\",\"payload\":{}}\n", importer.FormatCodex},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			rep, err := importer.Import(strings.NewReader(tc.input), &out, importer.Options{})
			if err != nil {
				// Some inputs hold no events; detection alone is tested then.
				var ie *importer.InputError
				if !errors.As(err, &ie) || !strings.Contains(err.Error(), string(tc.want)) {
					t.Fatalf("import: %v", err)
				}
				return
			}
			if rep.Format != tc.want || !rep.Detected {
				t.Errorf("format = %s (detected %v), want %s", rep.Format, rep.Detected, tc.want)
			}
		})
	}
}

func TestSanitizeID(t *testing.T) {
	tests := map[string]string{
		"Session 2026-03-02.jsonl":            "session-2026-03-02",
		"/home/x/.claude/projects/p/A_B.json": "a-b",
		"rollout-2025-05-07T17-24-21.jsonl":   "rollout-2025-05-07t17-24-21",
		"___":                                 "imported-session",
		"":                                    "imported-session",
	}
	for in, want := range tests {
		if got := importer.SanitizeID(in); got != want {
			t.Errorf("SanitizeID(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSanitizeIDLongNames: two long names that differ only past the cut get
// distinct ids of at most MaxIDLen characters; a name at the limit is kept.
func TestSanitizeIDLongNames(t *testing.T) {
	prefix := "swe-bench-verified-django__django-" + strings.Repeat("x", 40)
	a := importer.SanitizeID(prefix + "-11099.traj")
	b := importer.SanitizeID(prefix + "-11133.traj")
	if a == b {
		t.Fatalf("both names gave id %q", a)
	}
	for _, id := range []string{a, b} {
		if len(id) > importer.MaxIDLen {
			t.Errorf("id %q is %d characters, want at most %d", id, len(id), importer.MaxIDLen)
		}
		if !regexp.MustCompile(`^[a-z0-9][a-z0-9-]*-[0-9a-f]{8}$`).MatchString(id) {
			t.Errorf("id %q does not end with a dash and 8 hex digits", id)
		}
	}
	if again := importer.SanitizeID(prefix + "-11099.traj"); again != a {
		t.Errorf("the id is not stable: %q then %q", a, again)
	}
	exact := strings.Repeat("a", importer.MaxIDLen)
	if got := importer.SanitizeID(exact); got != exact {
		t.Errorf("a %d-character id became %q", importer.MaxIDLen, got)
	}
}

func TestLineTooLong(t *testing.T) {
	long := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", 5000) + `"}}`
	input := "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"short\"}}\n" + long + "\n{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":\"after\"}}\n"
	got, rep := importString(t, input, importer.Options{Format: importer.FormatClaudeCode, MaxLineBytes: 1000})
	if diff := cmp.Diff([]scenarios.Event{user(1, "short"), assistant(2, "after")}, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "line 2: malformed, skipped: line too long (over 1000 bytes)") {
		t.Errorf("warnings %q lack the long line", rep.Warnings)
	}
	_, err := importer.Import(strings.NewReader(input), &bytes.Buffer{}, importer.Options{Format: importer.FormatClaudeCode, MaxLineBytes: 1000, Strict: true})
	var ie *importer.InputError
	if !errors.As(err, &ie) || ie.Line != 2 {
		t.Errorf("strict: err = %v, want an *InputError at line 2", err)
	}
}
