package agents

import (
	"context"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/result"
)

// Reference is the offline reference agent. It reads the
// context as units (the rules, the goal, each entry of the summary with its
// fields in a fixed order, each message of the events), folded
// (internal/textmatch), and walks the probe's options in order: it picks the
// first option that has requirements (Request.Requires) all of whose
// patterns match inside some unit in a clause that affirms them, and that
// no clause of the summary or of a user or assistant message contradicts
// (internal/meaning, read as a rule or a fact: "read-only no longer
// applies" and "the session is now writable" both defeat read[- ]?only;
// tool output is data and contradicts nothing); failing that, the first option with no
// requirements; failing that, it returns an error. When a requirement is
// touched by a clause the reader cannot classify ("the read-only rule was
// softened") and nothing contradicts it, the agent answers Unsure rather
// than guess. A pattern never matches across two
// units, so the choice does not depend on the order of the summary's keys
// or entries. The reason names the patterns that matched, or the first
// pattern of each option that found nothing (and the cue, when it matched
// only where the text negates it, in the reader's words).
//
// A free-text probe gets the expected answer when all its requires
// patterns occur (affirmed) in the context, else DontKnow; a judge grades
// it.
//
// It is deterministic, offline and safe for concurrent use; the zero value
// is ready to use.
type Reference struct{}

// Decide picks an option as described on Reference.
func (Reference) Decide(ctx context.Context, req *Request) (*Decision, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var d *Decision
	var err error
	if req.Recall != nil {
		d, err = recallDecide(req)
	} else if req.FreeText() {
		d = answer(req, viewOf(req.Context))
	} else {
		d, err = pick(req, viewOf(req.Context))
	}
	if d != nil {
		d.Call = result.Call{Spec: ReferenceSpec}
	}
	return d, err
}

// Memoizable marks Reference as Memoizable: its decision depends on the
// probe and the context alone.
func (Reference) Memoizable() {}

// UsesRecall marks Reference as a RecallUser: on the recall arm it follows
// the summary's citations and searches (recallDecide).
func (Reference) UsesRecall() {}

// Local marks Reference as Local: it reads its context in the process and
// calls nothing.
func (Reference) Local() {}

// ReferenceSpec is the spec that names the reference agent.
const ReferenceSpec = "builtin:reference"

// DontKnow is the reference agent's free-text answer when its context
// does not hold what the expected answer is derived from.
const DontKnow = "I cannot tell from my context."

// answer answers a free-text probe: the expected answer (Request.Expected)
// when every requires pattern occurs, affirmed, in the context (or there
// are none), else DontKnow. A judge then grades it like any other answer.
func answer(req *Request, v *view) *Decision {
	var matched []string
	for _, r := range req.Requires {
		for _, p := range r.Patterns {
			m, why, outcome := v.read(p)
			if outcome != found {
				return &Decision{Answer: DontKnow, Reason: fmt.Sprintf("reference: pattern %q %s", p, why)}
			}
			matched = append(matched, fmt.Sprintf("%q matched %q", p, m))
		}
	}
	reason := "reference: the probe has no requires; the expected answer"
	if len(matched) > 0 {
		reason = "reference: " + strings.Join(matched, "; ")
	}
	return &Decision{Answer: req.Expected, Reason: reason}
}

// pick chooses on a view of the context; see Reference.
func pick(req *Request, v *view) (*Decision, error) {
	patterns := map[string][]string{}
	for _, r := range req.Requires {
		patterns[r.Option] = r.Patterns
	}
	var missing []string
	for _, opt := range req.Probe.Options {
		ps := patterns[opt.Key]
		if len(ps) == 0 {
			continue
		}
		var matched []string
		miss := ""
		why := ""
		for _, p := range ps {
			m, w, outcome := v.read(p)
			if outcome == unsure {
				// the context touches the requirement in words the
				// reader cannot classify: it does not guess
				return &Decision{Choice: Unsure, Reason: fmt.Sprintf("reference: %s: pattern %q %s", opt.Key, p, w)}, nil
			}
			if outcome != found {
				miss, why = p, w
				break
			}
			matched = append(matched, fmt.Sprintf("%q matched %q", p, m))
		}
		if miss == "" {
			return &Decision{Choice: opt.Key, Reason: "reference: " + strings.Join(matched, "; ")}, nil
		}
		missing = append(missing, fmt.Sprintf("%s: pattern %q %s", opt.Key, miss, why))
	}
	for _, opt := range req.Probe.Options {
		if len(patterns[opt.Key]) == 0 {
			reason := "reference: no option with requirements matched, first option without requirements"
			if len(missing) > 0 {
				reason = "reference: " + strings.Join(missing, "; ") + "; chose the first option without requirements"
			}
			return &Decision{Choice: opt.Key, Reason: reason}, nil
		}
	}
	return nil, fmt.Errorf("reference agent: probe %q: no option's requirements matched (%s) and every option has requirements", req.Probe.ID, strings.Join(missing, "; "))
}
