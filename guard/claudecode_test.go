package guard_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/guard"
)

const hookRules = `version: 1
invariants:
  - {id: no-force-push, type: constraint, match: ['never\W+run\W+git push --force']}
  - {id: prod-db, type: constraint, match: ['do not touch the prod database']}
`

// hookCall runs guard.Hook on a payload whose transcript is a copy of a
// fixture in a temporary folder, named relative to the payload's cwd.
func hookCall(t *testing.T, log string, payload map[string]any, opts guard.HookOptions) *guard.HookResponse {
	t.Helper()
	data, err := os.ReadFile(fixture(t, log))
	if err != nil {
		t.Fatal(err)
	}
	return hookCallText(t, string(data), payload, opts)
}

// hookCallText is hookCall on a transcript given as text.
func hookCallText(t *testing.T, data string, payload map[string]any, opts guard.HookOptions) *guard.HookResponse {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "transcript.jsonl"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	payload["session_id"], payload["transcript_path"], payload["cwd"] = "9f1c2d3e-billing", "transcript.jsonl", dir
	raw, _ := json.Marshal(payload)
	in, err := guard.ReadHookInput(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	if opts.Invariants == nil {
		opts.Invariants = invariants(t, hookRules)
	}
	resp, err := guard.Hook(in, opts)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestHookSessionStart(t *testing.T) {
	start := func() map[string]any { return map[string]any{"hook_event_name": "SessionStart", "source": "compact"} }

	t.Run("lost rule restated into the context", func(t *testing.T) {
		resp := hookCall(t, "claude-code_dropped_rule.jsonl", start(), guard.HookOptions{})
		out := resp.JSON
		if out == nil || out.HookSpecificOutput == nil {
			t.Fatalf("no hookSpecificOutput: %+v", resp)
		}
		if out.HookSpecificOutput.HookEventName != "SessionStart" {
			t.Errorf("hookEventName %q", out.HookSpecificOutput.HookEventName)
		}
		ctx := out.HookSpecificOutput.AdditionalContext
		for _, want := range []string{"after seq 19", `(the user, seq 1): "Never run git push --force on this repository, and do not touch the prod database: use the staging replica only."`} {
			if !strings.Contains(ctx, want) {
				t.Errorf("additionalContext lacks %q:\n%s", want, ctx)
			}
		}
		if strings.Count(ctx, "Never run git push") != 1 {
			t.Errorf("one sentence lost by two invariants is restated once:\n%s", ctx)
		}
		if out.Continue != nil {
			t.Errorf("continue set without --block")
		}
		if !strings.Contains(out.SystemMessage, "lost 2 of 2 invariants") {
			t.Errorf("systemMessage %q", out.SystemMessage)
		}
	})
	t.Run("block stops the session on a loss", func(t *testing.T) {
		resp := hookCall(t, "claude-code_dropped_rule.jsonl", start(), guard.HookOptions{Block: true})
		if resp.JSON == nil || resp.JSON.Continue == nil || *resp.JSON.Continue || !strings.Contains(resp.JSON.StopReason, "lost 2 of 2") {
			t.Errorf("want continue false with the reason: %+v", resp.JSON)
		}
	})
	t.Run("a faithful compaction prints nothing", func(t *testing.T) {
		resp := hookCall(t, "claude-code_compactions.jsonl", start(), guard.HookOptions{Block: true})
		if resp.JSON != nil || resp.Text != "" || resp.Verdict.Status != guard.Kept {
			t.Errorf("want no output and a kept verdict: %+v", resp)
		}
	})
	t.Run("another source is not a compaction", func(t *testing.T) {
		p := start()
		p["source"] = "resume"
		resp := hookCall(t, "claude-code_dropped_rule.jsonl", p, guard.HookOptions{})
		if resp.JSON != nil || resp.Verdict != nil || !strings.Contains(resp.Note, `"resume"`) {
			t.Errorf("%+v", resp)
		}
	})
	t.Run("nothing checked: the user is told, the context untouched", func(t *testing.T) {
		none := invariants(t, "version: 1\ninvariants: []\n")
		for _, failUncertain := range []bool{false, true} {
			resp := hookCall(t, "claude-code_dropped_rule.jsonl", start(), guard.HookOptions{Options: guard.Options{Invariants: none}, Block: true, FailUncertain: failUncertain})
			out := resp.JSON
			if resp.Verdict.Status != guard.Uncertain || out == nil || out.HookSpecificOutput != nil {
				t.Fatalf("want an uncertain verdict told to the user alone: %+v", resp)
			}
			if !strings.Contains(out.SystemMessage, "nothing was checked") || !strings.Contains(out.SystemMessage, guard.DefaultInvariantsFile) {
				t.Errorf("systemMessage %q", out.SystemMessage)
			}
			if stopped := out.Continue != nil; stopped != failUncertain || strings.Contains(out.StopReason, "restated") {
				t.Errorf("fail-uncertain %v: stopped %v (%q)", failUncertain, stopped, out.StopReason)
			}
		}
	})
	t.Run("a compaction the transcript does not record is told, never a pass", func(t *testing.T) {
		resp := hookCall(t, "claude-code_queued.jsonl", start(), guard.HookOptions{Block: true})
		if resp.JSON == nil || !strings.Contains(resp.JSON.SystemMessage, "the transcript records none: nothing was checked") || resp.JSON.Continue != nil || resp.JSON.HookSpecificOutput != nil {
			t.Errorf("%+v", resp.JSON)
		}
	})
	t.Run("uncertain stops only with fail-uncertain", func(t *testing.T) {
		// the summary keeps the rule under a condition the user never gave
		log := strings.Replace(claudeLog, "next, round to cents and push the fix.", "if CI is red, never run git push --force.", 1)
		for _, failUncertain := range []bool{false, true} {
			resp := hookCallText(t, log, start(), guard.HookOptions{Block: true, FailUncertain: failUncertain})
			if resp.Verdict.Status != guard.Uncertain {
				t.Fatalf("verdict %s (%s), want uncertain", resp.Verdict.Status, resp.Verdict.Reason)
			}
			if resp.JSON == nil || !strings.Contains(resp.JSON.HookSpecificOutput.AdditionalContext, "may not keep these") {
				t.Errorf("an uncertain invariant is restated too: %+v", resp.JSON)
			}
			if stopped := resp.JSON != nil && resp.JSON.Continue != nil; stopped != failUncertain {
				t.Errorf("fail-uncertain %v: stopped %v", failUncertain, stopped)
			}
		}
	})
}

func TestHookPreAndPostCompact(t *testing.T) {
	t.Run("PreCompact asks the compaction to keep the rules", func(t *testing.T) {
		resp := hookCall(t, "claude-code_dropped_rule.jsonl", map[string]any{"hook_event_name": "PreCompact", "trigger": "auto", "custom_instructions": nil}, guard.HookOptions{Block: true})
		if resp.JSON != nil {
			t.Errorf("PreCompact never blocks nor prints JSON: %+v", resp.JSON)
		}
		if !strings.HasPrefix(resp.Text, "The summary must keep these facts of the history") || !strings.Contains(resp.Text, "Never run git push --force") {
			t.Errorf("instructions:\n%s", resp.Text)
		}
	})
	t.Run("PostCompact tells the user", func(t *testing.T) {
		data, _ := os.ReadFile(fixture(t, "claude-code_dropped_rule.jsonl"))
		var last string
		for _, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, `"isCompactSummary":true`) {
				var m struct {
					Message struct{ Content string } `json:"message"`
				}
				json.Unmarshal([]byte(line), &m)
				last = m.Message.Content
			}
		}
		resp := hookCall(t, "claude-code_dropped_rule.jsonl", map[string]any{"hook_event_name": "PostCompact", "trigger": "auto", "compact_summary": last}, guard.HookOptions{Block: true})
		if resp.JSON == nil || resp.JSON.HookSpecificOutput != nil || resp.JSON.Continue != nil {
			t.Fatalf("PostCompact: a systemMessage only: %+v", resp.JSON)
		}
		if !strings.Contains(resp.JSON.SystemMessage, "after seq 19") || resp.Verdict.Status != guard.Lost {
			t.Errorf("%+v", resp.JSON)
		}
	})
	t.Run("PostCompact before the transcript holds the compaction", func(t *testing.T) {
		resp := hookCall(t, "claude-code_dropped_rule.jsonl", map[string]any{"hook_event_name": "PostCompact", "trigger": "manual", "compact_summary": "Rules: never run git push --force; do not touch the prod database."}, guard.HookOptions{})
		if resp.Verdict == nil || resp.Verdict.Boundary != 21 || resp.Verdict.Status != guard.Kept {
			t.Errorf("want the new summary checked over the whole transcript (to seq 21) and kept: %+v", resp.Verdict)
		}
	})
	t.Run("an event the guard does not answer", func(t *testing.T) {
		resp := hookCall(t, "claude-code_dropped_rule.jsonl", map[string]any{"hook_event_name": "Stop"}, guard.HookOptions{})
		if resp.JSON != nil || resp.Text != "" || resp.Note == "" {
			t.Errorf("%+v", resp)
		}
	})
}

func TestReadHookInput(t *testing.T) {
	for _, bad := range []string{"", "[]", "{}", `{"hook_event_name": 3}`} {
		if _, err := guard.ReadHookInput(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	in, err := guard.ReadHookInput(strings.NewReader(`{"hook_event_name":"SessionStart","source":"compact","transcript_path":"t.jsonl","cwd":"/p","model":"x"}`))
	if err != nil || in.Transcript() != "/p/t.jsonl" {
		t.Errorf("%v %+v", err, in)
	}
}
