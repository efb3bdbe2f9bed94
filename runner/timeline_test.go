package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/summary"

	result "github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

// recorder is a summarizer that returns a tiny text summary and records
// every request it got.
type recorder struct {
	mu   sync.Mutex
	reqs []summarizers.Request
}

type seen struct {
	Gen      int
	Cut      int
	Seqs     []int
	Previous string
}

func (r *recorder) Summarize(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, *req)
	r.mu.Unlock()
	raw, _ := json.Marshal(summary.Summary{SchemaVersion: 1, CoversThrough: req.Cut, Text: fmt.Sprintf("summary %d", req.Generation)})
	return &summarizers.Response{Summary: raw}, nil
}

func (r *recorder) seen() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []seen
	for _, q := range r.reqs {
		s := seen{Gen: q.Generation, Cut: q.Cut, Previous: string(q.PreviousSummary)}
		for _, e := range q.Events {
			s.Seqs = append(s.Seqs, e.Seq)
		}
		out = append(out, s)
	}
	return out
}

// checkAll is a checks function that records its inputs and passes.
type checkAll struct {
	mu  sync.Mutex
	ins []checks.Input
}

func (c *checkAll) check(in *checks.Input) []result.CheckResult {
	c.mu.Lock()
	c.ins = append(c.ins, *in)
	c.mu.Unlock()
	return []result.CheckResult{{Check: "coverage", Kind: result.KindStructural, Status: result.Pass, Message: "ok"}}
}

func text(seq int, role scenarios.Role, s string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: role, Text: s}
}

func call(seq int, id string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: id, Name: "read_file", Args: map[string]any{"path": "config/db.yaml"}}}
}

func toolResult(seq int, id, status, s string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: id, Status: status, Text: s}}
}

// history is n events: user/assistant talk with a call/result pair at
// every seq divisible by 5 (call) and the next (result).
func history(n int) []scenarios.Event {
	var ev []scenarios.Event
	for seq := 1; seq <= n; seq++ {
		switch {
		case seq%5 == 0 && seq < n:
			ev = append(ev, call(seq, fmt.Sprintf("c%d", seq)))
		case seq%5 == 1 && seq > 1:
			ev = append(ev, toolResult(seq, fmt.Sprintf("c%d", seq-1), scenarios.StatusOK, fmt.Sprintf("port %d open, latency 12 ms", 5000+seq)))
		case seq%2 == 0:
			ev = append(ev, text(seq, scenarios.RoleAssistant, fmt.Sprintf("Looking at step %d of the investigation now.", seq)))
		default:
			ev = append(ev, text(seq, scenarios.RoleUser, fmt.Sprintf("Please continue with item %d; this is read-only.", seq)))
		}
	}
	return ev
}

func runOne(t *testing.T, sc *scenarios.Scenario, s summarizers.Summarizer, c *checkAll) result.Unit {
	t.Helper()
	if sc.ID == "" {
		sc.ID = "t"
	}
	p := prepare(sc, tokens.Default())
	u := &unit{p: p, spec: "test", sum: s, agent: agents.Reference{}, check: c.check, hard: context.Background(), now: time.Now}
	return u.run()
}

type genView struct {
	N         int
	Trigger   string
	Cut, From int
	ID, Base  string
	Installed bool
	Arrivals  []int
}

func views(u result.Unit) []genView {
	var out []genView
	for _, g := range u.Generations {
		out = append(out, genView{g.N, g.Trigger, g.Cut, g.From, g.SummaryID, g.BaseID, g.Installed, g.Arrivals})
	}
	return out
}

func seqs(from, to int) []int {
	var s []int
	for i := from; i <= to; i++ {
		s = append(s, i)
	}
	return s
}

