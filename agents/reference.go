package agents

import (
	"context"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/internal/transcript"
	"github.com/compact-eval/compact-eval/summarizers"
)

// Reference is the offline reference agent (DESIGN.md). It renders the
// context as text (internal/transcript.Text), folds it (internal/textmatch)
// and walks the probe's options in order: it picks the first option that
// has requirements (Request.Requires) all of whose patterns occur in the
// text; failing that, the first option with no requirements; failing that,
// it returns an error. The reason names the patterns that matched, or the
// first pattern of each option that found nothing.
//
// It is deterministic, offline and safe for concurrent use; the zero value
// is ready to use.
type Reference struct{}

// Decide picks an option as described on Reference.
func (Reference) Decide(ctx context.Context, req *Request) (*Decision, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	text := textmatch.Fold(transcript.Text(transcript.Context{
		Rules:   req.Context.Rules,
		Goal:    req.Context.Goal,
		Summary: req.Context.Summary,
		Events:  req.Context.Events,
	}))
	d, err := pick(req, text)
	if d != nil {
		d.Call = summarizers.Call{Spec: ReferenceSpec}
	}
	return d, err
}

// ReferenceSpec is the spec that names the reference agent.
const ReferenceSpec = "builtin:reference"

// pick chooses on folded text; see Reference.
func pick(req *Request, folded string) (*Decision, error) {
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
		for _, p := range ps {
			m, ok := textmatch.Find(p, folded)
			if !ok {
				miss = p
				break
			}
			matched = append(matched, fmt.Sprintf("%q matched %q", p, m))
		}
		if miss == "" {
			return &Decision{Choice: opt.Key, Reason: "reference: " + strings.Join(matched, "; ")}, nil
		}
		missing = append(missing, fmt.Sprintf("%s: pattern %q found nothing", opt.Key, miss))
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
