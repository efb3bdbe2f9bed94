package summarizers

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

func ev(seq int, role scenarios.Role, text string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: role, Text: text}
}

func evCall(seq int, id, name string, args map[string]any) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: id, Name: name, Args: args}}
}

func evResult(seq int, id, status, text string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: id, Status: status, Text: text}}
}

func request(cut int, prev json.RawMessage, events ...scenarios.Event) *Request {
	r := NewRequest()
	r.ScenarioID, r.Generation, r.Cut, r.Goal = "t", 1, cut, "find the db problem"
	r.PreviousSummary, r.Events, r.MaxRatio = prev, events, 0.5
	return r
}

func summarize(t *testing.T, s Summarizer, req *Request) *summary.Summary {
	t.Helper()
	resp, err := s.Summarize(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if vs := summary.Validate(resp.Summary); len(vs) > 0 {
		t.Fatalf("summary does not validate: %v\n%s", vs, resp.Summary)
	}
	var sum summary.Summary
	if err := json.Unmarshal(resp.Summary, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.CoversThrough != req.Cut {
		t.Errorf("covers_through = %d, want the cut %d", sum.CoversThrough, req.Cut)
	}
	again, _ := s.Summarize(context.Background(), req)
	if string(again.Summary) != string(resp.Summary) {
		t.Errorf("not deterministic:\n%s\n%s", resp.Summary, again.Summary)
	}
	return &sum
}

func TestNewBuiltin(t *testing.T) {
	for _, name := range Builtins {
		if s, err := NewBuiltin(name); err != nil || s == nil {
			t.Errorf("NewBuiltin(%q) = %v, %v", name, s, err)
		}
	}
	_, err := NewBuiltin("magic")
	if err == nil || !strings.Contains(err.Error(), "valid: none, truncate, mask, extractive") {
		t.Errorf("unknown name: err = %v, want the valid names", err)
	}
}

func TestNone(t *testing.T) {
	resp, err := NewNone().Summarize(context.Background(), request(2, nil, ev(1, "user", "hi"), ev(2, "assistant", "hello")))
	if err != nil || !resp.NoCompaction || resp.Summary != nil {
		t.Errorf("none = %+v, %v; want NoCompaction and no summary", resp, err)
	}
}

// longHistory is a read-only instruction then n filler turns.
func longHistory(n int) []scenarios.Event {
	events := []scenarios.Event{ev(1, "user", "This investigation is READ-ONLY. Do not change prod.")}
	for i := 2; i <= n; i++ {
		events = append(events, ev(i, "assistant", fmt.Sprintf("Step %d: the pool on db-%d still shows the same checkout timeouts as before.", i, i)))
	}
	return events
}

func TestTruncate(t *testing.T) {
	counter := tokens.Default()
	tests := []struct {
		name       string
		req        *Request
		wantFirst  bool // the first event (the constraint) survives
		wantLastOf int  // seq of the newest event, which must survive
	}{
		{"generous budget keeps everything", func() *Request {
			r := request(3, nil, longHistory(3)...)
			r.ReplacedTokens = 10000
			return r
		}(), true, 3},
		{"long history loses the start", request(60, nil, longHistory(60)...), false, 60},
		{"known replaced tokens", func() *Request {
			r := request(60, nil, longHistory(60)...)
			r.ReplacedTokens = counter.Count(transcript.EventsText(r.Events))
			return r
		}(), false, 60},
		{"iterative: previous text goes first", request(60, json.RawMessage(`{"schema_version":1,"covers_through":1,"text":"[#1 user] This investigation is READ-ONLY."}`), longHistory(60)[1:]...), false, 60},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := summarize(t, NewTruncate(), tc.req)
			if !s.TextOnly() {
				t.Errorf("truncate wrote structured fields: %+v", s)
			}
			if got := strings.Contains(s.Text, "READ-ONLY"); got != tc.wantFirst {
				t.Errorf("constraint kept = %v, want %v:\n%s", got, tc.wantFirst, s.Text)
			}
			if !strings.Contains(s.Text, fmt.Sprintf("[#%d ", tc.wantLastOf)) {
				t.Errorf("newest event #%d dropped:\n%s", tc.wantLastOf, s.Text)
			}
			raw, _ := json.Marshal(s)
			replaced := counter.Count(transcript.EventsText(tc.req.Events))
			if len(tc.req.PreviousSummary) > 0 {
				replaced += 20
			}
			if got := counter.Count(string(raw)); tc.req.ReplacedTokens != 10000 && float64(got) > 0.5*float64(replaced) {
				t.Errorf("summary %d tokens > 0.5 × %d replaced", got, replaced)
			}
		})
	}
}

