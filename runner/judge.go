package runner

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/scenarios"
)

// judgeConcurrency bounds the judge calls of one generation in flight at
// once (the run's limiter bounds them across units).
const judgeConcurrency = 8

// GateReason starts the message of an invariant --judge-gate failed.
const GateReason = "judge: contradicted"

// GateNoVerdict starts the message of a passed invariant that --judge-gate
// turned into an error because the judge gave no verdict on it.
const GateNoVerdict = "judge: no verdict"

// judgeScope is the judge scope recorded in the result: "" without a
// judge, else the scope asked (JudgeScopeUncertain when not set).
func (o *Options) judgeScope() string {
	switch {
	case o.Judge == nil:
		return ""
	case o.JudgeScope == "":
		return result.JudgeScopeUncertain
	}
	return o.JudgeScope
}

// SettledReason starts the message of an uncertain check the judge's
// verdict settled.
const SettledReason = "judge: "

// judgeChecks asks the judge about the invariant results of a generation
// (secrets excepted: Describe refuses them): the uncertain ones, or with
// judgeAll every one that is not skip. The judge sees the invariant in
// plain words and the summary, secrets redacted, never the check's status.
// Its verdict on an uncertain check settles it (settle); on a pass or a
// fail it is recorded beside the check (Result.Judge). With gate, a
// contradicted verdict turns a pass into a fail, and a judgement that
// errored turns it into an error (the gate fails closed);
// Judgement.Overrode says it was a pass.
func (u *unit) judgeChecks(r *genRecord, res []result.CheckResult) {
	if u.judge == nil || r.raw == nil || r.declined {
		return
	}
	sc := u.p.sc
	summary := judges.WithoutExtensions(r.g.Summary)
	if summary == nil {
		// Not JSON: the judge reads it as text.
		summary, _ = json.Marshal(string(r.raw))
	}
	byID := make(map[string]scenarios.Invariant, len(sc.Invariants))
	for _, inv := range sc.Invariants {
		byID[inv.InvariantID()] = inv
	}
	rd := redact.FromContext(u.hard)
	var wg sync.WaitGroup
	sem := make(chan struct{}, judgeConcurrency)
	for i := range res {
		c := &res[i]
		inv, ok := byID[c.Invariant]
		if c.Kind != result.KindInvariant || !ok || c.Status == result.Skip {
			// A skipped check has nothing to judge in this generation (the
			// fact is not in the history yet, or the summary lacks what the
			// check reads): neither has the judge.
			continue
		}
		if !u.judgeAll && c.Status != result.Uncertain {
			// The cascade: a check that could tell needs no judge.
			continue
		}
		f, ok := judges.Describe(sc, inv)
		if !ok {
			continue
		}
		req := judges.NewInvariantRequest(sc.ID, r.g.N, f, summary)
		judges.Redact(rd, req)
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			c.Judge = judges.Ask(u.hard, u.judge, req)
			if c.Status == result.Uncertain {
				settle(c)
				return
			}
			switch {
			case !u.judgeGate || c.Status != result.Pass:
			case c.Judge.Verdict == judges.Contradicted:
				c.Judge.Overrode = c.Status
				c.Status = result.Fail
				c.Message = fmt.Sprintf("%s (%s); the check alone passed: %s", GateReason, c.Judge.Reason, c.Message)
			case c.Judge.Error != "":
				// The gate asked for the judge's word and got none: it
				// fails closed, as every gate does, rather than letting
				// the check's pass stand unjudged.
				c.Judge.Overrode = c.Status
				c.Status = result.Error
				c.Message = fmt.Sprintf("%s (%s); --judge-gate needs a verdict, and the check alone passed: %s", GateNoVerdict, clip.String(c.Judge.Error, 200), c.Message)
			}
		}()
	}
	wg.Wait()
}

// settle turns an uncertain check into the judge's verdict: kept passes,
// contradicted or missing fails; Judgement.Settled keeps that the check
// could not tell, and the message says who decided. Without a verdict (the
// call failed, the reply was not one) the check stays uncertain: doubt is
// never turned into a pass.
func settle(c *result.CheckResult) {
	var s result.Status
	switch c.Judge.Verdict {
	case judges.Kept:
		s = result.Pass
	case judges.Contradicted, judges.Missing:
		s = result.Fail
	default:
		return
	}
	c.Judge.Settled = c.Status
	c.Status = s
	c.Message = fmt.Sprintf("%s%s (%s); the check could not tell: %s", SettledReason, c.Judge.Verdict, c.Judge.Reason, c.Message)
}

