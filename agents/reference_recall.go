package agents

import (
	"slices"
	"sort"
	"strings"

	"github.com/compact-eval/compact-eval/scenarios"
)

// recallDecide is the reference agent on the recall arm. It decides on the
// compacted context first; when that settles the probe (an option whose
// requirements all matched, or a free-text answer), it calls nothing.
// Otherwise it recalls, re-deciding after each call and stopping as soon
// as the probe is settled or the budget is spent:
//
//  1. citations: the seqs cited (source_seq, resolved_by) by the summary's
//     entries on the probe's subject — entries sharing a word (three
//     letters or more, folded) with the question or an option — best
//     first (most shared words, then document order), skipping events
//     already in its context, asked by seq, as many per call as the
//     per-call cap of events allows;
//  2. search: the probe's own words, the question, then the question with
//     its options, each repeated while it returns events.
//
// The recalled events join the context in seq order, before the events
// the summary did not cover. The last decision is the answer.
func recallDecide(req *Request) (*Decision, error) {
	rc := req.Recall
	base := req.Context
	var recalled []scenarios.Event
	decide := func() (*Decision, bool, error) {
		v := viewOf(base) // the compacted context's shared reading
		if len(recalled) > 0 {
			c := base
			c.reading = nil
			c.Events = append(append(make([]scenarios.Event, 0, len(recalled)+len(base.Events)), recalled...), base.Events...)
			v = newView(c)
		}
		if req.FreeText() {
			d := answer(req, v)
			return d, d.Answer != DontKnow, nil
		}
		d, err := pick(req, v)
		return d, err == nil && settledChoice(req, d.Choice), err
	}
	finish := func(d *Decision) *Decision {
		if d != nil {
			d.RecallCalls = rc.Calls()
		}
		return d
	}
	d, ok, err := decide()
	if ok {
		return finish(d), err
	}
	add := func(got []RecalledEvent) {
		for _, e := range got {
			recalled = append(recalled, e.Event)
		}
		sort.SliceStable(recalled, func(i, j int) bool { return recalled[i].Seq < recalled[j].Seq })
	}
	// 1. the citations on the probe's subject
	seqs := subjectCitations(req, rc.Store().Cited())
	for len(seqs) > 0 && rc.Left() > 0 {
		n := min(len(seqs), rc.Limits().Events)
		got, gerr := rc.Get(seqs[:n])
		seqs = seqs[n:]
		if gerr != nil {
			break
		}
		if len(got) == 0 {
			continue
		}
		add(got)
		if d, ok, err = decide(); ok {
			return finish(d), err
		}
	}
	// 2. the probe's own words
	queries := []string{req.Probe.Question}
	if len(req.Probe.Options) > 0 {
		var b strings.Builder
		b.WriteString(req.Probe.Question)
		for _, o := range req.Probe.Options {
			b.WriteString(" ")
			b.WriteString(o.Description)
		}
		queries = append(queries, b.String())
	}
	for _, q := range queries {
		for rc.Left() > 0 {
			got, serr := rc.Search(q)
			if serr != nil || len(got) == 0 {
				break
			}
			add(got)
			if d, ok, err = decide(); ok {
				return finish(d), err
			}
		}
	}
	return finish(d), err
}

// settledChoice reports whether choice settles a probe: an option with
// requirements (which pick returns only when they all matched), not the
// fallback to an option without, nor Unsure.
func settledChoice(req *Request, choice string) bool {
	if choice == Unsure {
		return false
	}
	for _, r := range req.Requires {
		if r.Option == choice && len(r.Patterns) > 0 {
			return true
		}
	}
	return false
}

// subjectCitations returns the seqs the summary cites in entries on the
// probe's subject (see recallDecide), best first, without the events
// already in the context and without repeats.
func subjectCitations(req *Request, cited []Citation) []int {
	var subject strings.Builder
	subject.WriteString(req.Probe.Question)
	for _, o := range req.Probe.Options {
		subject.WriteString(" ")
		subject.WriteString(o.Description)
	}
	words := searchTerms(subject.String())
	inContext := map[int]bool{}
	for _, e := range req.Context.Events {
		inContext[e.Seq] = true
	}
	type ranked struct{ seq, score, order int }
	var rs []ranked
	seen := map[int]bool{}
	for i, c := range cited {
		if inContext[c.Seq] || seen[c.Seq] {
			continue
		}
		score := 0
		for _, t := range searchTerms(c.Entry) {
			if _, ok := slices.BinarySearch(words, t); ok {
				score++
			}
		}
		if score > 0 {
			seen[c.Seq] = true
			rs = append(rs, ranked{c.Seq, score, i})
		}
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].score > rs[j].score })
	out := make([]int, len(rs))
	for i, r := range rs {
		out[i] = r.seq
	}
	return out
}
