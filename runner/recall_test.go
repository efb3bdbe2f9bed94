package runner

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
	"github.com/compact-eval/compact-eval/summary"
)

// pointers is a summarizer that keeps pointers rather than prose: one
// decision entry per covered user message, holding only its first ten
// plain words (no figure, path, name with a dot or an underscore: every
// detail goes) and citing its seq. It drops the details of every
// instruction from its prose and keeps the way back to them.
func pointers() Summarizer {
	return Summarizer{Name: "pointers", Summarizer: summarizers.Func(func(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
		s := summary.Summary{SchemaVersion: 1, CoversThrough: req.Cut, Text: "pointers to the session's user messages"}
		for _, e := range req.Events {
			if e.Role == "user" {
				var w []string
				for _, f := range strings.Fields(e.Text) {
					if !strings.ContainsAny(f, "0123456789/._-@") && len(w) < 10 {
						w = append(w, f)
					}
				}
				s.Decisions = append(s.Decisions, summary.Statement{Text: strings.Join(w, " "), SourceSeq: e.Seq})
			}
		}
		raw, err := json.Marshal(s)
		return &summarizers.Response{Summary: raw}, err
	})}
}

// TestRecallArm runs the built-in suite with the recall arm: truncate
// and mask lose facts the search gets back, a summarizer that cites every
// entry gets back by citation what its prose dropped, the figures add up,
// and -j 1 and -j 8 write the same bytes.
func TestRecallArm(t *testing.T) {
	more, err := scenarios.BuiltinRecall()
	if err != nil || len(more) < 2 {
		t.Fatalf("the recall scenarios: %d, %v", len(more), err)
	}
	list := append(builtinSuite(t), more...)
	run := func(jobs int) (*result.Result, string) {
		dir := t.TempDir()
		opts := baseOptions(t, dir)
		opts.Summarizers = append(opts.Summarizers, pointers())
		opts.Recall, opts.Jobs = &agents.RecallLimits{}, jobs
		res, err := Run(context.Background(), list, opts)
		if err != nil {
			t.Fatal(err)
		}
		r, err := reports.Read(res.ResultPath)
		if err != nil {
			t.Fatal(err)
		}
		return r, normalised(t, res.ResultPath)
	}
	r, one := run(1)
	if _, eight := run(8); one != eight {
		t.Error("-j 1 and -j 8 differ with --recall")
	}
	if c := r.Config.Recall; c == nil || *c != (result.RecallConfig{Calls: 4, Events: 5, Tokens: 1500}) {
		t.Errorf("config.recall %+v, want the defaults", c)
	}
	got := map[string]result.SummarizerSummary{}
	for _, s := range r.Summaries {
		got[s.Summarizer] = s
		if n := s.RecoveredByCitation + s.RecoveredBySearch + s.RecallLost; n != s.Regressions {
			t.Errorf("%s: %d regressions, %d classified by the recall arm", s.Summarizer, s.Regressions, n)
		}
	}
	for _, name := range []string{"builtin:truncate", "builtin:mask"} {
		if s := got[name]; s.RecoveredBySearch == 0 {
			t.Errorf("%s: no regression recovered by search: %+v", name, s)
		}
	}
	if s := got["pointers"]; s.Regressions == 0 || s.RecoveredByCitation < 5 {
		t.Errorf("pointers: %d regressions, %d by citation, %d by search; want what its prose dropped back by citation", s.Regressions, s.RecoveredByCitation, s.RecoveredBySearch)
	}
	if s := got["builtin:none"]; s.RecallProbes != 0 {
		t.Errorf("none compacts nothing, yet %d probes were asked on the recall arm", s.RecallProbes)
	}
	// The recall scenarios' expected outcomes (scenarios/builtin/recall):
	// truncate keeps no pointer and the search drowns, extractive cites
	// the event its prose cut short.
	want := map[string]string{"builtin:truncate": result.RecallLost, "builtin:extractive": result.RecoveredByCitation}
	for _, u := range r.Units {
		if !strings.HasPrefix(u.Scenario.File, scenarios.BuiltinPrefix+scenarios.BuiltinRecallDir) {
			continue
		}
		for _, p := range u.Probes {
			if u.Summarizer == "pointers" && u.Scenario.ID == "recall-cited-change-slot" && p.Recovery != result.RecoveredByCitation {
				t.Errorf("%s × pointers: recovery %q, want citation: it cites the user's rule", u.Scenario.ID, p.Recovery)
			}
			if w, ok := want[u.Summarizer]; ok && p.Recovery != w {
				t.Errorf("%s × %s: recovery %q (class %s), want %q", u.Scenario.ID, u.Summarizer, p.Recovery, p.Class, w)
			}
		}
	}
	// Every recovery is backed by the calls recorded on the probe.
	for _, u := range r.Units {
		for _, p := range u.Probes {
			switch p.Recovery {
			case result.RecoveredByCitation:
				if p.Recall.Choice != p.Expect || result.Recalled(p.Recall.RecallCalls, result.RecallBySearch) || !result.Recalled(p.Recall.RecallCalls, result.RecallBySeq) {
					t.Errorf("%s/%s/%s: by citation, but %+v", u.Scenario.ID, u.Summarizer, p.ID, p.Recall)
				}
			case result.RecoveredBySearch:
				if p.Recall.Choice != p.Expect || !result.Recalled(p.Recall.RecallCalls, result.RecallBySearch) {
					t.Errorf("%s/%s/%s: by search, but %+v", u.Scenario.ID, u.Summarizer, p.ID, p.Recall)
				}
			case "":
				if p.Class == result.CompactionRegression {
					t.Errorf("%s/%s/%s: a regression with no recovery class", u.Scenario.ID, u.Summarizer, p.ID)
				}
			}
		}
	}
}

