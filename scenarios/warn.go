package scenarios

import (
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// Placeholder is the marker that compact-eval import writes where the author
// has work to do; a scenario that still holds it is unfinished.
const Placeholder = "TODO(author)"

// Warnings returns what makes a valid scenario a weak one, as Errors with
// Warning set, sorted (nil when none). validate prints them and still exits
// 0 unless asked to be strict. The rules:
//
//   - a value that still holds the Placeholder: the title, goal, rules, an
//     event's text, an invariant's fields, a probe's question, options,
//     expect or patterns;
//   - a goal or rules text that holds an invariant's evidence (a
//     constraint's or refuted hypothesis's pattern, a correction's new
//     value, an artifact's required path, a pending operation's id): the
//     agent reads goal and rules whatever the summary keeps, so a probe that
//     needs that evidence cannot regress;
//   - a probe whose expected option's requires patterns all match text that
//     is never compacted (goal, rules, and with explicit cuts the events
//     after the last cut): it can never regress. Arrivals are left out: a
//     scenario that has them tests, on purpose, that they reach the tail;
//   - a constraint pattern that starts or ends on a word the reader (internal/meaning)
//     takes for a cue bearing on a rule ("never touch the billing table"):
//     see cueEdges.
func Warnings(list []*Scenario) ErrorList {
	var out ErrorList
	for _, s := range list {
		out = append(out, WarnScenario(s)...)
	}
	out.Sort()
	if len(out) == 0 {
		return nil
	}
	return out
}

// WarnScenario applies Warnings' rules to one scenario.
func WarnScenario(s *Scenario) ErrorList {
	w := &warner{s: s}
	w.placeholders()
	w.evidence()
	w.cueEdges()
	w.errs.Sort()
	if len(w.errs) == 0 {
		return nil
	}
	return w.errs
}

type warner struct {
	s    *Scenario
	errs ErrorList
}

func (w *warner) warnf(p result.Pos, format string, args ...any) {
	if p.Line == 0 {
		p = w.s.Pos
	}
	w.errs = append(w.errs, &Error{File: w.s.File, Pos: p, Msg: fmt.Sprintf(format, args...), Warning: true})
}

func (w *warner) placeholders() {
	s := w.s
	todo := func(p result.Pos, what string, texts ...string) {
		for _, t := range texts {
			if strings.Contains(t, Placeholder) {
				w.warnf(p, "%s still holds a %s placeholder: write it, or remove it", what, Placeholder)
				return
			}
		}
	}
	todo(s.TitlePos, "title", s.Title)
	todo(s.GoalPos, "goal", s.Goal)
	todo(s.RulesPos, "rules", s.Rules)
	for _, list := range [][]Event{s.Events, s.Arrivals} {
		for _, e := range list {
			texts := []string{e.Text}
			if r := e.ToolResult; r != nil {
				texts = append(texts, r.Text)
			}
			todo(e.Pos, fmt.Sprintf("event seq %d", e.Seq), texts...)
		}
	}
	for _, inv := range s.Invariants {
		todo(inv.Position(), fmt.Sprintf("invariant %q (%s)", inv.InvariantID(), inv.Type()), invariantTexts(inv)...)
	}
	for _, p := range s.Probes {
		texts := []string{p.Question, p.Expect}
		for _, o := range p.Options {
			texts = append(texts, o.Key, o.Description)
		}
		for _, r := range p.Requires {
			texts = append(texts, r.Patterns...)
		}
		todo(p.Pos, fmt.Sprintf("probe %q", p.ID), texts...)
	}
}

// invariantTexts returns the string fields of an invariant.
func invariantTexts(inv Invariant) []string {
	switch v := Pointer(inv).(type) {
	case *Constraint:
		return v.Match
	case *Correction:
		return []string{v.Subject, v.Old, v.New}
	case *RefutedHypothesis:
		return append(append([]string(nil), v.Match...), v.Conclusion...)
	case *PendingOperation:
		return []string{v.OpID}
	case *Artifact:
		out := append(append([]string(nil), v.Paths...), v.Required...)
		for k, d := range v.Digests {
			out = append(out, k, d)
		}
		return out
	case *Quantity:
		return append([]string{v.Unit}, v.Match...)
	case *Secret:
		return []string{v.Value}
	}
	return nil
}

// kept is a text the agent reads on the compacted arm whatever the summary
// holds, folded for matching.
type kept struct {
	where  string
	pos    result.Pos
	folded string
	raw    string
}

func (w *warner) keptTexts() (header, all []kept) {
	s := w.s
	if strings.TrimSpace(s.Goal) != "" {
		header = append(header, kept{"the goal", s.GoalPos, textmatch.Fold(s.Goal), s.Goal})
	}
	if strings.TrimSpace(s.Rules) != "" {
		header = append(header, kept{"the rules", s.RulesPos, textmatch.Fold(s.Rules), s.Rules})
	}
	all = append(all, header...)
	if len(s.Compaction.At) == 0 {
		return header, all // the cuts depend on token counts: the tail is unknown here
	}
	last := s.Compaction.At[len(s.Compaction.At)-1]
	for _, e := range s.Events {
		if e.Seq <= last {
			continue
		}
		if text := eventText(e); text != "" {
			all = append(all, kept{fmt.Sprintf("event seq %d (after the last cut)", e.Seq), e.Pos, textmatch.Fold(text), text})
		}
	}
	return header, all
}

// eventText is what an event shows an agent, roughly: its text, its call's
// name and arguments, its result.
func eventText(e Event) string {
	parts := []string{e.Text}
	if c := e.ToolCall; c != nil {
		parts = append(parts, c.Name, fmt.Sprint(c.Args))
	}
	if r := e.ToolResult; r != nil {
		parts = append(parts, r.Text)
	}
	return strings.Join(parts, "\n")
}

func (w *warner) evidence() {
	header, all := w.keptTexts()
	if len(all) == 0 {
		return
	}
	for _, inv := range w.s.Invariants {
		what := fmt.Sprintf("invariant %q (%s)", inv.InvariantID(), inv.Type())
		var patterns, literals []string
		switch v := Pointer(inv).(type) {
		case *Constraint:
			patterns = v.Match
		case *RefutedHypothesis:
			patterns = v.Conclusion
		case *Correction:
			literals = []string{v.New}
		case *Artifact:
			literals = v.Required
		case *PendingOperation:
			literals = []string{v.OpID}
		}
		for _, k := range header {
			if p, ok := matchesAny(patterns, k.folded); ok {
				w.warnf(k.pos, "%s: its evidence (pattern %q) is in %s, which the agent reads whatever the summary keeps, so no probe that needs it can regress; move it into an early event", what, p, k.where)
			}
			for _, l := range literals {
				if strings.TrimSpace(l) != "" && strings.Contains(strings.ToLower(k.raw), strings.ToLower(l)) {
					w.warnf(k.pos, "%s: its evidence (%q) is in %s, which the agent reads whatever the summary keeps, so no probe that needs it can regress; move it into an early event", what, l, k.where)
				}
			}
		}
	}
	for _, p := range w.s.Probes {
		pats := p.RequiresFor(p.Expect)
		if len(pats) == 0 {
			continue
		}
		var found []string
		at := p.Pos
		for _, pat := range pats {
			hit := false
			for _, k := range all {
				if m, ok := textmatch.Find(pat, k.folded); ok && m != "" {
					found = append(found, fmt.Sprintf("%q in %s", pat, k.where))
					if len(found) == 1 && k.pos.Line > 0 && strings.HasPrefix(k.where, "the ") {
						at = k.pos
					}
					hit = true
					break
				}
			}
			if !hit {
				found = nil
				break
			}
		}
		if found != nil {
			w.warnf(at, "probe %q can never regress: every pattern its expected option %q requires is in text that is never compacted (%s)", p.ID, p.Expect, strings.Join(found, ", "))
		}
	}
}

func matchesAny(patterns []string, folded string) (string, bool) {
	for _, p := range patterns {
		if m, ok := textmatch.Find(p, folded); ok && m != "" {
			return p, true
		}
	}
	return "", false
}
