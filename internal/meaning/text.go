package meaning

import (
	"regexp"
	"strings"
	"sync"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// Text is one field of a summary (or one event), tokenized and cut into
// clauses once; what each clause holds of the word table is found on first
// use. A Text is safe for concurrent use.
type Text struct {
	s       string
	toks    []Token
	clauses []Clause
	// inParens is set for the tokens inside brackets or parentheses;
	// inCode for those inside a `code span`.
	inParens, inCode []bool
	// pointers are the tokens that point back by position ("the
	// former"), found once (anaphora.go).
	pointers []int

	mu   sync.Mutex
	hits [][]Hit // by clause; nil until found
	// lower is the text lower-cased when that is ASCII ("" otherwise),
	// made on first use.
	lower *string
}

// Hit is a phrase of the word table found in a text: its class and
// sense, tokens T0 to T1 (exclusive).
type Hit struct {
	Class  Class
	Sense  string
	T0, T1 int
}

// New reads text, which should be folded (textmatch.Fold).
func New(text string) *Text {
	toks := tokenize(text)
	t := &Text{s: text, toks: toks, clauses: clauses(toks), inParens: bracketed(toks), inCode: coded(toks)}
	t.pointers = t.findPointers()
	return t
}

// String returns the text.
func (t *Text) String() string { return t.s }

// Clauses returns the text's clauses; callers must not modify them.
func (t *Text) Clauses() []Clause { return t.clauses }

// ClauseText returns the words of clause ci.
func (t *Text) ClauseText(ci int) string {
	c := t.clauses[ci]
	return t.s[c.A:c.B]
}

// ClauseAt returns the clause that holds byte offset off, or -1.
func (t *Text) ClauseAt(off int) int {
	for i, c := range t.clauses {
		if off >= c.A && off < c.B {
			return i
		}
	}
	return -1
}

// hitsIn returns the phrases of the word table in clause ci, and in the
// heading that opens it, in order of their first token.
func (t *Text) hitsIn(ci int) []Hit {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.hits == nil {
		t.hits = make([][]Hit, len(t.clauses))
	}
	if t.hits[ci] == nil {
		c := t.clauses[ci]
		var hs []Hit
		// headings first, outermost first ("Hypothesis (refuted at #10):
		// stale statistics: nobody ran ANALYZE")
		var heads []int
		for h, depth := c.Heading, 0; h >= 0 && depth < 3; h, depth = t.clauses[h].Heading, depth+1 {
			heads = append([]int{h}, heads...)
		}
		for _, h := range heads {
			hs = findHits(t.toks, t.clauses[h].T0, t.clauses[h].T1, hs)
		}
		hs = findHits(t.toks, c.T0, c.T1, hs)
		if hs == nil {
			hs = []Hit{}
		}
		t.hits[ci] = hs
	}
	return t.hits[ci]
}

// findHits appends to out every phrase of the table that toks[from:to]
// holds.
func findHits(toks []Token, from, to int, out []Hit) []Hit {
	byFirst := lex().byFirst
	for i := from; i < to; i++ {
		for _, p := range byFirst[toks[i].W] {
			if i+len(p.words) > to {
				continue
			}
			ok := true
			for k := 1; k < len(p.words) && ok; k++ {
				ok = toks[i+k].W == p.words[k]
			}
			if ok {
				out = append(out, Hit{Class: p.class, Sense: p.sense, T0: i, T1: i + len(p.words)})
			}
		}
	}
	return out
}

// hitsOf returns the hits of clause ci whose class is in want, leaving out
// a hit that lies inside a longer hit of want ("no" inside "no need to",
// "ruled out" inside "not ruled out").
func (t *Text) hitsOf(ci int, want ...Class) []Hit {
	all := t.hitsIn(ci)
	wanted := func(h Hit) bool {
		for _, w := range want {
			if h.Class == w {
				return true
			}
		}
		return false
	}
	n := 0
	for _, h := range all {
		if wanted(h) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	buf := make([]Hit, 2*n) // in, then out: one allocation
	in, out := buf[:0:n], buf[n:n]
	for _, h := range all {
		if wanted(h) {
			in = append(in, h)
		}
	}
	for i, h := range in {
		inside := false
		for j, o := range in {
			if j != i && o.T0 <= h.T0 && h.T1 <= o.T1 && o.T1-o.T0 > h.T1-h.T0 {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, h)
		}
	}
	return out
}

// matchesIn returns the byte ranges where re matches in the sentence of
// clause ci and ends in ci, cut to start no earlier than ci ("keep an eye
// on the CDN: it probably adds latency" is judged where the match ends,
// past the colon). A match never runs across a sentence's end.
func (t *Text) matchesIn(ci int, re *regexp.Regexp) [][]int {
	c := t.clauses[ci]
	a, b := c.A, c.B
	for k := ci - 1; k >= 0 && t.clauses[k].Sent == c.Sent; k-- {
		a = t.clauses[k].A
	}
	if t.cannotMatch(re, a, b) {
		return nil
	}
	var out [][]int
	for _, m := range re.FindAllStringIndex(t.s[a:b], -1) {
		start, end := a+m[0], a+m[1]
		if end <= start || end <= c.A {
			continue
		}
		out = append(out, []int{max(start, c.A), end})
	}
	return out
}

// cannotMatch reports whether re cannot match in bytes a to b of the
// text: the text is ASCII and that stretch of it, lower-cased, holds none
// of what every match needs (textmatch.Need), so the regexp need not run.
func (t *Text) cannotMatch(re *regexp.Regexp, a, b int) bool {
	t.mu.Lock()
	if t.lower == nil {
		low := strings.ToLower(t.s)
		if !textmatch.IsASCII(low) || len(low) != len(t.s) {
			low = ""
		}
		t.lower = &low
	}
	low := *t.lower
	t.mu.Unlock()
	return low != "" && !textmatch.MayMatchASCII(re, low[a:b])
}

// tokenRange returns the tokens of clause ci that bytes a to b overlap.
func (t *Text) tokenRange(ci, a, b int) (int, int) {
	c := t.clauses[ci]
	t0, t1 := -1, -1
	for i := c.T0; i < c.T1; i++ {
		if t.toks[i].B > a && t.toks[i].A < b {
			if t0 < 0 {
				t0 = i
			}
			t1 = i + 1
		}
	}
	return t0, t1
}

// WordSet returns the distinct words of the text (lower-cased tokens).
func (t *Text) WordSet() []string {
	seen := map[string]bool{}
	var out []string
	for _, tk := range t.toks {
		if tk.Word && !seen[tk.W] {
			seen[tk.W] = true
			out = append(out, tk.W)
		}
	}
	return out
}

// bracketed marks the tokens inside (…) or […].
func bracketed(toks []Token) []bool {
	out := make([]bool, len(toks))
	depth := 0
	for i, tk := range toks {
		switch tk.W {
		case "(", "[":
			depth++
		case ")", "]":
			if depth > 0 {
				depth--
			}
		default:
			out[i] = depth > 0
		}
	}
	return out
}

// coded marks the tokens inside `…`.
func coded(toks []Token) []bool {
	out := make([]bool, len(toks))
	in := false
	for i, tk := range toks {
		if tk.W == "`" {
			in = !in
			continue
		}
		out[i] = in
	}
	return out
}