// TestRecallArmRefusesAgentWithoutTool: an agent with no recall tool is
// refused before anything runs.
func TestRecallArmRefusesAgentWithoutTool(t *testing.T) {
	opts := baseOptions(t, t.TempDir())
	opts.Agent = agents.Func(func(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
		return &agents.Decision{}, nil
	})
	opts.AgentName, opts.Recall = "func", &agents.RecallLimits{}
	_, err := Run(context.Background(), builtinSuite(t)[:1], opts)
	if err == nil || !strings.Contains(err.Error(), "no recall tool") {
		t.Errorf("err %v, want the agent refused", err)
	}
}

// uncited wraps s and removes every citation from its summaries (each
// source_seq and resolved_by): the "citation removed" variant.
func uncited(name string, s summarizers.Summarizer) Summarizer {
	return Summarizer{Name: name, Summarizer: summarizers.Func(func(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
		resp, err := s.Summarize(ctx, req)
		if err != nil || resp.NoCompaction {
			return resp, err
		}
		var d summary.Summary
		if err := json.Unmarshal(resp.Summary, &d); err != nil {
			return nil, err
		}
		for i := range d.Constraints {
			d.Constraints[i].SourceSeq = 0
		}
		for i := range d.Decisions {
			d.Decisions[i].SourceSeq = 0
		}
		for i := range d.Verified {
			d.Verified[i].SourceSeq = 0
		}
		for i := range d.Hypotheses {
			d.Hypotheses[i].SourceSeq, d.Hypotheses[i].ResolvedBy = 0, 0
		}
		for i := range d.Pending {
			d.Pending[i].SourceSeq = 0
		}
		for i := range d.Artifacts {
			d.Artifacts[i].SourceSeq = 0
		}
		for i := range d.Corrections {
			d.Corrections[i].SourceSeq = 0
		}
		for i := range d.Errors {
			d.Errors[i].SourceSeq = 0
		}
		resp.Summary, err = json.Marshal(d)
		return resp, err
	})}
}

