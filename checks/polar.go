package checks

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/polarity"
	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// Kinds of cue the checks count (docs/polarity.md has the table).
var (
	// contradicts: the cues that turn a rule or a value into its opposite.
	contradicts = polarity.Contradiction
	// notCurrent: a value so marked is not the current one.
	notCurrent = append(append([]polarity.Kind(nil), polarity.Contradiction...), polarity.Supersession)
	// notCurrentOrFormer adds "was", "previously": what the correction check
	// accepts for an old value.
	notCurrentOrFormer = append(append([]polarity.Kind(nil), notCurrent...), polarity.Former)
	// unfinished: what keeps an operation from being claimed done.
	unfinished = []polarity.Kind{polarity.Negation, polarity.Hedge, polarity.Cancellation, polarity.Retraction, polarity.Mistake}
	// notLive: what marks an artifact name as not the live one.
	notLive = []polarity.Kind{polarity.Stale, polarity.Negation, polarity.Supersession, polarity.Cancellation, polarity.Retraction, polarity.Former}
)

// polarities caches the polarity reading of the summary's fields.
type polarities struct {
	mu     sync.Mutex
	folded map[string]*polarity.Text // by pointer, on leaf.folded
	raw    map[string]*polarity.Text // by pointer, on leaf.text
}

// pol returns the polarity reading of a leaf's folded text (offsets of
// textmatch matches).
func (st *state) pol(l leaf) *polarity.Text {
	st.pols.mu.Lock()
	defer st.pols.mu.Unlock()
	if st.pols.folded == nil {
		st.pols.folded = map[string]*polarity.Text{}
	}
	p := st.pols.folded[l.ptr]
	if p == nil {
		p = polarity.New(l.folded)
		st.pols.folded[l.ptr] = p
	}
	return p
}

// polRaw returns the polarity reading of a leaf's text as written (offsets
// of quantity.Parse and findToken).
func (st *state) polRaw(l leaf) *polarity.Text {
	if l.text == l.folded {
		// A polarity reading depends on the text alone: the same text
		// read twice is the same reading.
		return st.pol(l)
	}
	st.pols.mu.Lock()
	defer st.pols.mu.Unlock()
	if st.pols.raw == nil {
		st.pols.raw = map[string]*polarity.Text{}
	}
	p := st.pols.raw[l.ptr]
	if p == nil {
		p = polarity.New(l.text)
		st.pols.raw[l.ptr] = p
	}
	return p
}

// occurrence is one match of a pattern in a field, with what its clause
// says about it.
type occurrence struct {
	l       leaf
	pattern string
	match   string
	v       polarity.Verdict
}

// occurrences returns every match of patterns in leaves, in order, judged
// for kinds. Invalid patterns are skipped (badPattern reports them).
func (st *state) occurrences(leaves []leaf, patterns []string, kinds []polarity.Kind) []occurrence {
	var out []occurrence
	for _, l := range leaves {
		for _, p := range patterns {
			re, err := textmatch.Compile(p)
			if err != nil || !textmatch.MayMatch(re, l.lower) {
				continue
			}
			for _, loc := range re.FindAllStringIndex(l.folded, -1) {
				if loc[0] == loc[1] {
					continue
				}
				v := st.pol(l).Judge(loc[0], loc[1], re, kinds...)
				out = append(out, occurrence{l: l, pattern: p, match: l.folded[loc[0]:loc[1]], v: v})
			}
		}
	}
	return out
}

// firstAffirmed and firstNegated pick from occurrences.
func firstAffirmed(occ []occurrence) (occurrence, bool) {
	for _, o := range occ {
		if o.v.Kind == "" {
			return o, true
		}
	}
	return occurrence{}, false
}

func firstNegated(occ []occurrence) (occurrence, bool) {
	for _, o := range occ {
		if o.v.Negated() {
			return o, true
		}
	}
	return occurrence{}, false
}

// cueNote names a cue for a message: `cancellation cue "no longer applies"`.
func cueNote(v polarity.Verdict) string {
	return fmt.Sprintf("%s cue %q", v.Kind, v.Cue)
}

// withoutSupersedes drops corrections[].supersedes: it holds an old value
// and counts only as that.
func withoutSupersedes(leaves []leaf) []leaf {
	if !slices.ContainsFunc(leaves, func(l leaf) bool { return isSupersedes(l.ptr) }) {
		return leaves
	}
	out := make([]leaf, 0, len(leaves))
	for _, l := range leaves {
		if isSupersedes(l.ptr) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// current is withoutSupersedes(st.leaves), computed once per summary;
// callers must not modify it.
func (st *state) current() []leaf {
	st.currentOnce.Do(func() { st.currentLeaves = withoutSupersedes(st.leaves) })
	return st.currentLeaves
}

// currentOutsideHypotheses is current() without the hypotheses fields,
// computed once per summary; callers must not modify it.
func (st *state) currentOutsideHypotheses() []leaf {
	st.outsideOnce.Do(func() {
		st.outsideHyp = make([]leaf, 0, len(st.current()))
		for _, l := range st.current() {
			if fieldOf(l.ptr) != "hypotheses" {
				st.outsideHyp = append(st.outsideHyp, l)
			}
		}
	})
	return st.outsideHyp
}

func isSupersedes(ptr string) bool {
	return strings.HasPrefix(ptr, "/corrections/") && strings.HasSuffix(ptr, "/supersedes")
}

// matchesAny reports whether any pattern matches folded text.
func matchesAny(patterns []string, folded string) bool {
	_, _, ok := textmatch.FindAny(patterns, folded)
	return ok
}

// clipQ quotes text for a message.
func clipQ(s string) string { return fmt.Sprintf("%q", clip.String(s, clipLen)) }

// findAnyLeaf returns the first of patterns that matches leaf l (folded),
// skipping the regexps that cannot match (textmatch.MayMatch).
func findAnyLeaf(patterns []string, l leaf) (string, bool) {
	for _, p := range patterns {
		re, err := textmatch.Compile(p)
		if err != nil || !textmatch.MayMatch(re, l.lower) {
			continue
		}
		if re.MatchString(l.folded) {
			return p, true
		}
	}
	return "", false
}
