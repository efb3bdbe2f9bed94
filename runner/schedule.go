package runner

import (
	"context"
	"sync"
	"time"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/reports"
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

// runWorkers starts n workers that run every job of feed with run and send
// the unit on the channel returned (buffered buf), closed when feed is and
// every worker is done.
func runWorkers(n, buf int, feed <-chan job, run func(job) reports.Unit) <-chan reports.Unit {
	results := make(chan reports.Unit, buf)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range feed {
				results <- run(jb)
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()
	return results
}

// unitRunner runs the units of one run: what every unit shares.
type unitRunner struct {
	sums      []Summarizer
	agent     agents.Agent
	judge     judges.Judge
	judgeGate bool
	check     func(*checks.Input) []checks.Result
	hard      context.Context // canceled only when in-flight work must stop
	now       func() time.Time
	cache     *prepCache
}

// run runs one unit, redacted, and tells the cache it is done.
func (r *unitRunner) run(jb job) reports.Unit {
	p := r.cache.get(jb.sc)
	// Keys may be registered or set while the run goes: read them per unit.
	rd := redact.Join(p.secrets, redact.Keys())
	s := r.sums[jb.sum]
	var out reports.Unit
	if p.loadErr != nil {
		out = reports.Unit{Scenario: reports.ScenarioRef{ID: p.ref.ID, File: p.ref.File, Digest: p.ref.Digest},
			Summarizer: s.Name, Trial: jb.trial, Status: reports.UnitError,
			Error: "loading the scenario: " + p.loadErr.Error(), Generations: []reports.Generation{}, Probes: []reports.Probe{}}
	} else {
		u := &unit{p: p, spec: s.Name, sum: s.Summarizer, agent: r.agent, trial: jb.trial, check: r.check,
			judge: r.judge, judgeGate: r.judgeGate, hard: redact.NewContext(r.hard, rd), now: r.now}
		out = u.run()
	}
	reports.RedactUnit(&out, rd)
	r.cache.done(jb.sc)
	return out
}