// TestRecallCatchesCitationRemoved: the same summaries with their
// citations removed keep every fact in prose, yet the recall figures
// catch the loss: no evidence cited, and the regressions extractive got
// back by citation are lost.
func TestRecallCatchesCitationRemoved(t *testing.T) {
	more, err := scenarios.BuiltinRecall()
	if err != nil {
		t.Fatal(err)
	}
	ext, _ := summarizers.NewBuiltin("extractive")
	opts := baseOptions(t, t.TempDir())
	opts.Summarizers = []Summarizer{{Name: "builtin:extractive", Summarizer: ext}, uncited("uncited", ext)}
	opts.Recall = &agents.RecallLimits{}
	res, err := Run(context.Background(), append(builtinSuite(t), more...), opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reports.Read(res.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]result.SummarizerSummary{}
	for _, s := range r.Summaries {
		got[s.Summarizer] = s
	}
	e, u := got["builtin:extractive"], got["uncited"]
	if e.Citations == nil || e.Citations.EvidenceCited == 0 || u.Citations == nil || u.Citations.EvidenceCited != 0 || u.Citations.Evidence != e.Citations.Evidence {
		t.Errorf("evidence cited: extractive %+v, uncited %+v; want some, and none of the same evidence", e.Citations, u.Citations)
	}
	if e.InvariantPass != u.InvariantPass {
		t.Errorf("invariants kept differ (%d, %d): the variant should keep the prose", e.InvariantPass, u.InvariantPass)
	}
	if e.RecoveredByCitation == 0 || u.RecoveredByCitation != 0 || u.RecallLost <= e.RecallLost {
		t.Errorf("extractive: %d by citation, %d lost; uncited: %d by citation, %d lost; want the citations' recoveries lost",
			e.RecoveredByCitation, e.RecallLost, u.RecoveredByCitation, u.RecallLost)
	}
}

// TestRecallArmFreeText: a free-text probe is asked on the recall arm
// too, its answer graded by the judge like the other arms' (once per
// distinct answer): the regression the compacted arm made is recovered by
// search, the probes that were not regressions get no recovery, and
// nothing is graded twice.
func TestRecallArmFreeText(t *testing.T) {
	sc, err := scenarios.LoadBytes("judged.yaml", []byte(judgedYAML+freeTextProbes))
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t)
	srv.SetDefault(gradingJudge)
	out := filepath.Join(t.TempDir(), "run")
	opts := Options{Summarizers: []Summarizer{fixedSummarizer()}, Agent: agents.Reference{}, AgentName: "builtin:reference",
		Out: out, Now: fixedNow, Judge: judgeOf(t, srv, t.TempDir()), JudgeName: "openai:judge-model", JudgeScope: result.JudgeScopeAll,
		Recall: &agents.RecallLimits{}}
	res, err := Run(context.Background(), []*scenarios.Scenario{sc}, opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reports.Read(res.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Units[0].Probes {
		if p.Recall == nil || p.Recall.Answer == "" || p.Recall.Judge == nil {
			t.Errorf("%s: the recall arm was not asked or not graded: %+v", p.ID, p.Recall)
			continue
		}
		switch p.ID {
		case "lost":
			if p.Class != result.CompactionRegression || p.Recovery != result.RecoveredBySearch || p.Recall.Answer != "logs-eu-2" || p.Recall.Judge.Verdict != "correct" {
				t.Errorf("lost: class %s recovery %q, recall answered %q (%+v) after %+v", p.Class, p.Recovery, p.Recall.Answer, p.Recall.Judge, p.Recall.RecallCalls)
			}
		default:
			if p.Recovery != "" {
				t.Errorf("%s (%s): recovery %q on no regression", p.ID, p.Class, p.Recovery)
			}
		}
	}
	// 4 invariants + 5 probes × 2 arms less the 3 graded once (as
	// without recall); the recall answers repeat an arm's words except
	// where the recall arm found what the compacted arm missed: "lost",
	// whose answer is the full arm's, graded already.
	if n := srv.Count(); n != 11 {
		t.Errorf("%d judge requests, want 11: a recall answer with an arm's words is not graded again", n)
	}
	if s := r.Summaries[0]; s.Regressions != 1 || s.RecoveredBySearch != 1 {
		t.Errorf("summary: %d regressions, %d recovered by search", s.Regressions, s.RecoveredBySearch)
	}
}

// TestRecoveryClasses: the recall arm's outcome for a choice and for a
// graded answer, through one rule: failed when the call (or its grading)
// failed, lost unless right with events back, else by search or by
// citation.
func TestRecoveryClasses(t *testing.T) {
	search := []result.RecallCall{{Kind: result.RecallBySearch, Returned: []int{3}}}
	seq := []result.RecallCall{{Kind: result.RecallBySeq, Returned: []int{1}}}
	nothing := []result.RecallCall{{Kind: result.RecallBySearch}}
	grade := func(v string) *result.Judgement { return &result.Judgement{Verdict: v} }
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"choice: failed call", Recovery("a", result.Decision{Error: "boom", Choice: "a", RecallCalls: seq}), result.RecallFailed},
		{"choice: wrong", Recovery("a", result.Decision{Choice: "b", RecallCalls: seq}), result.RecallLost},
		{"choice: right with nothing back", Recovery("a", result.Decision{Choice: "a", RecallCalls: nothing}), result.RecallLost},
		{"choice: by search", Recovery("a", result.Decision{Choice: "a", RecallCalls: append(seq, search...)}), result.RecoveredBySearch},
		{"choice: by citation", Recovery("a", result.Decision{Choice: "a", RecallCalls: seq}), result.RecoveredByCitation},
		{"answer: failed call", RecoveryOfAnswer(result.Decision{Error: "boom", Judge: grade("correct"), RecallCalls: seq}), result.RecallFailed},
		{"answer: grading failed", RecoveryOfAnswer(result.Decision{Answer: "x", Judge: &result.Judgement{Error: "timeout"}, RecallCalls: seq}), result.RecallFailed},
		{"answer: not graded", RecoveryOfAnswer(result.Decision{Answer: "x", RecallCalls: seq}), result.RecallFailed},
		{"answer: unsure", RecoveryOfAnswer(result.Decision{Answer: "x", Judge: grade("unsure"), RecallCalls: seq}), result.RecallLost},
		{"answer: incorrect", RecoveryOfAnswer(result.Decision{Answer: "x", Judge: grade("incorrect"), RecallCalls: search}), result.RecallLost},
		{"answer: correct with nothing back", RecoveryOfAnswer(result.Decision{Answer: "x", Judge: grade("correct"), RecallCalls: nothing}), result.RecallLost},
		{"answer: by citation", RecoveryOfAnswer(result.Decision{Answer: "x", Judge: grade("correct"), RecallCalls: seq}), result.RecoveredByCitation},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, tc.got, tc.want)
		}
	}
}
