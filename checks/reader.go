package checks

import (
	"fmt"
	"regexp"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/polarity"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// reading is what one clause of a summary field says about the subject of
// an invariant (internal/polarity's class reader).
type reading struct {
	l leaf
	r polarity.ClauseReading
}

// ruleSubject is the subject of a constraint: its patterns, and the event
// that states it; built once per scenario.
func (st *state) ruleSubject(inv *scenarios.Constraint) *polarity.Subject {
	if st.sd != nil {
		if s, ok := st.sd.subjects.Load(inv); ok {
			return s.(*polarity.Subject)
		}
	}
	var res []*regexp.Regexp
	for _, p := range inv.Match {
		if re, err := textmatch.Compile(p); err == nil {
			res = append(res, re)
		}
	}
	var stmts []string
	if st.sd != nil {
		for _, e := range st.sd.sc.Events {
			if e.Seq == inv.SourceSeq {
				stmts = append(stmts, textmatch.Fold(e.Text))
			}
		}
	}
	s := polarity.RuleSubject(res, stmts...)
	if st.sd != nil {
		got, _ := st.sd.subjects.LoadOrStore(inv, s)
		return got.(*polarity.Subject)
	}
	return s
}

// readPatterns reads every leaf of segs about sub, the subject's spans
// being the matches of patterns in each leaf.
func (st *state) readPatterns(segs [][]leaf, sub *polarity.Subject, patterns []string) []reading {
	fs := st.filters(patterns)
	var out []reading
	var spans []polarity.Span
	for _, s := range segs {
		for _, l := range s {
			spans = spans[:0]
			for _, f := range fs {
				if f.re == nil || !f.mayMatch(st, l) {
					continue
				}
				for _, loc := range f.re.FindAllStringIndex(l.folded, -1) {
					if loc[1] > loc[0] {
						spans = append(spans, polarity.Span{Start: loc[0], End: loc[1], Re: f.re})
					}
				}
			}
			if len(spans) == 0 && !sub.MayTouchSigned(l.lower, st.signature(&l)) {
				continue
			}
			for _, r := range st.pol(l).Read(sub, spans) {
				out = append(out, reading{l: l, r: r})
			}
		}
	}
	return out
}

// firstReading returns the first reading that says want.
func firstReading(rs []reading, want polarity.Reading) (reading, bool) {
	for _, r := range rs {
		if r.r.Reading == want {
			return r, true
		}
	}
	return reading{}, false
}

// readingAt returns the reading of the clause of l that holds offset at.
func (st *state) readingAt(rs []reading, l leaf, at int) (polarity.ClauseReading, bool) {
	for _, r := range rs {
		if r.l.ptr == l.ptr && st.pol(l).SameClause(r.r.ClauseAt, at) {
			return r.r, true
		}
	}
	return polarity.ClauseReading{}, false
}

// readingNote names what decided a reading, for a message: `deontic permit
// "may"`, `cancellation cue "no longer applies"`, `unknown word
// "softened"`.
func readingNote(r polarity.ClauseReading) string {
	switch {
	case r.Verdict.Kind != "":
		return cueNote(r.Verdict)
	case r.Class != "":
		return fmt.Sprintf("%s %s %q", r.Class, r.Sense, r.Cue)
	case r.Reading == polarity.CannotTell && r.Cue != "":
		return fmt.Sprintf("a word no table holds: %q", r.Cue)
	case r.Reading == polarity.History:
		return "reported or past, not current"
	}
	return "stated as such"
}

// uncertainMessage is the message of a check that cannot tell.
func uncertainMessage(r reading, what string) string {
	return fmt.Sprintf("%s touches %s in words the reader cannot classify: %q (%s)", r.l.ptr, what, clip.String(r.r.Clause, clipLen), readingNote(r.r))
}
