package guard_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/compact-eval/compact-eval/guard"
)

// A Claude Code log: the user's rule at turn 1, two tool calls, then a
// compaction whose summary drops the rule.
const claudeLog = `{"type":"user","message":{"role":"user","content":"Fix the flaky invoice test. Never run git push --force on this repository."},"uuid":"u1","parentUuid":null,"sessionId":"s","isSidechain":false,"timestamp":"2026-03-02T09:00:00.000Z"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"go test ./invoice/..."}}]},"uuid":"u2","parentUuid":"u1","sessionId":"s","isSidechain":false,"timestamp":"2026-03-02T09:00:05.000Z"}
{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"--- FAIL: TestTotals (0.01s)\n    totals_test.go:41: got 99.99, want 100.00"}]},"uuid":"u3","parentUuid":"u2","sessionId":"s","isSidechain":false,"timestamp":"2026-03-02T09:00:06.000Z"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"TestTotals compares floats exactly; it should round to cents."}]},"uuid":"u4","parentUuid":"u3","sessionId":"s","isSidechain":false,"timestamp":"2026-03-02T09:00:10.000Z"}
{"type":"system","subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":152000},"uuid":"u5","parentUuid":"u4","sessionId":"s","isSidechain":false,"timestamp":"2026-03-02T09:01:00.000Z"}
{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued from a previous conversation. Summary: TestTotals in invoice/ compares floats exactly; next, round to cents and push the fix."},"uuid":"u6","parentUuid":"u5","sessionId":"s","isSidechain":false,"timestamp":"2026-03-02T09:01:00.000Z"}
`

// The project's invariants: the rule, with no source seq; the guard
// finds the user's turn that states it in each session.
const projectInvariants = `version: 1
invariants:
  - id: no-force-push
    type: constraint
    match: ['never\W+run\W+git push --force']
`

// Check the compaction a log records against the project's invariants:
// the summary lost the rule of turn 1, which comes back restated from its
// source event.
func ExampleCheck() {
	s, err := guard.Read(strings.NewReader(claudeLog), guard.ReadOptions{Name: "session.jsonl"})
	if err != nil {
		fmt.Println(err)
		return
	}
	inv, err := guard.ParseInvariants("invariants.yaml", []byte(projectInvariants))
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := s.Latest()
	v, err := guard.Check(s, b, guard.Options{Invariants: inv})
	if err != nil {
		fmt.Println(err)
		return
	}
	guard.WriteText(os.Stdout, v)
	fmt.Println()
	fmt.Println(guard.Restatement(v))
	// Output:
	// guard: LOST: the compaction after seq 4 (claude-code, auto, 152000 tokens before) lost 1 of 1 invariants
	// lost:
	//   no-force-push · constraint · project · seq 1 · no clause of text restates the rule from #1 (never\W+run\W+git push --force) (decided by statement)
	//       user at seq 1: "Never run git push --force on this repository."
	// compression: 46 summary tokens / 152000 before the compaction (the log's count) = 0.000
	//
	// compact-eval guard checked the summary of this session's compaction (after seq 4) against the history it replaced. The summary lost what follows, which still holds, as the session's own events say:
	// 1. A rule still in force (the user, seq 1): "Never run git push --force on this repository."
}

// Check a summary given apart from the log, here a structured one, at the
// boundary its covers_through names.
func ExampleSession_NewBoundary() {
	s, _ := guard.Read(strings.NewReader(claudeLog), guard.ReadOptions{Name: "session.jsonl"})
	inv, _ := guard.ParseInvariants("invariants.yaml", []byte(projectInvariants))
	doc := `{"schema_version": 1, "covers_through": 4,
	  "constraints": [{"text": "Never run git push --force on this repository.", "source_seq": 1}],
	  "next_steps": ["round TestTotals to cents"]}`
	b, err := s.NewBoundary([]byte(doc), 0, "summary.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := guard.Check(s, b, guard.Options{Invariants: inv})
	fmt.Println(v.Status, v.Kept, "of", v.Kept+v.Lost+v.Uncertain)
	for _, f := range v.Findings {
		fmt.Println(f.Status, f.Invariant, f.DecidedBy)
	}
	// Output:
	// kept 1 of 1
	// kept no-force-push typed
}

// Answer Claude Code's SessionStart hook after a compaction: the lost rule
// goes back into the context as additionalContext.
func ExampleHook() {
	dir, _ := os.MkdirTemp("", "guard-example")
	defer os.RemoveAll(dir)
	os.WriteFile(dir+"/session.jsonl", []byte(claudeLog), 0o644)
	in, _ := guard.ReadHookInput(strings.NewReader(`{"session_id": "s", "transcript_path": "session.jsonl", "cwd": "` + dir + `",
	  "hook_event_name": "SessionStart", "source": "compact"}`))
	inv, _ := guard.ParseInvariants("invariants.yaml", []byte(projectInvariants))
	resp, err := guard.Hook(in, guard.HookOptions{Options: guard.Options{Invariants: inv}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.JSON.SystemMessage)
	fmt.Println(resp.JSON.HookSpecificOutput.HookEventName)
	fmt.Println(strings.Contains(resp.JSON.HookSpecificOutput.AdditionalContext, `"Never run git push --force on this repository."`))
	// Output:
	// compact-eval guard: the compaction after seq 4 (claude-code, auto, 152000 tokens before) lost 1 of 1 invariants; restated into the context
	// SessionStart
	// true
}
