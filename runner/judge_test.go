package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

const judgedSecret = "sk-judged-4f9a8b7c6d5e3f2a1b0c"

// judgedYAML has one invariant of each kind the scripted judge answers
// differently, and a secret that is never judged.
const judgedYAML = `version: 1
id: judged
title: Facts a judge reads
goal: Finish the log rotation
rules: You are an operations assistant.
compaction: {at: [7]}
events:
  - {role: user, text: "This run is READ-ONLY: never write to the prod bucket."}
  - {role: assistant, text: "Understood, read-only."}
  - {role: user, text: "Correction: the bucket is logs-eu-2, not logs-eu-1."}
  - {role: assistant, tool_call: {id: op1, name: rsync, args: {src: logs}}}
  - {role: tool, tool_result: {call_id: op1, status: timeout, text: "rsync timed out"}}
  - {role: user, text: "The pool timeout is 1650 ms."}
  - {role: user, text: "The deploy token is ` + judgedSecret + `."}
  - {role: assistant, text: "Noted."}
  - {role: user, text: "Continue."}
invariants:
  - {id: ro, type: constraint, source_seq: 1, match: ["read-only"]}
  - {id: bucket, type: correction, source_seq: 3, subject: bucket, old: logs-eu-1, new: logs-eu-2}
  - {id: op, type: pending_operation, op_id: op1, call_seq: 4}
  - {id: pool, type: quantity, value: 1650, unit: ms}
  - {id: token, type: secret, value: ` + judgedSecret + `}
`

// judgedSummary keeps every fact (every check passes) and leaks the
// secret, which the judge must never receive.
const judgedSummary = `{"schema_version":1,"covers_through":7,"text":"READ-ONLY run: never write to prod. The bucket is now logs-eu-2 (was logs-eu-1). The rsync call op1 timed out; its outcome is unknown, still pending. Pool timeout 1650 ms. Token ` + judgedSecret + `."}`

func judgedScenario(t *testing.T) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.LoadBytes("judged.yaml", []byte(judgedYAML))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func fixedSummarizer() Summarizer {
	return Summarizer{Name: "fixed", Summarizer: summarizers.Func(func(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
		return &summarizers.Response{Summary: json.RawMessage(judgedSummary), Call: result.Call{Spec: "fixed"}}, nil
	})}
}

// scriptedJudge answers by the fact's type: the constraint rightly kept,
// the correction wrongly contradicted, malformed JSON for the pending
// operation, a refusal for the quantity. Only the timeout case is left to
// the test.
func scriptedJudge(r llmtest.Request) llmtest.Reply {
	user := strings.Join(r.Messages("user"), "\n")
	switch {
	case strings.Contains(user, "The fact (constraint)"):
		return llmtest.Text(`{"verdict":"kept","quote":"READ-ONLY run: never write to prod","reason":"the rule is stated"}`)
	case strings.Contains(user, "The fact (correction)"):
		return llmtest.Text(`{"verdict":"contradicted","quote":"was logs-eu-1","reason":"the old bucket is still named"}`)
	case strings.Contains(user, "The fact (pending operation)"):
		return llmtest.Text(`{"verdict": "kept", "quote": `)
	case strings.Contains(user, "The fact (quantity)"):
		return llmtest.Reply{Refusal: "I cannot grade this."}
	}
	return llmtest.Status(500, "unexpected judge request")
}