// TestTruncateBudget: the budget follows MaxRatio (0 means 0.5) and, in
// iterative mode, adds the previous summary's size: a large previous summary
// and two short new events leave room for the new events.
func TestTruncateBudget(t *testing.T) {
	counter := tokens.Default()
	for _, tc := range []struct {
		name      string
		ratio     float64
		wantRatio float64
	}{
		{"default ratio", 0, 0.5},
		{"quarter", 0.25, 0.25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := request(60, nil, longHistory(60)...)
			r.MaxRatio = tc.ratio
			raw, _ := json.Marshal(summarize(t, NewTruncate(), r))
			replaced := counter.Count(transcript.EventsText(r.Events))
			got := float64(counter.Count(string(raw)))
			if got > tc.wantRatio*float64(replaced) || got < 0.5*tc.wantRatio*float64(replaced) {
				t.Errorf("summary %v tokens for %d replaced; want at most %v × and more than half of that", got, replaced, tc.wantRatio)
			}
		})
	}
	t.Run("iterative: previous size counts", func(t *testing.T) {
		var prev []string
		for i := 1; i <= 40; i++ {
			prev = append(prev, fmt.Sprintf("[#%d assistant] Step %d: the pool on db-%d still shows the same checkout timeouts.", i, i, i))
		}
		doc, _ := json.Marshal(summary.Summary{SchemaVersion: 1, CoversThrough: 40, Text: strings.Join(prev, "\n")})
		r := request(42, doc, ev(41, "assistant", "Checked db-41."), ev(42, "user", "Thanks."))
		s := summarize(t, NewTruncate(), r)
		if !strings.Contains(s.Text, "[#41 ") || !strings.Contains(s.Text, "[#42 ") {
			t.Errorf("the new events were dropped:\n%s", s.Text)
		}
	})
}

func TestMask(t *testing.T) {
	req := request(6, json.RawMessage(`{"schema_version":1,"covers_through":0,"text":"earlier: the user wants read-only"}`),
		ev(1, "user", "Check config/db.yaml, read-only please."),
		evCall(2, "c1", "read_file", map[string]any{"path": "config/db.yaml"}),
		evResult(3, "c1", "ok", "port: 6432 password: hunter2"),
		evCall(4, "c2", "migrate", nil),
		evResult(5, "c2", "timeout", "no answer after 30 s"),
		ev(6, "assistant", "The port is 6432."),
	)
	s := summarize(t, NewMask(), req)
	want := strings.Join([]string{
		"earlier: the user wants read-only",
		"[#1 user] Check config/db.yaml, read-only please.",
		`[#2 assistant call c1] read_file({"path":"config/db.yaml"})`,
		"[#3 tool c1] " + Masked,
		"[#4 assistant call c2] migrate({})",
		"[#5 tool c2] [timeout] " + Masked,
		"[#6 assistant] The port is 6432.",
	}, "\n")
	if diff := cmp.Diff(want, s.Text); diff != "" {
		t.Errorf("mask text (-want +got):\n%s", diff)
	}
	if req.Events[2].ToolResult.Text != "port: 6432 password: hunter2" {
		t.Error("mask changed the request's events")
	}
}

