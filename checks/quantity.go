package checks

import (
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/internal/quantity"
	"github.com/compact-eval/compact-eval/scenarios"
)

// QuantityCheck checks a `quantity` invariant: a number with its unit
// survives with the same value and unit, in any usual spelling, and the
// summary does not take it back.
//
// Rule: some field of the summary (text alone on a text-only summary; never
// corrections[].supersedes, which holds an old value), and when match
// patterns are given a field that also matches one of them, states a
// quantity equal to the invariant's value and unit (package
// internal/quantity: "50,000 tokens" = "50 000 tokens" = "50k tokens";
// "30 s" = "30 sec" = "30 segundos"; "80 %" = "80 percent"; 30 s = 30000 ms)
// in a clause that affirms it (internal/meaning). An occurrence that a
// negation, cancellation, permission, retraction, mistake or supersession
// cue bears on ("the 30 s timeout was a typo for 30 ms", "not 50 rows/s")
// is a contradiction: fail, naming the pointer and the cue. A limit stays a
// limit ("must not exceed 800 ms" states 800 ms). Fail says what was
// wanted and, when the summary states a near miss (the same number in
// another unit, or the same unit with another number), names it and where:
// "want 30 s; found 30 ms at /constraints/0/text". With match patterns, a
// value kept in one field does not hide the same number in another unit
// that another clause gives the same subject ("upstream timeout 30 ms"
// beside "upstream timeout 30 s"): fail, two values for one limit. Skip
// while the quantity is first stated after the cut.
type QuantityCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.Quantity
}

// Check implements Check.
func (c QuantityCheck) Check(in *Input) []result.CheckResult {
	if c.Inv == nil {
		return nilInvariant(result.TypeQuantity)
	}
	inv := c.Inv
	first := 0
	if in.Scenario != nil {
		first = dataFor(in.Scenario).firstQuantitySeq(inv)
	}
	st, r, ok := patternedInvariant(in, inv, first, inv.Match)
	if !ok {
		return []result.CheckResult{r}
	}
	want := quantity.Format(inv.Value, inv.Unit)
	leaves := st.leaves
	if st.sum.TextOnly() {
		leaves = st.textLeaves()
	}
	var near []result.Evidence
	// unbound is the first statement of the figure in a sentence that
	// names no match (the subject's words are elsewhere in the field)
	var kept, unsure, unbound *result.Evidence
	fs := st.filters(inv.Match)
	src := st.sourceOf(first)
	for _, l := range leaves {
		pattern := ""
		if len(inv.Match) > 0 {
			p, ok := st.findAnyLeaf(inv.Match, fs, l)
			if !ok {
				continue
			}
			pattern = p
		}
		for _, q := range st.quantities(l) {
			if q.Is(inv.Value, inv.Unit) {
				if isSupersedes(l.ptr) {
					near = append(near, result.Evidence{Pointer: l.ptr, Seq: first, Text: q.Text, Pattern: pattern, Note: "in supersedes, which holds an old value"})
					continue
				}
				rd := st.rawText(l).ReadValue(q.Start, q.End, meaning.Figure, src)
				switch {
				case rd.Reported:
				case rd.Verdict == meaning.Contradicts:
					return []result.CheckResult{decide(r, result.Fail, result.DecidedStatement, fmt.Sprintf("%s takes back %s: %s (%s)", l.ptr, want, clipQ(l.text), rd.Why),
						result.Evidence{Pointer: l.ptr, Seq: first, Text: clip.String(l.text, clipLen), Pattern: pattern, Note: rd.Why})}
				case rd.Verdict == meaning.Unclear && unsure == nil:
					unsure = &result.Evidence{Pointer: l.ptr, Seq: first, Text: clip.String(l.text, clipLen), Pattern: pattern,
						Note: fmt.Sprintf("%s states %s in words the reader cannot read plainly: %s (%s)", l.ptr, want, clipQ(rd.Text), rd.Why)}
				case rd.Verdict == meaning.Restates && pattern != "" && !st.quantityBound(l, fs, q):
					if unbound == nil {
						unbound = &result.Evidence{Pointer: l.ptr, Seq: first, Text: clip.String(l.text, clipLen), Pattern: pattern,
							Note: fmt.Sprintf("%s states %s in a sentence that does not name its subject (%s): %s", l.ptr, want, anyOf(inv.Match), clipQ(l.text))}
					}
				case rd.Verdict == meaning.Restates && kept == nil:
					kept = &result.Evidence{Pointer: l.ptr, Seq: first, Text: q.Text, Pattern: pattern}
				}
				continue
			}
			sameValue := q.Value == inv.Value && q.Unit != ""
			if sameValue || q.Unit != "" && quantity.SameDimension(q.Unit, inv.Unit) {
				e := result.Evidence{Pointer: l.ptr, Seq: first, Text: q.Text, Pattern: pattern, Note: "near miss"}
				if sameValue {
					// the same number in another unit is the likeliest swap
					near = append([]result.Evidence{e}, near...)
				} else {
					near = append(near, e)
				}
			}
		}
	}
	if kept != nil {
		if e, ok := st.swappedUnit(inv, leaves, fs, first); ok {
			return []result.CheckResult{decide(r, result.Fail, result.DecidedStatement,
				fmt.Sprintf("%s states %s of %s where %s is kept at %s: the same number in another unit", e.Pointer, e.Text, clip.String(e.Pattern, 40), want, kept.Pointer), e, *kept)}
		}
	}
	if unsure != nil {
		return []result.CheckResult{decide(r, result.Uncertain, result.DecidedJudge, unsure.Note, *unsure)}
	}
	if kept != nil {
		return []result.CheckResult{decide(r, result.Pass, result.DecidedStatement, fmt.Sprintf("%s kept at %s as %q", want, kept.Pointer, kept.Text), *kept)}
	}
	if unbound != nil {
		return []result.CheckResult{decide(r, result.Uncertain, result.DecidedJudge, unbound.Note, *unbound)}
	}
	r.Status, r.DecidedBy = result.Fail, result.DecidedStatement
	where := ""
	if len(inv.Match) > 0 {
		where = " where " + anyOf(inv.Match) + " matches"
	}
	if len(near) > 0 {
		if len(near) > 3 {
			near = near[:3]
		}
		var found []string
		for _, e := range near {
			found = append(found, fmt.Sprintf("%s at %s", e.Text, e.Pointer))
		}
		r.Message = fmt.Sprintf("want %s%s; found %s", want, where, strings.Join(found, ", "))
		r.Evidence = near
		return []result.CheckResult{r}
	}
	r.Message = fmt.Sprintf("want %s%s; the summary states no such quantity", want, where)
	r.Evidence = []result.Evidence{{Seq: first, Text: want, Pattern: anyOf(inv.Match), Note: "not found"}}
	return []result.CheckResult{r}
}

