package runner

import (
	"context"
	"sync"
	"time"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/judges"
)

// schedule feeds the units of todo, in order, on the channel it returns,
// and closes it when all are fed, when ctx is canceled, when stop is closed,
// or once stopAfter units are fed (stopAfter > 0: the failpoint).
func schedule(ctx context.Context, todo []job, stopAfter int, stop <-chan struct{}) <-chan job {
	feed := make(chan job)
	go func() {
		defer close(feed)
		for k, jb := range todo {
			if stopAfter > 0 && k >= stopAfter {
				return
			}
			// A unit is never fed once a stop is due, even when a worker
			// is ready at the same moment.
			select {
			case <-ctx.Done():
				return
			case <-stop:
				return
			default:
			}
			select {
			case feed <- jb:
			case <-ctx.Done():
				return
			case <-stop:
				return
			}
		}
	}()
	return feed
}

// started is a unit whose model calls are done: finish evaluates it and
// returns it. local is set when finish calls nothing outside the process
// (the checks and a Local agent, no judge), so that it may run off the job
// slot.
type started struct {
	finish func() result.Unit
	local  bool
}

// runWorkers starts n workers that start every job of feed with start and
// send the finished unit on the channel returned (buffered buf), closed when
// feed is and every unit is finished. A worker finishes a unit itself,
// unless its evaluation is local: then it queues it (at most buf waiting)
// for one of the evaluators and takes the next job at once, so that a job
// slot is held only while a unit waits on a model, and CPU-bound evaluation
// does not delay the next request.
func runWorkers(n, evaluators, buf int, feed <-chan job, start func(job) started) <-chan result.Unit {
	results := make(chan result.Unit, buf)
	local := make(chan func() result.Unit, buf)
	var workers, evals sync.WaitGroup
	for range n {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for jb := range feed {
				s := start(jb)
				if s.local {
					local <- s.finish
				} else {
					results <- s.finish()
				}
			}
		}()
	}
	for range max(evaluators, 1) {
		evals.Add(1)
		go func() {
			defer evals.Done()
			for finish := range local {
				results <- finish()
			}
		}()
	}
	go func() {
		workers.Wait()
		close(local)
		evals.Wait()
		close(results)
	}()
	return results
}

// unitRunner runs the units of one run: what every unit shares.
type unitRunner struct {
	sums      []Summarizer
	agent     agents.Agent
	judge     judges.Judge
	judgeGate bool
	judgeAll  bool
	check     func(*checks.Input) []result.CheckResult
	hard      context.Context // canceled only when in-flight work must stop
	now       func() time.Time
	cache     *prepCache
	recall    *agents.RecallLimits
}

// localEval reports whether evaluating a unit calls nothing outside the
// process: the agent is Local and there is no judge.
func (r *unitRunner) localEval() bool {
	_, local := r.agent.(agents.Local)
	return local && r.judge == nil
}

// start runs one unit's model calls (its timeline); the unit's finish
// evaluates it, redacts it and tells the cache it is done. The first unit
// of a scenario also has the cache prepare the next scenario.
func (r *unitRunner) start(jb job) started {
	p := r.cache.get(jb.sc)
	r.cache.ahead(jb.sc)
	// Keys may be registered or set while the run goes: read them per unit.
	rd := redact.Join(p.secrets, redact.Keys())
	s := r.sums[jb.sum]
	end := func(out result.Unit) result.Unit {
		if rd != nil {
			result.RedactUnit(&out, rd)
		}
		r.cache.done(jb.sc)
		return out
	}
	if p.loadErr != nil {
		out := result.Unit{Scenario: result.ScenarioRef{ID: p.ref.ID, File: p.ref.File, Digest: p.ref.Digest, FileDigest: p.ref.FileDigest},
			Summarizer: s.Name, Trial: jb.trial, Status: result.UnitError,
			Error: "loading the scenario: " + p.loadErr.Error(), Generations: []result.Generation{}, Probes: []result.Probe{}}
		return started{finish: func() result.Unit { return end(out) }, local: true}
	}
	u := &unit{p: p, spec: s.Name, sum: s.Summarizer, agent: r.agent, trial: jb.trial, check: r.check,
		judge: r.judge, judgeGate: r.judgeGate, judgeAll: r.judgeAll, hard: redact.NewContext(r.hard, rd), now: r.now, recall: r.recall}
	tl, walked := u.walk()
	return started{finish: func() result.Unit { return end(u.evaluate(tl, walked)) }, local: r.localEval()}
}
