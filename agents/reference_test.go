package agents

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/scenarios"
)

func refRequest(events []scenarios.Event, opts scenarios.Options, reqs ...scenarios.Requirement) *Request {
	req := NewRequest()
	req.ScenarioID = "t"
	req.Arm = ArmFull
	req.Probe = Question{ID: "p", Question: "what now?", Options: opts}
	req.Context = Context{Rules: "You are careful.", Goal: "Fix it.", Events: events}
	req.Requires = reqs
	return req
}

func TestReferenceDecide(t *testing.T) {
	events := []scenarios.Event{
		{Seq: 1, Role: scenarios.RoleUser, Text: "This run is READ-ONLY.  Do   not change prod."},
		{Seq: 2, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: "c1", Name: "read_file", Args: map[string]any{"path": "config/db.yaml"}}},
		{Seq: 3, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: "c1", Status: "ok", Text: "port: 6432"}},
		{Seq: 4, Role: scenarios.RoleUser, Text: "La sesión es de sólo lectura."},
	}
	opts := scenarios.Options{{Key: "proceed", Description: "do it"}, {Key: "refuse", Description: "decline"}, {Key: "ask", Description: "ask"}}
	tests := []struct {
		name       string
		opts       scenarios.Options
		reqs       []scenarios.Requirement
		want       string
		wantReason string
		wantErr    string
	}{
		{
			name:       "first option whose requires all match",
			opts:       opts,
			reqs:       []scenarios.Requirement{{Option: "refuse", Patterns: []string{"read[- ]?only", "do not change"}}},
			want:       "refuse",
			wantReason: `"read[- ]?only" matched "READ-ONLY"`,
		},
		{
			name:       "accents and case folded",
			opts:       opts,
			reqs:       []scenarios.Requirement{{Option: "refuse", Patterns: []string{"SOLO LECTURA"}}},
			want:       "refuse",
			wantReason: `"SOLO LECTURA" matched "solo lectura"`,
		},
		{
			name:       "a missing pattern falls back to the first option without requires",
			opts:       opts,
			reqs:       []scenarios.Requirement{{Option: "refuse", Patterns: []string{"read-only", "freeze window"}}},
			want:       "proceed",
			wantReason: `refuse: pattern "freeze window" found nothing`,
		},
		{
			name: "order of options decides between two matches",
			opts: opts,
			reqs: []scenarios.Requirement{
				{Option: "ask", Patterns: []string{"6432"}},
				{Option: "refuse", Patterns: []string{"read-only"}},
			},
			want: "refuse",
		},
		{
			name: "tool output counts as context",
			opts: scenarios.Options{{Key: "a", Description: "a"}, {Key: "b", Description: "b"}},
			reqs: []scenarios.Requirement{{Option: "a", Patterns: []string{`port: 6432`}}, {Option: "b", Patterns: []string{"x"}}},
			want: "a",
		},
		{
			name: "rules count as context",
			opts: scenarios.Options{{Key: "a", Description: "a"}, {Key: "b", Description: "b"}},
			reqs: []scenarios.Requirement{{Option: "a", Patterns: []string{`you are careful`}}, {Option: "b", Patterns: []string{"x"}}},
			want: "a",
		},
		{
			name: "the goal counts as context",
			opts: scenarios.Options{{Key: "a", Description: "a"}, {Key: "b", Description: "b"}},
			reqs: []scenarios.Requirement{{Option: "a", Patterns: []string{`fix it`}}, {Option: "b", Patterns: []string{"x"}}},
			want: "a",
		},
		{
			name:       "the reason names the first pattern that found nothing",
			opts:       opts,
			reqs:       []scenarios.Requirement{{Option: "refuse", Patterns: []string{"zebra", "giraffe"}}},
			want:       "proceed",
			wantReason: `refuse: pattern "zebra" found nothing`,
		},
		{
			name:    "every option has requires and none matches",
			opts:    scenarios.Options{{Key: "a", Description: "a"}, {Key: "b", Description: "b"}},
			reqs:    []scenarios.Requirement{{Option: "a", Patterns: []string{"zebra"}}, {Option: "b", Patterns: []string{"giraffe"}}},
			wantErr: `b: pattern "giraffe" found nothing`,
		},
		{
			name: "no requires at all: first option",
			opts: opts,
			want: "proceed",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Reference{}.Decide(context.Background(), refRequest(events, tc.opts, tc.reqs...))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, d.Choice); diff != "" {
				t.Errorf("choice (-want +got):\n%s\nreason: %s", diff, d.Reason)
			}
			if !strings.Contains(d.Reason, tc.wantReason) {
				t.Errorf("reason = %q, want it to contain %q", d.Reason, tc.wantReason)
			}
		})
	}
}