// quantityBound reports whether a match of the subject's patterns opens
// at a word's start in the sentence of leaf l that states q: "pause on
// replica lag above 30 s" names its subject, "a 30 s pause between
// chunks …, overridden with flags" does not ('lag' inside "flags", and
// in no sentence of the figure). A leaf whose folding changed its length
// is read as a whole, as the match filter reads it.
func (st *state) quantityBound(l leaf, fs []*filter, q quantity.Quantity) bool {
	if len(l.folded) != len(l.text) {
		return true
	}
	p := st.rawText(l)
	cs := p.Clauses()
	at := p.ClauseAt(q.Start)
	if at < 0 {
		return true
	}
	head := columnHeader(l.text, q.Start) // folding made newlines spaces
	for _, f := range fs {
		if f.re == nil {
			continue
		}
		for _, m := range f.re.FindAllStringIndex(l.folded, -1) {
			if m[0] > 0 && wordByte(l.folded[m[0]-1]) && wordByte(l.folded[m[0]]) {
				continue // inside a word
			}
			if c := p.ClauseAt(m[0]); c >= 0 && cs[c].Sent == cs[at].Sent || m[0] >= head[0] && m[1] <= head[1] {
				return true
			}
		}
	}
	return false
}

// columnHeader returns where, in text, the header cell of the table
// column that holds offset off is ("file | pool_max | pool_timeout" over
// "config/db.yml | 20 | 3 s"): the cell of the same column in the first
// line of the run of lines with a "|" that holds off; {-1, -1} when off is
// in no table or in its first line.
func columnHeader(text string, off int) [2]int {
	none := [2]int{-1, -1}
	start := strings.LastIndexByte(text[:off], '\n') + 1
	end := strings.IndexByte(text[off:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += off
	}
	if !strings.Contains(text[start:end], "|") {
		return none
	}
	col := strings.Count(text[start:off], "|")
	top := start
	for top > 0 {
		prev := strings.LastIndexByte(text[:top-1], '\n') + 1
		if !strings.Contains(text[prev:top-1], "|") {
			break
		}
		top = prev
	}
	if top == start {
		return none
	}
	line := text[top : strings.IndexByte(text[top:], '\n')+top]
	cells := strings.Split(line, "|")
	if col >= len(cells) {
		return none
	}
	a := top
	for _, c := range cells[:col] {
		a += len(c) + 1
	}
	return [2]int{a, a + len(cells[col])}
}

// wordByte reports whether b is part of a word (a letter, a digit, or a
// byte of a multi-byte letter); an underscore joins two words
// (pool_timeout names the timeout).
func wordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// swappedUnit finds, when the invariant names its subject (match), the
// same number in another unit of the same dimension stated of that
// subject (the first quantity after a match, in its clause), and not
// taken back: "upstream
// timeout 30 ms" beside "upstream timeout 30 s" elsewhere leaves the agent
// two values for one limit. "30 s (not 30 ms)" takes the swap back.
func (st *state) swappedUnit(inv *scenarios.Quantity, leaves []leaf, fs []*filter, first int) (result.Evidence, bool) {
	if len(inv.Match) == 0 {
		return result.Evidence{}, false
	}
	for _, l := range leaves {
		if isSupersedes(l.ptr) || len(l.folded) != len(l.text) {
			continue
		}
		if _, ok := st.findAnyLeaf(inv.Match, fs, l); !ok {
			continue
		}
		qs := st.quantities(l)
		p := st.rawText(l)
		for i, pat := range inv.Match {
			re := fs[i].re
			if re == nil {
				continue
			}
			for _, m := range re.FindAllStringIndex(l.folded, -1) {
				// the quantity the subject owns: the first one after it
				// in its clause ("timeout 30 s, backoff 30 ms" gives the
				// timeout 30 s)
				var q *quantity.Quantity
				for k := range qs {
					if qs[k].Start >= m[1] && p.ClauseAt(m[0]) == p.ClauseAt(qs[k].Start) {
						q = &qs[k]
						break
					}
				}
				if q == nil || q.Value != inv.Value || q.Unit == "" || q.Is(inv.Value, inv.Unit) || !quantity.SameDimension(q.Unit, inv.Unit) {
					continue
				}
				if p.ReadValue(q.Start, q.End, meaning.Figure, nil).Verdict == meaning.Contradicts {
					continue // "30 s (not 30 ms)"
				}
				return result.Evidence{Pointer: l.ptr, Seq: first, Text: q.Text, Pattern: pat, Note: "the same number in another unit"}, true
			}
		}
	}
	return result.Evidence{}, false
}