func TestTimelineExplicit(t *testing.T) {
	tests := []struct {
		name     string
		sc       scenarios.Scenario
		want     []genView
		wantReqs []seen
		warnings int
	}{
		{
			name:     "cut inside a pair moves before the call",
			sc:       scenarios.Scenario{Events: history(12), Compaction: scenarios.Compaction{At: []int{5}}},
			want:     []genView{{N: 1, Trigger: "at:5", Cut: 4, From: 1, ID: "g1", Installed: true}},
			wantReqs: []seen{{Gen: 1, Cut: 4, Seqs: seqs(1, 4), Previous: ""}},
			warnings: 1,
		},
		{
			name:     "keep_recent larger than the history: no compaction",
			sc:       scenarios.Scenario{Events: history(6), Compaction: scenarios.Compaction{At: []int{3}, KeepRecent: 10}},
			warnings: 2,
		},
		{
			name:     "keep_recent moves the last cut",
			sc:       scenarios.Scenario{Events: history(12), Compaction: scenarios.Compaction{At: []int{12}, KeepRecent: 3}},
			want:     []genView{{N: 1, Trigger: "at:12", Cut: 9, From: 1, ID: "g1", Installed: true}},
			wantReqs: []seen{{Gen: 1, Cut: 9, Seqs: seqs(1, 9)}},
			warnings: 1,
		},
		{
			name: "three generations, iterative",
			sc:   scenarios.Scenario{Events: history(14), Compaction: scenarios.Compaction{At: []int{3, 7, 12}}},
			want: []genView{
				{N: 1, Trigger: "at:3", Cut: 3, From: 1, ID: "g1", Installed: true},
				{N: 2, Trigger: "at:7", Cut: 7, From: 4, ID: "g2", Base: "g1", Installed: true},
				{N: 3, Trigger: "at:12", Cut: 12, From: 8, ID: "g3", Base: "g2", Installed: true},
			},
			wantReqs: []seen{
				{Gen: 1, Cut: 3, Seqs: seqs(1, 3)},
				{Gen: 2, Cut: 7, Seqs: seqs(4, 7), Previous: `{"schema_version":1,"covers_through":3,"text":"summary 1"}`},
				{Gen: 3, Cut: 12, Seqs: seqs(8, 12), Previous: `{"schema_version":1,"covers_through":7,"text":"summary 2"}`},
			},
		},
		{
			name: "three generations, from source",
			sc:   scenarios.Scenario{Events: history(14), Compaction: scenarios.Compaction{At: []int{3, 7, 12}, Rebuild: scenarios.RebuildFromSource}},
			want: []genView{
				{N: 1, Trigger: "at:3", Cut: 3, From: 1, ID: "g1", Installed: true},
				{N: 2, Trigger: "at:7", Cut: 7, From: 1, ID: "g2", Base: "g1", Installed: true},
				{N: 3, Trigger: "at:12", Cut: 12, From: 1, ID: "g3", Base: "g2", Installed: true},
			},
			wantReqs: []seen{
				{Gen: 1, Cut: 3, Seqs: seqs(1, 3)},
				{Gen: 2, Cut: 7, Seqs: seqs(1, 7)},
				{Gen: 3, Cut: 12, Seqs: seqs(1, 12)},
			},
		},
		{
			name: "arrivals join the last generation",
			sc: scenarios.Scenario{Events: history(10), Compaction: scenarios.Compaction{At: []int{4, 8}},
				Arrivals: []scenarios.Event{text(11, scenarios.RoleUser, "Also check the TLS certificate."), text(12, scenarios.RoleUser, "And the DNS TTL.")}},
			want: []genView{
				{N: 1, Trigger: "at:4", Cut: 4, From: 1, ID: "g1", Installed: true},
				{N: 2, Trigger: "at:8", Cut: 8, From: 5, ID: "g2", Base: "g1", Installed: true, Arrivals: []int{11, 12}},
			},
			wantReqs: []seen{
				{Gen: 1, Cut: 4, Seqs: seqs(1, 4)},
				{Gen: 2, Cut: 8, Seqs: seqs(5, 8), Previous: `{"schema_version":1,"covers_through":4,"text":"summary 1"}`},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			u := runOne(t, &tc.sc, rec, &checkAll{})
			if diff := cmp.Diff(tc.want, views(u)); diff != "" {
				t.Errorf("generations (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantReqs, rec.seen()); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			// No compaction leaves a warning saying so.
			if got := len(u.Warnings); got != tc.warnings {
				t.Errorf("warnings = %d %q, want %d", got, u.Warnings, tc.warnings)
			}
			if u.Status != result.UnitOK {
				t.Errorf("status = %s (%s), want ok", u.Status, u.Error)
			}
		})
	}
}

func TestTimelineTail(t *testing.T) {
	sc := &scenarios.Scenario{Events: history(10), Compaction: scenarios.Compaction{At: []int{4, 8}},
		Arrivals: []scenarios.Event{text(11, scenarios.RoleUser, "Also check the TLS certificate.")}}
	c := &checkAll{}
	runOne(t, sc, &recorder{}, c)
	var got [][]int
	for _, in := range c.ins {
		var s []int
		for _, e := range in.Gen.Tail {
			s = append(s, e.Seq)
		}
		got = append(got, s)
	}
	want := [][]int{seqs(5, 10), seqs(9, 11)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("check tails (-want +got):\n%s", diff)
	}
	if c.ins[1].Gen.PrevCoversThrough != 4 || c.ins[1].Gen.Previous == nil || c.ins[1].Gen.Previous.Text != "summary 1" {
		t.Errorf("generation 2 previous = %d %+v, want coverage 4 and summary 1", c.ins[1].Gen.PrevCoversThrough, c.ins[1].Gen.Previous)
	}
}

func TestTimelineTokens(t *testing.T) {
	tests := []struct {
		name    string
		sc      scenarios.Scenario
		minGens int
		maxGens int
	}{
		{"threshold never reached", scenarios.Scenario{Events: history(40), Compaction: scenarios.Compaction{ThresholdTokens: 1_000_000}}, 0, 0},
		{"default 50,000 never reached", scenarios.Scenario{Events: history(40)}, 0, 0},
		{"threshold tokens", scenarios.Scenario{Events: history(60), Compaction: scenarios.Compaction{ThresholdTokens: 200, ReserveTokens: 20, KeepRecent: 2}}, 2, 60},
		{"fraction of the window", scenarios.Scenario{Events: history(60), ContextWindow: 400, Compaction: scenarios.Compaction{ThresholdFraction: 0.5, KeepRecent: 3}}, 2, 60},
		{"80% of the window", scenarios.Scenario{Events: history(60), ContextWindow: 400, Compaction: scenarios.Compaction{Rebuild: scenarios.RebuildFromSource}}, 2, 60},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := &tc.sc
			u := runOne(t, sc, &recorder{}, &checkAll{})
			if n := len(u.Generations); n < tc.minGens || n > tc.maxGens {
				t.Fatalf("%d generations, want %d..%d", n, tc.minGens, tc.maxGens)
			}
			if len(u.Generations) == 0 {
				if len(u.Warnings) != 1 {
					t.Errorf("warnings = %q, want one saying no compaction happened", u.Warnings)
				}
				return
			}
			p := prepare(sc, tokens.Default())
			threshold := Threshold(sc)
			prev := 0
			for _, g := range u.Generations {
				if g.TokensBefore+sc.Compaction.ReserveTokens < threshold {
					t.Errorf("g%d: tokens before %d + reserve %d < threshold %d", g.N, g.TokensBefore, sc.Compaction.ReserveTokens, threshold)
				}
				if !g.Installed || g.Cut <= prev {
					t.Errorf("g%d: cut %d after %d, installed %v (%s)", g.N, g.Cut, prev, g.Installed, g.InstallError)
				}
				if i := p.indexOf(g.Cut); !p.safe[i] {
					t.Errorf("g%d: cut %d splits a protocol unit", g.N, g.Cut)
				}
				if g.TokensAfter >= g.TokensBefore {
					t.Errorf("g%d: tokens after %d ≥ before %d", g.N, g.TokensAfter, g.TokensBefore)
				}
				prev = g.Cut
			}
		})
	}
}

