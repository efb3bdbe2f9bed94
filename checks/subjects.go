package checks

import (
	"regexp"
	"sync"

	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// The subjects of a scenario's invariants, as the reader binds clauses to
// them (internal/meaning), built once per scenario.

// subjectOf returns the subject of an invariant, built by build once per
// scenario.
func (st *state) subjectOf(inv scenarios.Invariant, build func() *meaning.Subject) *meaning.Subject {
	if st.sd == nil {
		return build()
	}
	if s, ok := st.sd.msubjects.Load(inv); ok {
		return s.(*meaning.Subject)
	}
	got, _ := st.sd.msubjects.LoadOrStore(inv, build())
	return got.(*meaning.Subject)
}

// compiled returns the patterns that compile (badPattern reports the
// others).
func compiled(patterns []string) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, p := range patterns {
		if re, err := textmatch.Compile(p); err == nil {
			out = append(out, re)
		}
	}
	return out
}

// eventText is the folded text of the event at seq ("" when none).
func (st *state) eventText(seq int) string {
	if st.sd == nil {
		return ""
	}
	if i := st.sd.eventIndex(seq); i >= 0 {
		return textmatch.Fold(st.sd.raw[i])
	}
	return ""
}

// ruleSubjectOf is a constraint's subject: its patterns, the concepts they
// and the statement at source_seq name, its targets.
func (st *state) ruleSubjectOf(inv *scenarios.Constraint) *meaning.Subject {
	return st.subjectOf(inv, func() *meaning.Subject {
		return meaning.RuleSubject(compiled(inv.Match), st.eventText(inv.SourceSeq), inv.Target)
	})
}

// sourceText is a statement read, for the modifiers it carries.
func sourceText(folded string) *meaning.Text {
	if folded == "" {
		return nil
	}
	return meaning.New(folded)
}

// texts caches the reader's view of each leaf of a summary: the words of
// every leaf, indexed once; a leaf's *meaning.Text, built the first time a
// check reads that leaf (most leaves are never read: readAcross reads only
// those whose words may bind a clause to its subject).
type texts struct {
	once  sync.Once
	words map[string][]int // a word of the leaves -> the leaves holding it

	mu    sync.Mutex
	byLef []*meaning.Text // by leaf index; nil until read
}

// mtext returns the reader's view of leaf l (its folded text).
func (st *state) mtext(l leaf) *meaning.Text {
	if !st.own(l) {
		return meaning.New(l.folded)
	}
	m := &st.mtexts
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byLef == nil {
		m.byLef = make([]*meaning.Text, len(st.leaves))
	}
	if m.byLef[l.i-1] == nil {
		m.byLef[l.i-1] = meaning.New(l.folded)
	}
	return m.byLef[l.i-1]
}

// index indexes the words of every leaf once. An ASCII leaf's words are
// read from its lower-cased copy (the same words, already lower-cased:
// meaning.FuzzWordSeq), so most need no copy of their own.
func (st *state) index() {
	st.mtexts.once.Do(func() {
		words := make(map[string][]int, 4*len(st.leaves))
		for i, l := range st.leaves {
			text := l.folded
			if l.ascii {
				text = l.lower
			}
			for w := range meaning.WordSeq(text) {
				if at := words[w]; len(at) == 0 || at[len(at)-1] != i {
					words[w] = append(at, i)
				}
			}
		}
		st.mtexts.words = words
	})
}

// found is a clause of a leaf that touches a subject, with its reading.
type found struct {
	l leaf
	r meaning.Reading
}

// readAcross reads every leaf of segs that may touch sub: one where a
// pattern may match or that holds a word that binds a clause to it.
func (st *state) readAcross(sub *meaning.Subject, patterns []string, segs [][]leaf) []found {
	st.index()
	may := map[int]bool{}
	for _, w := range sub.Triggers() {
		for _, i := range st.mtexts.words[w] {
			may[i] = true
		}
	}
	fs := st.filters(patterns)
	var out []found
	for _, seg := range segs {
		for _, l := range seg {
			if !may[l.i-1] && !st.mayMatchAny(fs, l) {
				continue
			}
			for _, r := range st.mtext(l).Read(sub) {
				out = append(out, found{l, r})
			}
		}
	}
	return out
}

func (st *state) mayMatchAny(fs []*filter, l leaf) bool {
	for _, f := range fs {
		if f.re != nil && f.mayMatch(st, l) {
			return true
		}
	}
	return false
}

// strongest returns the first reading of the strongest verdict in rs:
// contradicts, then unclear, then restates.
func strongest(rs []found) (found, bool) {
	var best found
	ok := false
	for _, f := range rs {
		if !ok || f.r.Verdict > best.r.Verdict {
			best, ok = f, true
		}
	}
	return best, ok
}