func TestExtractive(t *testing.T) {
	events := []scenarios.Event{
		ev(1, "user", "This investigation is READ-ONLY. Do not restart anything. The API times out after 30 s."),
		ev(2, "assistant", "I will only read. I guess the pool is at 80 % usage."),
		evCall(3, "c1", "read_file", map[string]any{"path": "config/db.yaml"}),
		evResult(4, "c1", "ok", "config/db.yaml (sha256:abcdef1234567) says port 6432; max_connections 200 connections. See https://docs.example.com/pool/tuning.html"),
		evCall(5, "c2", "run_migration", map[string]any{"id": "m17"}),
		evCall(6, "c3", "tcp_probe", map[string]any{"host": "db"}),
		evResult(7, "c3", "timeout", "no answer"),
		evCall(8, "c4", "read_file", map[string]any{"path": "/var/log/pg/postgresql.log"}),
		evResult(9, "c4", "error", "permission denied"),
		ev(10, "tool", "ignored"),
		ev(11, "assistant", "Next I compare the configured port with the listener. Then I report."),
	}
	events[9] = ev(10, "user", "Only report, never apply.")
	req := request(11, nil, events...)
	req.ReplacedTokens = 10000 // a budget that binds nothing
	s := summarize(t, NewExtractive(), req)
	want := &summary.Summary{
		SchemaVersion: 1, CoversThrough: 11, Goal: "find the db problem",
		Constraints: []summary.Constraint{
			{Text: "This investigation is READ-ONLY", SourceSeq: 1},
			{Text: "Do not restart anything", SourceSeq: 1},
			{Text: "Only report, never apply", SourceSeq: 10},
		},
		Verified: []summary.Claim{
			{Claim: "The API times out after 30 s", SourceSeq: 1},
			{Claim: "max_connections 200 connections", SourceSeq: 4},
		},
		Pending: []summary.Pending{
			{OpID: "c2", Description: `run_migration{"id":"m17"}`, Status: summary.PendingUnknown, SourceSeq: 5},
			{OpID: "c3", Description: `tcp_probe{"host":"db"}`, Status: summary.PendingUnknown, SourceSeq: 6},
		},
		Artifacts: []summary.ArtifactRef{
			{Path: "config/db.yaml", Digest: "sha256:abcdef1234567", SourceSeq: 3},
			{Path: "/var/log/pg/postgresql.log", SourceSeq: 8},
		},
		Errors:    []summary.ErrorNote{{Text: "permission denied", Resolution: "unresolved", SourceSeq: 9}},
		NextSteps: []string{"Next I compare the configured port with the listener", "Then I report"},
		Text:      "Last user request (#10): Only report, never apply.\nThe assistant noted (unverified): I guess the pool is at 80 % usage",
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("extractive (-want +got):\n%s", diff)
	}

	// Iterative: the previous summary is kept, and a pending operation whose
	// result arrives is dropped.
	prev, _ := json.Marshal(s)
	req = request(14, prev,
		evResult(12, "c2", "ok", "migration m17 applied"),
		ev(13, "user", "Thanks."),
		ev(14, "assistant", "Done."),
	)
	req.ReplacedTokens = 10000
	next := summarize(t, NewExtractive(), req)
	var ops []string
	for _, p := range next.Pending {
		ops = append(ops, p.OpID)
	}
	if diff := cmp.Diff([]string{"c3"}, ops); diff != "" {
		t.Errorf("pending after c2's result (-want +got):\n%s", diff)
	}
	if len(next.Constraints) != 3 || len(next.Artifacts) != 2 {
		t.Errorf("previous constraints/artifacts lost: %+v", next)
	}
}

func TestExtractiveBudget(t *testing.T) {
	var events []scenarios.Event
	for i := 1; i <= 200; i++ {
		events = append(events, evResult(i, fmt.Sprintf("c%d", i), "ok", fmt.Sprintf("latency %d ms on shard %d", i, i)))
	}
	req := request(200, nil, events...)
	req.ReplacedTokens = 1500
	s := summarize(t, NewExtractive(), req)
	raw, _ := json.Marshal(s)
	if n := tokens.Default().Count(string(raw)); n > 750 {
		t.Errorf("summary %d tokens > budget 0.5 × 1500", n)
	}
	if len(s.Verified) == 0 || s.Verified[len(s.Verified)-1].SourceSeq != 200 {
		t.Errorf("the newest verified claims should be kept: %+v", s.Verified)
	}
}
