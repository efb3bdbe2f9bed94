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
	once sync.Once
	// the leaves holding a word: wordID[w] is its id, and the leaves are a
	// list threaded through held, from held[wordAt[id]] by next (last leaf
	// first); one map and two slices, where a slice per word cost an
	// allocation each
	wordID map[string]int32
	wordAt []int32
	held   []heldBy

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

// rawText returns leaf l read as written (meaning.New(l.text)), where the
// offsets of its quantities and dates hold: the leaf's mtext when folding
// changed nothing, read once per summary.
func (st *state) rawText(l leaf) *meaning.Text {
	if l.text == l.folded {
		return st.mtext(l)
	}
	return meaning.New(l.text)
}

// heldBy is a leaf holding a word, and the index in texts.held of the
// leaf before it holding the same word (-1: none).
type heldBy struct{ leaf, next int32 }

// index indexes the words of every leaf once. An ASCII leaf's words are
// read from its lower-cased copy (the same words, already lower-cased:
// meaning.FuzzWordSeq), so most need no copy of their own.
func (st *state) index() {
	m := &st.mtexts
	m.once.Do(func() {
		n := 0
		for _, l := range st.leaves {
			n += len(l.folded)
		}
		m.wordID = make(map[string]int32, 4*len(st.leaves))
		m.held = make([]heldBy, 0, n/6) // a word and a space: six bytes or more, mostly
		for i, l := range st.leaves {
			text := l.folded
			if l.ascii {
				text = l.lower
			}
			for w := range meaning.WordSeq(text) {
				id, ok := m.wordID[w]
				if !ok {
					id = int32(len(m.wordAt))
					m.wordID[w] = id
					m.wordAt = append(m.wordAt, -1)
				}
				if at := m.wordAt[id]; at < 0 || m.held[at].leaf != int32(i) {
					m.held = append(m.held, heldBy{int32(i), at})
					m.wordAt[id] = int32(len(m.held) - 1)
				}
			}
		}
	})
}

// markHolding sets may[i] for each leaf i that holds word w.
func (st *state) markHolding(w string, may []bool) {
	m := &st.mtexts
	id, ok := m.wordID[w]
	if !ok {
		return
	}
	for at := m.wordAt[id]; at >= 0; at = m.held[at].next {
		may[m.held[at].leaf] = true
	}
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
	may := make([]bool, len(st.leaves))
	for _, w := range sub.Triggers() {
		st.markHolding(w, may)
	}
	fs := st.filters(patterns)
	var out []found
	for _, seg := range segs {
		for _, l := range seg {
			if !(l.i > 0 && l.i <= len(may) && may[l.i-1]) && !st.mayMatchAny(fs, l) {
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
