package runner

import (
	"sort"

	"github.com/compact-eval/compact-eval/result"
)

// plan is the units of a run in result order: scenarios in id order (those
// the shard and the filters keep), then summarizers in the order given, then
// trials.
type plan struct {
	refs []Ref // the suite's scenarios
	scs  []int // indexes into refs of the planned scenarios, in id order
	jobs []job // in result order; job.sc indexes scs
}

// makePlan plans the units of suite under opts with trials trials each.
func makePlan(suite Suite, opts *Options, trials int) plan {
	p := plan{refs: suite.Refs()}
	for i, r := range p.refs {
		if opts.Shard.Has(r.ID) && opts.selects(r.ID) {
			p.scs = append(p.scs, i)
		}
	}
	sort.SliceStable(p.scs, func(i, j int) bool { return p.refs[p.scs[i]].ID < p.refs[p.scs[j]].ID })
	for si, ri := range p.scs {
		sc := p.refs[ri]
		for ui, s := range opts.Summarizers {
			for t := range trials {
				p.jobs = append(p.jobs, job{pos: len(p.jobs), sc: si, sum: ui, trial: t, key: unitKey(sc.ID, sc.Digest, s.Name, t)})
			}
		}
	}
	return p
}

// ref returns the scenario of planned index si.
func (p *plan) ref(si int) Ref { return p.refs[p.scs[si]] }

// keys returns every unit's key in result order.
func (p *plan) keys() []string {
	keys := make([]string, len(p.jobs))
	for i, jb := range p.jobs {
		keys[i] = jb.key
	}
	return keys
}

// pending returns the units the journal does not hold as finished, in
// plan order, and the number it does.
func (p *plan) pending(finished func(key string) bool) (todo []job, reused int) {
	for _, jb := range p.jobs {
		if finished(jb.key) {
			reused++
			continue
		}
		todo = append(todo, jb)
	}
	return todo, reused
}

// missing counts the units that did not finish.
func (p *plan) missing(finished func(key string) bool) int {
	n := 0
	for _, jb := range p.jobs {
		if !finished(jb.key) {
			n++
		}
	}
	return n
}

// suite lists the planned scenarios with their digests, in id order.
func (p *plan) suite() []result.SuiteScenario {
	out := make([]result.SuiteScenario, len(p.scs))
	for i, ri := range p.scs {
		out[i] = result.SuiteScenario{ID: p.refs[ri].ID, Digest: p.refs[ri].Digest}
	}
	return out
}