func TestThreshold(t *testing.T) {
	tests := []struct {
		name string
		sc   scenarios.Scenario
		want int
	}{
		{"explicit", scenarios.Scenario{ContextWindow: 1000, Compaction: scenarios.Compaction{ThresholdTokens: 123, ThresholdFraction: 0.5}}, 123},
		{"fraction", scenarios.Scenario{ContextWindow: 1000, Compaction: scenarios.Compaction{ThresholdFraction: 0.5}}, 500},
		{"80 percent", scenarios.Scenario{ContextWindow: 1000}, 800},
		{"unknown window", scenarios.Scenario{}, 50000},
		{"fraction without a window", scenarios.Scenario{Compaction: scenarios.Compaction{ThresholdFraction: 0.5}}, 50000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Threshold(&tc.sc); got != tc.want {
				t.Errorf("Threshold = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestInstallRace is the seed's interleaving: the active summary covers 2;
// A prepares up to 4 and B up to 3 on that base; 5 arrives; A installs and
// B is refused because its base is no longer active.
func TestInstallRace(t *testing.T) {
	a := NewActive(nil)
	if err := a.Install(Installed{ID: "g1", CoversThrough: 2, Summary: json.RawMessage(`{"text":"read-only"}`)}); err != nil {
		t.Fatal(err)
	}
	base := a.Current()
	candA := Installed{ID: "a", BaseID: base.ID, CoversThrough: 4}
	candB := Installed{ID: "b", BaseID: base.ID, CoversThrough: 3}
	if err := a.Install(candA); err != nil {
		t.Fatalf("A: %v", err)
	}
	err := a.Install(candB)
	if !errors.Is(err, ErrStaleBase) {
		t.Fatalf("B: err = %v, want ErrStaleBase", err)
	}
	if got := a.Current(); got.ID != "a" || got.CoversThrough != 4 {
		t.Errorf("active = %+v, want a through 4", got)
	}
	if got := len(a.Versions()); got != 3 {
		t.Errorf("%d versions, want 3 (base, g1, a): nothing is removed", got)
	}
}

func TestInstallRefusals(t *testing.T) {
	boundary := func(seq int) error {
		if seq == 5 {
			return fmt.Errorf("seq 5 splits a pair: %w", ErrBoundary)
		}
		return nil
	}
	tests := []struct {
		name string
		c    Installed
		want error
	}{
		{"extends", Installed{ID: "g2", BaseID: "g1", CoversThrough: 6}, nil},
		{"same coverage", Installed{ID: "g2", BaseID: "g1", CoversThrough: 4}, ErrCoverage},
		{"older coverage", Installed{ID: "g2", BaseID: "g1", CoversThrough: 3}, ErrCoverage},
		{"unsafe boundary", Installed{ID: "g2", BaseID: "g1", CoversThrough: 5}, ErrBoundary},
		{"unknown base", Installed{ID: "g2", BaseID: "g0", CoversThrough: 6}, ErrStaleBase},
		{"no base", Installed{ID: "g2", CoversThrough: 6}, ErrStaleBase},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := NewActive(boundary)
			if err := a.Install(Installed{ID: "g1", CoversThrough: 4}); err != nil {
				t.Fatal(err)
			}
			err := a.Install(tc.c)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			want := "g1"
			if tc.want == nil {
				want = "g2"
			}
			if got := a.Current().ID; got != want {
				t.Errorf("active = %s, want %s", got, want)
			}
		})
	}
}

func TestSafeBoundaries(t *testing.T) {
	ev := []scenarios.Event{
		text(1, scenarios.RoleUser, "go"),
		call(2, "a"), call(3, "b"),
		toolResult(4, "a", "ok", "x"), toolResult(5, "b", "ok", "y"),
		call(6, "never"), // no result: does not block
		text(7, scenarios.RoleAssistant, "done"),
	}
	got := safeBoundaries(ev)
	want := []bool{true, false, false, false, true, true, true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("safe (-want +got):\n%s", diff)
	}
}

// TestTimelineThrash: a summary that frees almost nothing stops token
// compaction after its generation instead of compacting at every event.
func TestTimelineThrash(t *testing.T) {
	sc := &scenarios.Scenario{Events: history(80), Compaction: scenarios.Compaction{ThresholdTokens: 300}}
	verbose := summarizers.Func(func(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
		var b strings.Builder
		for _, e := range req.Events {
			b.WriteString(e.Text + " (kept verbatim, with a note) ")
		}
		raw, _ := json.Marshal(summary.Summary{SchemaVersion: 1, CoversThrough: req.Cut, Text: b.String()})
		return &summarizers.Response{Summary: raw}, nil
	})
	u := runOne(t, sc, verbose, &checkAll{})
	if len(u.Generations) != 1 {
		t.Fatalf("%d generations, want 1", len(u.Generations))
	}
	if len(u.Warnings) != 1 || !strings.Contains(u.Warnings[0], "compaction stopped (it would thrash)") {
		t.Errorf("warnings = %q", u.Warnings)
	}
}
