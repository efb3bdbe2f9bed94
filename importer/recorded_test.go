package importer_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Each format's compactions are kept as recorded compactions, with their
// boundary, text and provenance; their texts are no events, and the
// boundaries are the scenario's cuts.
func TestRecordedCompactions(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []scenarios.RecordedCompaction // Summary: a prefix
	}{
		{"claude-code_compactions.jsonl", []scenarios.RecordedCompaction{
			{Boundary: 8, Tool: "claude-code", Trigger: "manual", PreTokens: 48210, Timestamp: "2026-03-02T09:05:00.000Z", Summary: "This session is being continued"},
			{Boundary: 19, Tool: "claude-code", Trigger: "auto", PreTokens: 167402, Timestamp: "2026-03-02T09:20:00.000Z", Summary: "This session is being continued"},
		}},
		{"codex_compacted.jsonl", []scenarios.RecordedCompaction{
			// pre_tokens: the last token_count before the compacted item.
			{Boundary: 6, Tool: "codex", PreTokens: 243118, Timestamp: "2026-04-11T08:00:30.000Z", Summary: "Summary of the conversation so far:\n- User rules: only edit files under services/tiles/"},
		}},
		{"openhands_condensation.json", []scenarios.RecordedCompaction{
			// After a condensation request: manual; a zone-less time is left out.
			{Boundary: 6, Tool: "openhands", Trigger: "manual", Summary: "USER_CONTEXT: fix webhooks/handler.py"},
			{Boundary: 11, Tool: "openhands", Trigger: "auto", Summary: "USER_CONTEXT: fix webhooks/handler.py dropping events under load. Rules: do not change"},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			out, rep := importFile(t, "../testdata/import/"+tc.file, importer.Options{})
			s := load(t, out)
			if len(s.Recorded) != len(tc.want) {
				t.Fatalf("%d recorded compactions, want %d", len(s.Recorded), len(tc.want))
			}
			for i, w := range tc.want {
				g := s.Recorded[i]
				if g.Boundary != w.Boundary || g.Tool != w.Tool || g.Trigger != w.Trigger || g.PreTokens != w.PreTokens || g.Timestamp != w.Timestamp || !strings.HasPrefix(g.Summary, w.Summary) {
					t.Errorf("compaction %d = %+v, want %+v", i, g, w)
				}
			}
			if !slices.Equal(s.Compaction.At, s.RecordedBoundaries()) || !slices.Equal(rep.Recorded, s.RecordedBoundaries()) {
				t.Errorf("cuts %v, report %v, want the boundaries %v", s.Compaction.At, rep.Recorded, s.RecordedBoundaries())
			}
			for _, e := range s.Events {
				if strings.Contains(e.Text, "earlier compaction summary") || strings.Contains(e.Text, s.Recorded[0].Summary) {
					t.Errorf("seq %d holds a recorded summary: the full context must not", e.Seq)
				}
			}
		})
	}
}

// ccHead opens a Claude Code log: a rule, then a call.
const ccHead = `{"type":"user","uuid":"a","sessionId":"s","message":{"role":"user","content":"Never push to main."}}
{"type":"assistant","uuid":"b","sessionId":"s","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}
`

