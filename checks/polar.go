package checks

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// segments returns leaves without those drop selects, as the runs of
// leaves between them (in order, sharing leaves' memory): what a copy
// would hold, without copying it.
func segments(leaves []leaf, drop func(leaf) bool) [][]leaf {
	var out [][]leaf
	start := 0
	for i, l := range leaves {
		if drop(l) {
			if i > start {
				out = append(out, leaves[start:i])
			}
			start = i + 1
		}
	}
	if start < len(leaves) {
		out = append(out, leaves[start:])
	}
	return out
}

func supersedesLeaf(l leaf) bool { return isSupersedes(l.ptr) }

// current is st.leaves without corrections[].supersedes (it holds an old
// value and counts only as that), as segments, computed once per summary;
// callers must not modify it.
func (st *state) current() [][]leaf {
	st.currentOnce.Do(func() { st.currentLeaves = segments(st.leaves, supersedesLeaf) })
	return st.currentLeaves
}

// currentFlat is current() joined into one list, once per summary;
// callers must not modify it (its capacity is its length, so an append
// copies).
func (st *state) currentFlat() []leaf {
	st.currentFlatOnce.Do(func() {
		f := flatten(st.current())
		st.currentFlatLeaves = f[:len(f):len(f)]
	})
	return st.currentFlatLeaves
}

// currentOutsideHypotheses is current() without the hypotheses fields,
// computed once per summary; callers must not modify it.
func (st *state) currentOutsideHypotheses() [][]leaf {
	st.outsideOnce.Do(func() {
		st.outsideHyp = segments(st.leaves, func(l leaf) bool { return isSupersedes(l.ptr) || fieldOf(l.ptr) == "hypotheses" })
	})
	return st.outsideHyp
}

func isSupersedes(ptr string) bool {
	return strings.HasPrefix(ptr, "/corrections/") && strings.HasSuffix(ptr, "/supersedes")
}

// filter is a pattern compiled, with what textmatch.MayMatch would read
// for it, worked out once per summary rather than once per field.
type filter struct {
	re   *regexp.Regexp // nil: the pattern does not compile
	need []string       // one of them is in every match in ASCII text
	has  bool           // need is known
	// may[k] is set when ASCII leaf k (st.leaves[k]) may hold one of
	// need: it does, or one starts in it and runs on into the next (which
	// only a need with a newline could), so a clear bit means the leaf
	// cannot match. nil when has is false.
	may []bool
}

// filters returns the filter of each pattern, cached per summary.
func (st *state) filters(patterns []string) []*filter {
	st.filterMu.Lock()
	defer st.filterMu.Unlock()
	if st.filterOf == nil {
		st.filterOf = map[string]*filter{}
		var b strings.Builder
		n, count := 0, 0
		for _, l := range st.leaves {
			if l.ascii {
				n, count = n+len(l.lower)+1, count+1
			}
		}
		b.Grow(n)
		st.asciiAt = make([]asciiSpan, 0, count)
		for k, l := range st.leaves {
			if l.ascii {
				st.asciiAt = append(st.asciiAt, asciiSpan{off: b.Len(), leaf: k})
				b.WriteString(l.lower)
				b.WriteByte('\n')
			}
		}
		st.asciiLower = b.String()
	}
	out := make([]*filter, len(patterns))
	for i, p := range patterns {
		f, ok := st.filterOf[p]
		if !ok {
			f = &filter{}
			if re, err := textmatch.Compile(p); err == nil {
				f.re = re
				f.need, f.has = textmatch.Need(re)
				if f.has {
					f.may = st.mayHold(f.need)
				}
			}
			st.filterOf[p] = f
		}
		out[i] = f
	}
	return out
}

// mayMatch is textmatch.MayMatch(f.re, l.lower).
func (f *filter) mayMatch(st *state, l leaf) bool {
	if !f.has || !l.ascii {
		return true
	}
	if st.own(l) {
		return f.may[l.i-1]
	}
	return containsAnyOf(l.lower, f.need)
}

// asciiSpan is where an ASCII leaf's lower text starts in st.asciiLower.
type asciiSpan struct{ off, leaf int }

// mayHold marks the ASCII leaves in which one of need occurs, reading
// st.asciiLower once per need and skipping to the next leaf at each find,
// rather than searching each leaf on its own.
func (st *state) mayHold(need []string) []bool {
	may := make([]bool, len(st.leaves))
	text := st.asciiLower
	for _, x := range need {
		r := rarestByte(x)
		for off := 0; off < len(text); {
			j := indexRare(text[off:], x, r)
			if j < 0 {
				break
			}
			pos := off + j
			// the leaf whose text holds pos (or the newline after it)
			a := sort.Search(len(st.asciiAt), func(k int) bool { return st.asciiAt[k].off > pos }) - 1
			may[st.asciiAt[a].leaf] = true
			if a+1 >= len(st.asciiAt) {
				break
			}
			off = st.asciiAt[a+1].off
		}
	}
	return may
}

// byteRank orders lower-case ASCII bytes from the most common in English
// prose (space, e, t, …) to the least; a byte absent from the list ranks
// as rarer than all of them. It only guides indexRare's choice of byte.
var byteRank = func() (r [256]uint8) {
	const common = " etaoinsrhldcumfpgwyb0123456789vk.,-/xjqz"
	for i := 0; i < len(common); i++ {
		r[common[i]] = uint8(len(common) - i)
	}
	return r
}()

// rarestByte is the index in x of its byte least common in prose.
func rarestByte(x string) int {
	best := 0
	for i := 1; i < len(x); i++ {
		if byteRank[x[i]] < byteRank[x[best]] {
			best = i
		}
	}
	return best
}

// indexRare is strings.Index(s, x) for r = rarestByte(x) (any index in x
// gives the same result): it jumps by IndexByte to each place of x[r] and
// compares x around it, so a need such as "read only" is looked for at its
// 'y's rather than at every 'r' of the text, as strings.Index would.
func indexRare(s, x string, r int) int {
	if len(x) <= 1 {
		return strings.Index(s, x)
	}
	c := x[r]
	for i := r; i < len(s); i++ {
		j := strings.IndexByte(s[i:], c)
		if j < 0 {
			return -1
		}
		i += j
		start := i - r
		if start+len(x) > len(s) {
			return -1
		}
		if s[start:start+len(x)] == x {
			return start
		}
	}
	return -1
}

func containsAnyOf(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
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
// fs is st.filters(patterns).
func (st *state) findAnyLeaf(patterns []string, fs []*filter, l leaf) (string, bool) {
	for i, p := range patterns {
		re := fs[i].re
		if re == nil || !fs[i].mayMatch(st, l) {
			continue
		}
		if re.MatchString(l.folded) {
			return p, true
		}
	}
	return "", false
}
