package agents

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// FullContext is the full context of a scenario (docs/formats.md §1): rules, goal
// and every event, arrivals included, no summary.
func FullContext(s *scenarios.Scenario) Context {
	events := make([]scenarios.Event, 0, len(s.Events)+len(s.Arrivals))
	events = append(append(events, s.Events...), s.Arrivals...)
	return Context{Rules: s.Rules, Goal: s.Goal, Events: events}
}

// ProbeRequest builds the decide request (an answer request for a
// free-text probe) for probe p of s on context c, with p's requires (and
// expected answer) attached for the reference agent.
func ProbeRequest(s *scenarios.Scenario, p scenarios.Probe, arm string, c Context) *Request {
	req := NewRequest()
	req.ScenarioID = s.ID
	req.Arm = arm
	req.Probe = Question{ID: p.ID, Question: p.Question, Options: p.Options}
	if p.FreeText() {
		req.Kind, req.Probe.Options = KindAnswer, nil
		req.Expected = p.Answer
	}
	req.Context = c
	req.Requires = p.Requires
	return req
}

// CheckProbes is the self-consistency lint of a scenario: on the full
// context, the reference agent must pick each probe's expect. Each probe
// that fails gives one error, positioned at the probe, naming the requires
// pattern that found nothing (or the earlier option that matched first).
// Probes whose expect is not among the options are left to scenarios.Lint.
func CheckProbes(s *scenarios.Scenario) []*scenarios.Error {
	if len(s.Probes) == 0 {
		return nil
	}
	c := FullContext(s)
	v := newView(c)
	var errs []*scenarios.Error
	for _, p := range s.Probes {
		if p.FreeText() {
			// The answer must be derivable from the full context: every
			// requires pattern occurs there, affirmed.
			for _, pat := range p.RequiresFor(scenarios.AnswerKey) {
				if _, neg, ok := v.find(pat); !ok {
					why := "found nothing"
					if _, err := textmatch.Compile(pat); err != nil {
						why = "does not compile"
					} else if neg.why != "" {
						why = fmt.Sprintf("matches only where the text negates it (%s)", neg.why)
					}
					errs = append(errs, &scenarios.Error{File: s.File, Pos: p.Pos,
						Msg: fmt.Sprintf("probe %q: the answer is not derivable from the full context: requires pattern %q %s", p.ID, pat, why)})
					break
				}
			}
			continue
		}
		if !slices.ContainsFunc(p.Options, func(o scenarios.Option) bool { return o.Key == p.Expect }) {
			continue
		}
		d, err := pick(ProbeRequest(s, p, ArmFull, c), v)
		if err == nil && d.Choice == p.Expect {
			continue
		}
		msg := fmt.Sprintf("probe %q: on the full context the reference agent ", p.ID)
		if err != nil {
			msg += "picks nothing, want " + fmt.Sprintf("%q", p.Expect)
		} else {
			msg += fmt.Sprintf("picks %q, want %q", d.Choice, p.Expect)
		}
		msg += ": " + explain(p, d, v)
		errs = append(errs, &scenarios.Error{File: s.File, Pos: p.Pos, Msg: msg})
	}
	return errs
}

// explain says why the reference agent did not pick p.Expect.
func explain(p scenarios.Probe, d *Decision, v *view) string {
	want := p.RequiresFor(p.Expect)
	for _, pat := range want {
		if _, neg, ok := v.find(pat); !ok {
			if _, err := textmatch.Compile(pat); err != nil {
				return fmt.Sprintf("requires.%s pattern %q does not compile", p.Expect, pat)
			}
			if neg.why != "" {
				return fmt.Sprintf("requires.%s pattern %q matches only where the text negates it (%s); put the negation in the pattern if it is part of the rule", p.Expect, pat, neg.why)
			}
			return fmt.Sprintf("requires.%s pattern %q found nothing", p.Expect, pat)
		}
	}
	if d == nil {
		return "no option could be chosen"
	}
	if got := p.RequiresFor(d.Choice); len(got) > 0 {
		return fmt.Sprintf("option %q comes first and every pattern of requires.%s matches (%s); narrow them or reorder the options", d.Choice, d.Choice, strings.Join(quoteAll(got), ", "))
	}
	if len(want) == 0 {
		return fmt.Sprintf("neither has requires, and %q comes first; give %q a requires pattern", d.Choice, p.Expect)
	}
	return fmt.Sprintf("option %q has no requires and was chosen", d.Choice)
}

func quoteAll(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("%q", p)
	}
	return out
}