func judgeOf(t *testing.T, srv *llmtest.Server, cache string) *judges.OpenAI {
	t.Helper()
	llm.ForgetOutputModes()
	j, err := judges.NewOpenAI("judge-model", providers.OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: "sk-test-judge-key-0123456789",
		CacheDir: cache, Getenv: func(string) string { return "" }, Timeout: 300 * time.Millisecond, MaxRetries: 1})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func judgeRun(t *testing.T, sc *scenarios.Scenario, j judges.Judge, gate bool) *result.Result {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run")
	opts := Options{Summarizers: []Summarizer{fixedSummarizer()}, Agent: agents.Reference{}, AgentName: "builtin:reference",
		Out: out, Now: fixedNow, Judge: j, JudgeName: "openai:judge-model", JudgeGate: gate, JudgeScope: result.JudgeScopeAll}
	res, err := Run(context.Background(), []*scenarios.Scenario{sc}, opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reports.Read(res.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func judgedChecks(t *testing.T, r *result.Result) map[string]result.CheckResult {
	t.Helper()
	if len(r.Units) != 1 || len(r.Units[0].Generations) != 1 {
		t.Fatalf("want one unit with one generation, got %+v", r.Units)
	}
	out := map[string]result.CheckResult{}
	for _, c := range r.Units[0].Generations[0].Checks {
		if c.Kind == result.KindInvariant {
			out[c.Invariant] = c
		}
	}
	return out
}

// TestJudgeRecordedBeside plays a scripted judge over the wire: a right
// verdict, a wrong one, malformed JSON, a refusal and a timeout. Verdicts
// are recorded beside the checks, never instead; bad replies are errors
// for their judgement alone; the disagreement is reported; request counts
// are exact; a rerun sends only what failed, and then nothing.
func TestJudgeRecordedBeside(t *testing.T) {
	sc := judgedScenario(t)
	srv := llmtest.New(t)
	srv.SetDefault(scriptedJudge)
	cache := t.TempDir()
	r := judgeRun(t, sc, judgeOf(t, srv, cache), false)
	got := judgedChecks(t, r)
	if c := got["token"]; c.Judge != nil {
		t.Errorf("the secret was judged: %+v", c.Judge)
	}
	for id, c := range got {
		want := result.Pass
		if id == "token" {
			want = result.Fail // the summary leaks it: the exact check says so
		}
		if c.Status != want {
			t.Errorf("%s: status %s (%s), want %s: the judge never changes a status without --judge-gate", id, c.Status, c.Message, want)
		}
	}
	want := map[string]struct{ verdict, err string }{
		"ro":     {judges.Kept, ""},
		"bucket": {judges.Contradicted, ""},
		"op":     {"", "not a JSON object"},
		"pool":   {"", "refused"},
	}
	for id, w := range want {
		j := got[id].Judge
		if j == nil {
			t.Errorf("%s: no judgement", id)
			continue
		}
		if j.Verdict != w.verdict || (w.err == "") != (j.Error == "") || !strings.Contains(j.Error, w.err) {
			t.Errorf("%s: judgement %q error %q, want %q error ~%q", id, j.Verdict, j.Error, w.verdict, w.err)
		}
		if j.Call.Model != "judge-model" || !strings.HasPrefix(j.Call.PromptDigest, "sha256:") || j.Call.Spec == "" {
			t.Errorf("%s: provenance %+v", id, j.Call)
		}
		if j.Overrode != "" {
			t.Errorf("%s: overrode %q without a gate", id, j.Overrode)
		}
	}
	if n := srv.Count(); n != 4 {
		t.Errorf("%d judge requests, want 4 (one per judged invariant)", n)
	}
	for i, req := range srv.Requests() {
		if req.Contains(judgedSecret[:12]) {
			t.Errorf("request %d carries the secret", i)
		}
		// The judge never sees what the checks said.
		for id, c := range got {
			if req.Contains(c.Message) {
				t.Errorf("request %d shows the judge the %s check's message", i, id)
			}
		}
	}
	if len(r.Disagreements) != 1 || r.Disagreements[0].Kind != result.PassContradicted || r.Disagreements[0].Invariant != "bucket" {
		t.Errorf("disagreements %+v, want bucket: check pass, judge contradicted", r.Disagreements)
	}
	if len(r.Judge) != 1 || r.Judge[0].Judged != 4 || r.Judge[0].Errors != 2 || r.Judge[0].Agree != 1 {
		t.Errorf("judge summary %+v", r.Judge)
	}
	var md strings.Builder
	if err := reports.WriteMarkdown(&md, r, reports.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"### Judge `openai:judge-model`", "### Disagreements between checks and judge (1)", "| `judged` | `fixed` | g1 | correction `bucket` | pass | contradicted: `the old bucket is still named` | `was logs-eu-1` |"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("markdown lacks %q:\n%s", s, md.String())
		}
	}
	var html strings.Builder
	if err := reports.WriteHTML(&html, r, reports.Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), `<table id="disagreements">`) {
		t.Error("html lacks the disagreements table")
	}

	// Rerun on the same cache: only the two failures are asked again.
	r = judgeRun(t, sc, judgeOf(t, srv, cache), false)
	if n := srv.Count(); n != 6 {
		t.Errorf("%d judge requests after the rerun, want 6 (the 2 failures again)", n)
	}
	if j := judgedChecks(t, r)["ro"].Judge; j == nil || !j.Call.CacheHit {
		t.Errorf("rerun: ro judgement %+v, want a cache hit", j)
	}
	// Once every judgement succeeded, a rerun sends nothing.
	srv.SetDefault(func(req llmtest.Request) llmtest.Reply {
		if strings.Contains(strings.Join(req.Messages("user"), ""), "The fact (pending operation)") || strings.Contains(strings.Join(req.Messages("user"), ""), "The fact (quantity)") {
			return llmtest.Text(`{"verdict":"missing","quote":"","reason":"r"}`)
		}
		return scriptedJudge(req)
	})
	judgeRun(t, sc, judgeOf(t, srv, cache), false)
	n := srv.Count()
	judgeRun(t, sc, judgeOf(t, srv, cache), false)
	if srv.Count() != n {
		t.Errorf("a warm rerun sent %d requests, want 0", srv.Count()-n)
	}
}

// TestJudgeTimeout: a judge that never answers in time is an error for
// each judgement (after its retry), and the unit still finishes ok.
// Without the gate the judge only informs, so each check's pass stands;
// with --judge-gate a pass the judge gave no verdict on becomes an error:
// the gate fails closed, as every gate does.
func TestJudgeTimeout(t *testing.T) {
	sc := judgedScenario(t)
	for _, gate := range []bool{false, true} {
		srv := llmtest.New(t)
		srv.SetDefault(func(llmtest.Request) llmtest.Reply {
			return llmtest.Reply{Delay: 2 * time.Second, Content: `{"verdict":"missing"}`}
		})
		r := judgeRun(t, sc, judgeOf(t, srv, t.TempDir()), gate)
		if r.Units[0].Status != result.UnitOK {
			t.Errorf("gate %v: unit %s: %s", gate, r.Units[0].Status, r.Units[0].Error)
		}
		for id, c := range judgedChecks(t, r) {
			if id == "token" {
				continue
			}
			if c.Judge == nil || c.Judge.Verdict != "" || !strings.Contains(c.Judge.Error, "timed out") {
				t.Errorf("gate %v: %s: judgement %+v", gate, id, c.Judge)
				continue
			}
			switch {
			case !gate && c.Status != result.Pass:
				t.Errorf("no gate: %s: %s, want the check's pass to stand", id, c.Status)
			case gate && (c.Status != result.Error || !strings.HasPrefix(c.Message, GateNoVerdict) || c.Judge.Overrode != result.Pass):
				t.Errorf("gate: %s: %s %q overrode %q, want error %q overriding pass", id, c.Status, c.Message, c.Judge.Overrode, GateNoVerdict)
			}
		}
		if n := srv.Count(); n != 8 {
			t.Errorf("gate %v: %d requests, want 8 (4 judgements, one retry each)", gate, n)
		}
	}
}

// TestJudgeGate: with --judge-gate a contradicted pass becomes a fail
// whose reason says so and which keeps the original status; the report
// still lists it as a disagreement (check pass, judge contradicted).
func TestJudgeGate(t *testing.T) {
	sc := judgedScenario(t)
	srv := llmtest.New(t)
	srv.SetDefault(scriptedJudge)
	r := judgeRun(t, sc, judgeOf(t, srv, t.TempDir()), true)
	got := judgedChecks(t, r)
	c := got["bucket"]
	if c.Status != result.Fail || !strings.HasPrefix(c.Message, GateReason) || c.Judge == nil || c.Judge.Overrode != result.Pass {
		t.Errorf("bucket: %s %q overrode %+v, want fail %q overriding pass", c.Status, c.Message, c.Judge, GateReason)
	}
	if got["ro"].Status != result.Pass {
		t.Errorf("ro: %s; a kept verdict leaves the pass alone", got["ro"].Status)
	}
	// A malformed reply (op) and a refusal (pool) give no verdict: under the
	// gate the pass becomes an error, never a fail and never a silent pass.
	for _, id := range []string{"op", "pool"} {
		if c := got[id]; c.Status != result.Error || !strings.HasPrefix(c.Message, GateNoVerdict) || c.Judge == nil || c.Judge.Overrode != result.Pass {
			t.Errorf("%s: %s %q, want error %q overriding pass", id, c.Status, c.Message, GateNoVerdict)
		}
	}
	if len(r.Disagreements) != 1 || !r.Disagreements[0].Gated || r.Disagreements[0].Status != result.Pass {
		t.Errorf("disagreements %+v", r.Disagreements)
	}
	if !r.Config.JudgeGate || r.Config.Judge != "openai:judge-model" {
		t.Errorf("config %+v", r.Config)
	}
	if s := r.Summaries[0]; s.InvariantFail != 2 {
		t.Errorf("invariant fails %d, want 2 (the gated one and the leaked secret)", s.InvariantFail)
	}
}

// TestJudgeFailKept: the reverse disagreement, a check that failed on a
// summary the judge calls kept.
func TestJudgeFailKept(t *testing.T) {
	sc := judgedScenario(t)
	sum := Summarizer{Name: "lossy", Summarizer: summarizers.Func(func(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
		return &summarizers.Response{Summary: json.RawMessage(`{"schema_version":1,"covers_through":7,"text":"We only look, we change nothing in prod."}`)}, nil
	})}
	judge := judges.Func(func(ctx context.Context, req *judges.Request) (*judges.Verdict, error) {
		if req.Invariant.Type == result.TypeConstraint {
			return &judges.Verdict{Verdict: judges.Kept, Quote: "we change nothing in prod", Call: result.Call{Spec: "func"}}, nil
		}
		return &judges.Verdict{Verdict: judges.Missing, Call: result.Call{Spec: "func"}}, nil
	})
	out := filepath.Join(t.TempDir(), "run")
	res, err := Run(context.Background(), []*scenarios.Scenario{sc}, Options{Summarizers: []Summarizer{sum}, Agent: agents.Reference{},
		AgentName: "ref", Out: out, Now: fixedNow, Judge: judge, JudgeName: "func", JudgeGate: true, JudgeScope: result.JudgeScopeAll})
	if err != nil {
		t.Fatal(err)
	}
	r, err := reports.Read(res.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, d := range r.Disagreements {
		kinds = append(kinds, fmt.Sprintf("%s %s %s", d.Invariant, d.Status, d.Kind))
	}
	if len(kinds) != 1 || kinds[0] != "ro fail "+result.FailKept {
		t.Errorf("disagreements %q, want the constraint: check fail, judge kept", kinds)
	}
	if s := r.Judge[0]; s.Agree != 3 || s.Missing != 3 {
		t.Errorf("judge summary %+v: a missing verdict on a failed check agrees", s)
	}
}

// freeTextProbes reach every class with the reference agent: it answers
// the expected answer where its requires occur, else agents.DontKnow.
const freeTextProbes = `probes:
  - {id: both-right, question: "What is the run's rule?", answer: "Read-only: never write to prod."}
  - {id: lost, question: "Which bucket?", answer: "logs-eu-2", requires: ['Correction: the bucket']}
  - {id: nowhere, question: "Which region?", answer: "eu-west-3", requires: ['eu-west-3']}
  - {id: summary-only, question: "Is op1 finished?", answer: "No, it is still pending.", requires: ['still pending']}
  - {id: unsure, question: "Anything else?", answer: "No."}
`

// gradingJudge grades an answer correct when it is the expected one,
// incorrect otherwise, and is unsure about the probe "Anything else?".
func gradingJudge(r llmtest.Request) llmtest.Reply {
	user := strings.Join(r.Messages("user"), "\n")
	q, _, _ := strings.Cut(strings.TrimPrefix(user, "Question:\n"), "\n")
	_, rest, _ := strings.Cut(user, "\nExpected answer:\n")
	expected, _, _ := strings.Cut(rest, "\n")
	_, answer, _ := strings.Cut(user, "\nThe agent's answer:\n")
	answer = strings.TrimSpace(answer)
	quote, _ := json.Marshal(answer)
	switch {
	case q == "Anything else?":
		return llmtest.Text(`{"verdict":"unsure","quote":"","reason":"cannot tell"}`)
	case answer == expected:
		return llmtest.Text(`{"verdict":"correct","quote":` + string(quote) + `,"reason":"same"}`)
	case strings.HasPrefix(user, "Question:\n"):
		return llmtest.Text(`{"verdict":"incorrect","quote":` + string(quote) + `,"reason":"different"}`)
	}
	return scriptedJudge(r)
}

// TestFreeTextProbes: without a judge free-text probes are skip and no
// agent is asked; with one, each arm's answer is graded and every class
// is reachable; an unsure grade is skip with both grades recorded.
func TestFreeTextProbes(t *testing.T) {
	sc, err := scenarios.LoadBytes("judged.yaml", []byte(judgedYAML+freeTextProbes))
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	agent := agents.Func(func(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
		asked++
		return agents.Reference{}.Decide(ctx, req)
	})
	out := filepath.Join(t.TempDir(), "run")
	res, err := Run(context.Background(), []*scenarios.Scenario{sc}, Options{Summarizers: []Summarizer{fixedSummarizer()}, Agent: agent,
		AgentName: "ref", Out: out, Now: fixedNow, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	r, err := reports.Read(res.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Units[0].Probes {
		if p.Class != result.ProbeSkipped || !strings.Contains(p.Skipped, "--judge") || p.Answer == "" {
			t.Errorf("no judge: %s %s %q", p.ID, p.Class, p.Skipped)
		}
	}
	if asked != 0 || r.Units[0].Status != result.UnitOK {
		t.Errorf("no judge: the agent was asked %d times, unit %s", asked, r.Units[0].Status)
	}

	srv := llmtest.New(t)
	srv.SetDefault(gradingJudge)
	r = judgeRun(t, sc, judgeOf(t, srv, t.TempDir()), false)
	want := map[string]string{
		"both-right":   result.Kept,
		"lost":         result.CompactionRegression,
		"nowhere":      result.AgentError,
		"summary-only": result.CompactedOnly,
		"unsure":       result.ProbeSkipped,
	}
	for _, p := range r.Units[0].Probes {
		if p.Class != want[p.ID] {
			t.Errorf("%s: class %s, want %s (full %q %+v, compacted %q %+v)", p.ID, p.Class, want[p.ID], p.Full.Answer, p.Full.Judge, p.Compacted.Answer, p.Compacted.Judge)
		}
		if p.Full.Judge == nil || p.Compacted.Judge == nil || p.Full.Judge.Call.Model != "judge-model" {
			t.Errorf("%s: grades not recorded: %+v %+v", p.ID, p.Full.Judge, p.Compacted.Judge)
		}
		if p.ID == "lost" && (p.Diff == "" || !strings.Contains(p.Diff, agents.DontKnow)) {
			t.Errorf("lost: diff %q", p.Diff)
		}
		if p.ID == "unsure" && !strings.Contains(p.Skipped, "unsure (full) and unsure (compacted)") {
			t.Errorf("unsure: %q", p.Skipped)
		}
	}
	// 4 invariants + 5 probes × 2 arms, less the 3 probes whose arms gave
	// the same words (graded once).
	if n := srv.Count(); n != 11 {
		t.Errorf("%d judge requests, want 11", n)
	}
	for _, req := range srv.Requests() {
		if user := strings.Join(req.Messages("user"), ""); strings.HasPrefix(user, "Question:") && (strings.Contains(user, "compacted") || strings.Contains(user, "full context") || req.Contains(`"arm"`)) {
			t.Error("a judge request says which arm an answer comes from")
		}
	}
	if s := r.Judge[0].Answers; s.Correct != 4 || s.Incorrect != 4 || s.Unsure != 2 {
		t.Errorf("answer grades %+v", s)
	}
	var md strings.Builder
	reports.WriteMarkdown(&md, r, reports.Options{})
	if !strings.Contains(md.String(), `full context answered "logs-eu-2" (correct), compacted answered "I cannot tell from my context." (incorrect)`) {
		t.Errorf("markdown does not explain the free-text regression:\n%s", md.String())
	}
}

// TestJudgeGateFreeText: under --judge-gate a free-text probe whose judge
// gave no verdict on an arm's answer (a malformed reply here) is an error
// that names the arm and why, never a skip that drops out of the count;
// an unsure grade is a verdict and stays skip; graded probes keep their
// class. Without the gate the same replies make the probe skip.
func TestJudgeGateFreeText(t *testing.T) {
	sc, err := scenarios.LoadBytes("judged.yaml", []byte(judgedYAML+freeTextProbes))
	if err != nil {
		t.Fatal(err)
	}
	// The judge's reply to the answer "logs-eu-2" (probe lost, full arm)
	// is no verdict at all.
	judge := func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(strings.Join(r.Messages("user"), "\n"), "\nThe agent's answer:\nlogs-eu-2") {
			return llmtest.Text(`I would rather not say.`)
		}
		return gradingJudge(r)
	}
	for _, gate := range []bool{false, true} {
		srv := llmtest.New(t)
		srv.SetDefault(judge)
		r := judgeRun(t, sc, judgeOf(t, srv, t.TempDir()), gate)
		want := map[string]string{
			"both-right":   result.Kept,
			"lost":         result.ProbeSkipped,
			"nowhere":      result.AgentError,
			"summary-only": result.CompactedOnly,
			"unsure":       result.ProbeSkipped,
		}
		if gate {
			want["lost"] = result.ProbeErrored
		}
		for _, p := range r.Units[0].Probes {
			if p.Class != want[p.ID] {
				t.Errorf("gate %v: %s: class %s, want %s", gate, p.ID, p.Class, want[p.ID])
			}
			if p.ID == "lost" && gate && !strings.HasPrefix(p.ErrorText(), "full arm: the judge gave no verdict: ") {
				t.Errorf("gate: lost: error text %q, want the full arm's missing verdict", p.ErrorText())
			}
		}
		if r.Units[0].Status != result.UnitOK {
			t.Errorf("gate %v: unit %s (%s): a probe the judge could not grade is no failure of the unit", gate, r.Units[0].Status, r.Units[0].Error)
		}
		errs := -1
		for _, a := range r.Aggregates {
			if a.Check == result.CheckDecisions {
				errs = a.Error
			}
		}
		if want := map[bool]int{false: 0, true: 1}[gate]; errs != want {
			t.Errorf("gate %v: decisions aggregate has %d errors, want %d", gate, errs, want)
		}
	}
}