func importCC(t *testing.T, log string) ([]byte, *importer.Report) {
	t.Helper()
	var out strings.Builder
	rep, err := importer.Import(strings.NewReader(log), &out, importer.Options{Format: importer.FormatClaudeCode, Name: "x.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	return []byte(out.String()), rep
}

// What cannot be audited stays a note, as before; a boundary that would
// split a call from its result moves back, with a warning; two
// compactions with nothing between keep the later.
func TestRecordedEdges(t *testing.T) {
	boundary := `{"type":"system","subtype":"compact_boundary","uuid":"c","sessionId":"s","compactMetadata":{"trigger":"auto","preTokens":900},"timestamp":"2026-03-02T09:00:00Z"}
`
	summary := func(text string) string {
		return `{"type":"user","uuid":"d","sessionId":"s","isCompactSummary":true,"message":{"role":"user","content":"` + text + `"}}
`
	}
	result := `{"type":"user","uuid":"e","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.go"}]}}
`
	tail := `{"type":"user","uuid":"f","sessionId":"s","message":{"role":"user","content":"Push it."}}
`
	t.Run("no text", func(t *testing.T) {
		out, rep := importCC(t, ccHead+result+boundary+tail)
		s := load(t, out)
		if len(s.Recorded) != 0 || !strings.Contains(s.Events[3].Text, "[earlier compaction summary] conversation compacted here (trigger auto, 900 tokens before)") {
			t.Errorf("recorded %v, event 4 %q: want a note", s.Recorded, s.Events[3].Text)
		}
		if !slices.ContainsFunc(rep.Warnings, func(w string) bool {
			return strings.HasPrefix(w, "compactions with no summary text (kept as notes): 1")
		}) {
			t.Errorf("warnings %q", rep.Warnings)
		}
	})
	t.Run("before the first event", func(t *testing.T) {
		out, _ := importCC(t, boundary+summary("Earlier: never push to main.")+ccHead+result+tail)
		s := load(t, out)
		if len(s.Recorded) != 0 || s.Events[0].Role != scenarios.RoleSystem || !strings.Contains(s.Events[0].Text, "Earlier: never push to main.") {
			t.Errorf("recorded %v, first event %+v: want the continued session's summary as a note", s.Recorded, s.Events[0])
		}
	})
	t.Run("splits a call", func(t *testing.T) {
		out, rep := importCC(t, ccHead+boundary+summary("Rule: never push to main.")+result+tail)
		s := load(t, out)
		if len(s.Recorded) != 1 || s.Recorded[0].Boundary != 1 {
			t.Fatalf("recorded %+v, want one at seq 1 (before the call whose result follows)", s.Recorded)
		}
		if !slices.ContainsFunc(rep.Warnings, func(w string) bool {
			return w == "the compaction after seq 2 splits a tool call from its result: its boundary moved to seq 1"
		}) {
			t.Errorf("warnings %q", rep.Warnings)
		}
	})
	t.Run("two in a row", func(t *testing.T) {
		out, rep := importCC(t, ccHead+result+boundary+summary("first")+boundary+summary("second")+tail)
		s := load(t, out)
		if len(s.Recorded) != 1 || s.Recorded[0].Summary != "second" || s.Recorded[0].Boundary != 3 {
			t.Errorf("recorded %+v, want the second at seq 3", s.Recorded)
		}
		if !slices.Contains(rep.Warnings, "two compactions at seq 3 with no event between them: the later one is kept") {
			t.Errorf("warnings %q", rep.Warnings)
		}
	})
}

// A Codex compaction event with no compacted item (a remote compaction,
// its summary encrypted) is named in a warning: nothing to audit.
func TestCodexCompactionWithoutItem(t *testing.T) {
	log := `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Only edit services/."}]}}
{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Ok."}]}}
{"type":"response_item","payload":{"type":"compaction","encrypted_content":"gAAAA"}}
{"type":"event_msg","payload":{"type":"context_compacted"}}
{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Go on."}]}}
`
	var out strings.Builder
	rep, err := importer.Import(strings.NewReader(log), &out, importer.Options{Format: importer.FormatCodex, Name: "r.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Recorded) != 0 || !slices.Contains(rep.Warnings, "1 compaction events (context_compacted) with no compacted item holding their summary (a remote compaction keeps it encrypted): nothing to audit") {
		t.Errorf("recorded %v, warnings %q", rep.Recorded, rep.Warnings)
	}
	// With its compacted item, the event adds nothing.
	withItem := strings.Replace(log, `{"type":"event_msg","payload":{"type":"context_compacted"}}`, `{"type":"compacted","payload":{"message":"Rule: only edit services/."}}
{"type":"event_msg","payload":{"type":"context_compacted"}}`, 1)
	rep, err = importer.Import(strings.NewReader(withItem), &out, importer.Options{Format: importer.FormatCodex, Name: "r.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Recorded) != 1 || slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, "context_compacted") }) {
		t.Errorf("recorded %v, warnings %q", rep.Recorded, rep.Warnings)
	}
}

// OpenHands' llm_metrics give a condensation's size before: the last
// model call's prompt and reply before it.
func TestOpenHandsCondensationTokens(t *testing.T) {
	in := `[{"id": 0, "source": "user", "action": "message", "args": {"content": "Fix the handler."}},
{"id": 1, "source": "agent", "action": "run", "args": {"command": "ls"}, "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "t1"}, "llm_metrics": {"token_usages": [{"prompt_tokens": 90000, "completion_tokens": 10}, {"prompt_tokens": 142000, "completion_tokens": 300}]}},
{"id": 2, "source": "agent", "cause": 1, "observation": "run", "content": "a.py", "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "t1"}},
{"id": 3, "source": "agent", "action": "condensation", "args": {"forgotten_events_start_id": 0, "forgotten_events_end_id": 2, "summary": "USER_CONTEXT: fix the handler"}},
{"id": 4, "source": "agent", "action": "message", "args": {"content": "Done."}}]`
	var out strings.Builder
	if _, err := importer.Import(strings.NewReader(in), &out, importer.Options{Format: importer.FormatOpenHands}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "pre_tokens: 142300") {
		t.Errorf("no pre_tokens of the last call before the condensation:\n%s", out.String())
	}
}