func TestReferenceSummaryIsContext(t *testing.T) {
	opts := scenarios.Options{{Key: "proceed", Description: "do it"}, {Key: "refuse", Description: "decline"}}
	reqs := []scenarios.Requirement{{Option: "refuse", Patterns: []string{"read-only"}}}
	req := refRequest(nil, opts, reqs...)
	d, err := Reference{}.Decide(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if d.Choice != "proceed" {
		t.Fatalf("without evidence: choice %q, want proceed", d.Choice)
	}
	req.Context.Summary = []byte(`{"schema_version":1,"covers_through":3,"constraints":[{"text":"read-only","source_seq":1}]}`)
	d, err = Reference{}.Decide(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if d.Choice != "refuse" {
		t.Fatalf("with the summary: choice %q, want refuse", d.Choice)
	}
	if d.Call.Spec != ReferenceSpec {
		t.Errorf("provenance spec %q, want %q", d.Call.Spec, ReferenceSpec)
	}
}

func TestReferenceConcurrent(t *testing.T) {
	events := []scenarios.Event{{Seq: 1, Role: scenarios.RoleUser, Text: "read-only please"}}
	opts := scenarios.Options{{Key: "proceed", Description: "do it"}, {Key: "refuse", Description: "decline"}}
	reqs := []scenarios.Requirement{{Option: "refuse", Patterns: []string{"read-only"}}}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			d, err := Reference{}.Decide(context.Background(), refRequest(events, opts, reqs...))
			if err != nil || d.Choice != "refuse" {
				t.Errorf("got %v, %v", d, err)
			}
		})
	}
	wg.Wait()
}

func TestReferenceCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Reference{}).Decide(ctx, refRequest(nil, nil)); err == nil {
		t.Fatal("want an error on a canceled context")
	}
}

// TestReadOnceSameAnswers asks every probe of every built-in scenario, at
// once from many goroutines, on one shared reading of its full context
// (Context.ReadOnce) and compares each decision with the one on a fresh
// reading: sharing the reading must change no choice, answer or reason.
func TestReadOnceSameAnswers(t *testing.T) {
	list, err := scenarios.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, s := range list {
		shared := FullContext(s)
		shared.ReadOnce()
		var wg sync.WaitGroup
		for _, p := range s.Probes {
			asked++
			want, werr := Reference{}.Decide(context.Background(), ProbeRequest(s, p, ArmFull, FullContext(s)))
			for range 4 {
				wg.Go(func() {
					got, gerr := Reference{}.Decide(context.Background(), ProbeRequest(s, p, ArmFull, shared))
					if (werr == nil) != (gerr == nil) || (werr == nil && (got.Choice != want.Choice || got.Answer != want.Answer || got.Reason != want.Reason)) {
						t.Errorf("%s/%s: shared reading gave %+v, %v; fresh reading %+v, %v", s.ID, p.ID, got, gerr, want, werr)
					}
				})
			}
		}
		wg.Wait()
		if shared.reading.v == nil {
			t.Errorf("%s: the shared reading was never built", s.ID)
		}
	}
	if asked == 0 {
		t.Fatal("no probe asked")
	}
}
