package agents

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// recallHistory is a session whose first event holds the rule a probe
// needs; the summary (covering through 6) drops it from its prose.
var recallHistory = []scenarios.Event{
	{Seq: 1, Role: scenarios.RoleUser, Text: "Audit only: the repository is read-only, never push to main."},
	{Seq: 2, Role: scenarios.RoleAssistant, Text: "Understood, I will look at the billing module."},
	{Seq: 3, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: "c1", Name: "read_file", Args: map[string]any{"path": "billing/rates.go"}}},
	{Seq: 4, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: "c1", Status: "ok", Text: "const rate = 42"}},
	{Seq: 5, Role: scenarios.RoleAssistant, Text: "The rate table looks stale."},
	{Seq: 6, Role: scenarios.RoleUser, Text: "Check the invoices too."},
	{Seq: 7, Role: scenarios.RoleAssistant, Text: "Invoices look fine. A fix for the rate table is ready."},
}

var pushOptions = scenarios.Options{{Key: "push", Description: "push the fix to main"}, {Key: "hold", Description: "do not push; propose the fix in a note"}}
var pushRequires = []scenarios.Requirement{{Option: "hold", Patterns: []string{"read-only"}}}

func recallRequest(summary string, lim RecallLimits) *Request {
	req := refRequest(recallHistory[6:], pushOptions, pushRequires...)
	req.Arm = ArmRecall
	req.Probe.Question = "Should the fix be pushed to main now?"
	req.Context.Summary = []byte(summary)
	x := NewRecallIndex(recallHistory, func(s string) int { return len(strings.Fields(s)) })
	req.Recall = x.Store(req.Context.Summary, 6).Session(lim)
	return req
}

func kinds(calls []result.RecallCall) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.Kind)
	}
	return out
}

func TestReferenceRecallCitation(t *testing.T) {
	// The entry keeps a pointer, not the rule: following it recovers it.
	sum := `{"schema_version":1,"covers_through":6,"constraints":[{"text":"a rule about pushing to main","source_seq":1}],"decisions":[{"text":"look at invoices","source_seq":6}]}`
	d, err := Reference{}.Decide(context.Background(), recallRequest(sum, RecallLimits{}))
	if err != nil {
		t.Fatal(err)
	}
	want := []result.RecallCall{{Kind: result.RecallBySeq, Seqs: []int{1}, Returned: []int{1}, Tokens: 12}}
	if d.Choice != "hold" || !cmp.Equal(d.RecallCalls, want) {
		t.Errorf("choice %q, calls %s; want hold after one call by seq: %s", d.Choice, cmp.Diff(want, d.RecallCalls), d.Reason)
	}
}

func TestReferenceRecallSearch(t *testing.T) {
	// No citation on the subject: the probe's own words find the event.
	sum := `{"schema_version":1,"covers_through":6,"text":"Looked at billing and invoices; a fix is ready."}`
	d, err := Reference{}.Decide(context.Background(), recallRequest(sum, RecallLimits{}))
	if err != nil {
		t.Fatal(err)
	}
	if d.Choice != "hold" || !cmp.Equal(kinds(d.RecallCalls), []string{result.RecallBySearch}) || d.RecallCalls[0].Returned[0] != 1 {
		t.Errorf("choice %q, calls %+v; want hold after one search returning #1 first", d.Choice, d.RecallCalls)
	}
	if q := d.RecallCalls[0].Query; q != "Should the fix be pushed to main now?" {
		t.Errorf("query %q, want the probe's question", q)
	}
}

