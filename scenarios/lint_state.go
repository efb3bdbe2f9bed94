package scenarios

import (
	"strings"

	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/result"
)

// typedState lints the invariants of a workflow's state: approval, goal,
// next_step, handoff (see Lint).
func (l *linter) typedState(p result.Pos, what string, inv Invariant) {
	switch v := Pointer(inv).(type) {
	case *Approval:
		l.approval(p, what, v)
	case *Goal:
		l.roleAt(p, what+": source_seq", v.SourceSeq, RoleUser, RoleSystem)
		l.patterns(p, what+": match", v.Match)
		l.patterns(p, what+": superseded", v.Superseded)
	case *NextStep:
		l.roleAt(p, what+": source_seq", v.SourceSeq, RoleUser, RoleSystem)
		l.patterns(p, what+": match", v.Match)
		l.patterns(p, what+": later", v.Later)
		l.patterns(p, what+": gate", v.Gate)
	case *Handoff:
		l.handoff(p, what, v)
	}
}

func (l *linter) approval(p result.Pos, what string, v *Approval) {
	l.patterns(p, what+": match", v.Match)
	e, ok := l.roleAt(p, what+": source_seq", v.SourceSeq, RoleUser, RoleSystem)
	if !ok {
		return
	}
	if v.Approver != "" && !l.namedBy(v.Approver, v.SourceSeq) {
		l.errorf(p, "%s: approver %q: neither the event at source_seq %d nor one before it names them", what, v.Approver, v.SourceSeq)
	}
	for _, sc := range v.Scope {
		if !textmatch.ContainsWord(foldLower(e.Text), foldLower(sc)) {
			l.errorf(p, "%s: scope %q: the event at source_seq %d does not name it", what, sc, v.SourceSeq)
		}
	}
	if v.Expires != "" && !textmatch.ContainsWord(foldLower(e.Text), foldLower(v.Expires)) {
		l.errorf(p, "%s: expires %q: the event at source_seq %d does not say it", what, v.Expires, v.SourceSeq)
	}
	if v.Resource != "" && !l.occursBy(v.Resource, v.SourceSeq) {
		l.errorf(p, "%s: resource %q occurs in no event at or before source_seq %d", what, v.Resource, v.SourceSeq)
	}
	if v.InvalidatedBy != 0 {
		if _, ok := l.roleAt(p, what+": invalidated_by", v.InvalidatedBy); ok && v.InvalidatedBy <= v.SourceSeq {
			l.errorf(p, "%s: invalidated_by %d must come after source_seq %d", what, v.InvalidatedBy, v.SourceSeq)
		}
	}
}

func (l *linter) handoff(p result.Pos, what string, v *Handoff) {
	l.roleAt(p, what+": source_seq", v.SourceSeq)
	l.patterns(p, what+": reason", v.Reason)
	if v.Session != "" && !l.occurs(v.Session) {
		l.errorf(p, "%s: session %q occurs in no event", what, v.Session)
	}
	for _, a := range v.Artifacts {
		if !l.occurs(a) {
			l.errorf(p, "%s: artifact %q occurs in no event", what, a)
		}
	}
	for _, op := range v.Operations {
		call, ok := l.calls[op]
		r, done := l.results[op]
		switch {
		case !ok:
			l.errorf(p, "%s: operation %q is the id of no tool_call", what, op)
		case call > v.SourceSeq:
			l.errorf(p, "%s: operation %q is called at seq %d, after source_seq %d", what, op, call, v.SourceSeq)
		case done && r.status != StatusTimeout && r.seq <= v.SourceSeq:
			l.errorf(p, "%s: operation %q has %s %s result at seq %d; an unresolved operation has no result or a timeout", what, op, article(r.status), r.status, r.seq)
		}
	}
}

// namedBy reports whether an event at or before seq names name as a
// whole word, accents and case aside.
func (l *linter) namedBy(name string, seq int) bool {
	w := foldLower(name)
	for _, e := range l.s.Events {
		if e.Seq > seq {
			break
		}
		if textmatch.ContainsWord(foldLower(e.Text), w) {
			return true
		}
	}
	return false
}

// occursBy is occurs over the events at or before seq.
func (l *linter) occursBy(text string, seq int) bool {
	for _, e := range l.s.Events {
		if e.Seq > seq {
			break
		}
		if strings.Contains(e.Text, text) || e.ToolResult != nil && strings.Contains(e.ToolResult.Text, text) ||
			e.ToolCall != nil && argsContain(e.ToolCall.Args, text) {
			return true
		}
	}
	return false
}

func foldLower(s string) string { return strings.ToLower(textmatch.Fold(s)) }