// judgeAnswers grades both arms' answers to a free-text probe with the
// judge (never telling it which arm an answer comes from) and classifies
// the probe as a choice probe would be: correct stands for the expected
// choice. An agent that failed on an arm makes the probe an error, as for
// choice probes; two identical answers are graded once. An arm the judge
// is unsure about or could not grade makes it skip (nothing to compare),
// with the grades recorded.
func (u *unit) judgeAnswers(pr scenarios.Probe, rp *result.Probe) {
	if rp.Full.Error != "" || rp.Compacted.Error != "" {
		rp.Class = result.ProbeErrored
		return
	}
	ask := func(answer string) *result.Judgement { return u.gradeAnswer(pr, answer) }
	if rp.Full.Answer == rp.Compacted.Answer {
		// The same words get the same grade: one question.
		rp.Full.Judge = ask(rp.Full.Answer)
		j := *rp.Full.Judge
		rp.Compacted.Judge = &j
	} else {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); rp.Full.Judge = ask(rp.Full.Answer) }()
		rp.Compacted.Judge = ask(rp.Compacted.Answer)
		wg.Wait()
	}
	rp.Class = ClassifyAnswers(rp.Full.Judge, rp.Compacted.Judge)
	if u.judgeGate && (!graded(rp.Full.Judge) || !graded(rp.Compacted.Judge)) {
		// The gate asked for the judge's word on both answers and did not
		// get it: it fails closed, as it does for an invariant, rather than
		// letting a probe it could not grade drop out of the count.
		rp.Class = result.ProbeErrored
		return
	}
	if rp.Class == result.ProbeSkipped {
		rp.Skipped = fmt.Sprintf("the judge graded the answers %s (full) and %s (compacted): nothing to compare", grade(rp.Full.Judge), grade(rp.Compacted.Judge))
	}
}

// judgeRecallAnswer grades the recall arm's answer d to a free-text
// probe: the grade of an arm that gave the same words is reused (the same
// words get the same grade), else the judge is asked, as for the other
// arms.
func (u *unit) judgeRecallAnswer(pr scenarios.Probe, rp *result.Probe, d *result.Decision) {
	if d.Error != "" {
		return
	}
	for _, arm := range []*result.Decision{&rp.Compacted, &rp.Full} {
		if arm.Error == "" && arm.Judge != nil && arm.Answer == d.Answer {
			j := *arm.Judge
			d.Judge = &j
			return
		}
	}
	d.Judge = u.gradeAnswer(pr, d.Answer)
}

// gradeAnswer asks the judge to grade answer to the free-text probe pr,
// secrets redacted from what it is sent.
func (u *unit) gradeAnswer(pr scenarios.Probe, answer string) *result.Judgement {
	p := judges.Probe{ID: pr.ID, Question: pr.Question, Expected: pr.Answer, Rubric: append([]string(nil), pr.Rubric...)}
	req := judges.NewAnswerRequest(u.p.sc.ID, &p, answer)
	judges.Redact(redact.FromContext(u.hard), req)
	return judges.Ask(u.hard, u.judge, req)
}

// graded reports whether the judge answered at all: an unsure grade is an
// answer; a failed call or a reply that was no verdict is not.
func graded(j *result.Judgement) bool {
	return j != nil && j.Error == "" && j.Verdict != ""
}

func grade(j *result.Judgement) string {
	switch {
	case j == nil:
		return "not at all"
	case j.Error != "":
		return "error (" + clip.String(j.Error, 120) + ")"
	}
	return j.Verdict
}

// ClassifyAnswers is Classify for a free-text probe's graded answers:
// kept (both correct), compaction_regression (full correct, compacted
// incorrect), agent_error (both incorrect), compacted_only (only the
// compacted answer correct), skip when either grade is unsure or missing
// (a judge that failed is an error of that judgement alone: the probe is
// skip, counted as such, with the reason).
func ClassifyAnswers(full, compacted *result.Judgement) string {
	ok := func(j *result.Judgement) bool {
		return j != nil && (j.Verdict == judges.Correct || j.Verdict == judges.Incorrect)
	}
	if !ok(full) || !ok(compacted) {
		return result.ProbeSkipped
	}
	f, c := full.Verdict == judges.Correct, compacted.Verdict == judges.Correct
	switch {
	case f && c:
		return result.Kept
	case f:
		return result.CompactionRegression
	case c:
		return result.CompactedOnly
	}
	return result.AgentError
}