func TestReferenceRecallBudgetSpent(t *testing.T) {
	// Citations on the subject that hold nothing use the only call: the
	// search never happens and the regression stays.
	sum := `{"schema_version":1,"covers_through":6,"decisions":[{"text":"push the rate fix to main later","source_seq":5}],"text":"fix ready"}`
	d, err := Reference{}.Decide(context.Background(), recallRequest(sum, RecallLimits{Calls: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if d.Choice != "push" || !cmp.Equal(kinds(d.RecallCalls), []string{result.RecallBySeq}) {
		t.Errorf("choice %q, calls %+v; want push after one call by seq", d.Choice, d.RecallCalls)
	}
	// with a second call, the search recovers it
	d, _ = Reference{}.Decide(context.Background(), recallRequest(sum, RecallLimits{Calls: 2}))
	if d.Choice != "hold" || !cmp.Equal(kinds(d.RecallCalls), []string{result.RecallBySeq, result.RecallBySearch}) {
		t.Errorf("budget 2: choice %q, calls %+v; want hold after seq then search", d.Choice, d.RecallCalls)
	}
}

func TestReferenceRecallSettledCallsNothing(t *testing.T) {
	sum := `{"schema_version":1,"covers_through":6,"constraints":[{"text":"read-only audit","source_seq":1}]}`
	d, err := Reference{}.Decide(context.Background(), recallRequest(sum, RecallLimits{}))
	if err != nil || d.Choice != "hold" || len(d.RecallCalls) != 0 {
		t.Errorf("got %q, calls %+v, err %v; want hold with no call (the summary settles it)", d.Choice, d.RecallCalls, err)
	}
}

func TestRecallCapsAndMissing(t *testing.T) {
	x := NewRecallIndex(recallHistory, func(s string) int { return len(strings.Fields(s)) })
	s := x.Store(nil, 6)
	r := s.Session(RecallLimits{Calls: 3, Events: 2, Tokens: 1000})
	got, err := r.Get([]int{2, 9, 7, 1, 5})
	if err != nil {
		t.Fatal(err)
	}
	// 7 is after the coverage (in context, not stored), 9 no event; the
	// cap of 2 events withholds 5.
	want := result.RecallCall{Kind: result.RecallBySeq, Seqs: []int{2, 9, 7, 1, 5}, Returned: []int{2, 1}, Missing: []int{9, 7}, Withheld: []int{5}, Tokens: 22}
	if len(got) != 2 || !cmp.Equal(r.Calls()[0], want) {
		t.Errorf("calls: %s", cmp.Diff(want, r.Calls()[0]))
	}
	// a search skips what the session already returned, and the token cap
	// withholds an event too large for what is left
	r2 := s.Session(RecallLimits{Calls: 3, Events: 5, Tokens: 12})
	if _, err := r2.Search("read-only push main"); err != nil {
		t.Fatal(err)
	}
	if c := r2.Calls()[0]; !cmp.Equal(c.Returned, []int{1}) || c.Tokens != 12 {
		t.Errorf("search: %+v, want #1 alone (12 tokens)", c)
	}
	if got, _ := r2.Search("read-only push main"); len(got) != 0 {
		t.Errorf("second search returned %v again", got)
	}
	if _, err := r2.Search("  ?? "); err == nil || r2.Left() != 1 {
		t.Errorf("an empty query: err %v, %d left; want an error that costs no call", err, r2.Left())
	}
	r2.Get([]int{1})
	if _, err := r2.Get([]int{2}); err != ErrRecallBudget {
		t.Errorf("a call past the budget: %v, want ErrRecallBudget", err)
	}
	if c := r2.Calls(); c[len(c)-1].Error == "" || len(c) != 5 {
		t.Errorf("the refused call is not recorded with its error: %+v", c)
	}
}

func TestParseRecallLimits(t *testing.T) {
	for in, want := range map[string]RecallLimits{"2": {2, 5, 1500}, "3,1,200": {3, 1, 200}} {
		got, err := ParseRecallLimits(in)
		if err != nil || got != want {
			t.Errorf("%q: %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "1,2", "a", "1,2,-3"} {
		if _, err := ParseRecallLimits(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestCitations(t *testing.T) {
	raw := `{"schema_version":1,"covers_through":9,"constraints":[{"text":"A","source_seq":1}],"hypotheses":[{"claim":"B","source_seq":3,"status":"refuted","resolved_by":5}],"artifacts":[{"path":"x.go"}],"corrections":[{"value":"C","source_seq":7}]}`
	var seqs []int
	for _, c := range Citations([]byte(raw)) {
		seqs = append(seqs, c.Seq)
	}
	if !cmp.Equal(seqs, []int{1, 3, 5, 7}) {
		t.Errorf("citations %v, want 1 3 5 7", seqs)
	}
	if Citations([]byte(`{"text":`)) != nil {
		t.Error("a broken document cites something")
	}
}

func TestCitationFigures(t *testing.T) {
	x := NewRecallIndex(recallHistory, func(s string) int { return 1 })
	// #1 cited on its subject (evidence), #4 cited by an unrelated entry,
	// #99 no event; #6's invariant is not cited; #7's is not replaced.
	sum := `{"schema_version":1,"covers_through":6,"constraints":[{"text":"read-only, never push","source_seq":1}],"decisions":[{"text":"invoices are fine","source_seq":4},{"text":"x","source_seq":99}]}`
	got := x.CitationFigures([]byte(sum), 6, [][]int{{1}, {6}, {7}, {0, 1}})
	want := &result.CitationFigures{Evidence: 3, EvidenceCited: 2, Cited: 3, Dangling: 1, Irrelevant: 1}
	if !cmp.Equal(got, want) {
		t.Errorf("figures (-want +got):\n%s", cmp.Diff(want, got))
	}
}
