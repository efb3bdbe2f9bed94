package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/scenarios"
)

// judgeConcurrency bounds the judge calls of one generation in flight at
// once (the run's limiter bounds them across units).
const judgeConcurrency = 8

// GateReason starts the message of an invariant --judge-gate failed.
const GateReason = "judge: contradicted"

// judgeChecks asks the judge about every invariant result of a generation
// (secrets excepted: Describe refuses them) and records each verdict beside
// its check (Result.Judge). The judge sees the invariant in plain words and
// the summary, secrets redacted, never the check's status. With gate, a
// contradicted verdict turns a pass into a fail (Judgement.Overrode says
// it was a pass).
func (u *unit) judgeChecks(r *genRecord, res []checks.Result) {
	if u.judge == nil || r.raw == nil || r.declined {
		return
	}
	sc := u.p.sc
	summary := r.g.Summary
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
		if c.Kind != checks.KindInvariant || !ok {
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
			c.Judge = askJudge(u.hard, u.judge, req)
			if u.judgeGate && c.Judge.Verdict == judges.Contradicted && c.Status == checks.Pass {
				c.Judge.Overrode = c.Status
				c.Status = checks.Fail
				c.Message = fmt.Sprintf("%s (%s); the check alone passed: %s", GateReason, c.Judge.Reason, c.Message)
			}
		}()
	}
	wg.Wait()
}

// askJudge asks j and returns the judgement: the verdict, or the error
// for this judgement alone, with the call's provenance either way.
func askJudge(ctx context.Context, j judges.Judge, req *judges.Request) (out *checks.Judgement) {
	out = &checks.Judgement{}
	defer func() {
		if p := recover(); p != nil {
			out = &checks.Judgement{Error: fmt.Sprintf("judge panic: %v", p)}
		}
	}()
	v, err := j.Judge(ctx, req)
	if v != nil {
		out.Call = v.Call
	}
	switch {
	case err != nil:
		out.Error = err.Error()
	case v == nil:
		out.Error = "the judge returned no verdict"
	default:
		out.Verdict, out.Quote, out.Reason = v.Verdict, v.Quote, v.Reason
	}
	return out
}
