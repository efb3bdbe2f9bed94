package scenarios

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// Filler expansion tries every candidate text against every pattern of the
// scenario, and most patterns cannot match most texts: a case-insensitive
// pattern has no literal prefix, so the regexp engine walks the whole text
// for each pattern. A prefilter is derived from each pattern's syntax: a
// list of strings of which any match must contain at least one, in lower
// case. A text that contains none of them cannot match, and the regexp is
// not run; otherwise it is. The verdict is therefore always the regexp's
// own, only faster.
//
// The strings are exact only for ASCII text: the avoider uses the
// prefilter only when the text is ASCII (then so is its folded form),
// where lower-casing is byte-wise and case folding cannot reach outside
// ASCII (the Kelvin sign and the long s never occur in the text).

// prefilter is a pattern with the strings one of which each of its matches
// contains. They are derived on the pattern's first use in filler
// expansion (so a scenario with no filler pays nothing) and remembered per
// pattern. has false means no such list is known: always run the regexp.
type prefilter struct {
	re       *regexp.Regexp
	analyzed bool
	has      bool
	need     []string // lower case, ASCII, non-empty
}

// Bounds that keep the analysis and the check cheap.
const (
	pfMaxExact = 32 // strings an exact set may hold
	pfMaxClass = 8  // ASCII members a character class may have to count as exact
	pfMaxNeed  = 64 // strings a need list may hold
)

type pfNeed struct {
	has  bool
	need []string
}

var pfNeeds sync.Map // compiled pattern (re.String()) → pfNeed

func newPrefilter(re *regexp.Regexp) prefilter {
	pf := prefilter{re: re}
	pf.analyze()
	return pf
}

// analyze sets has and need from the pattern's syntax.
func (pf *prefilter) analyze() {
	pf.analyzed = true
	expr := pf.re.String()
	if v, ok := pfNeeds.Load(expr); ok {
		n := v.(pfNeed)
		pf.has, pf.need = n.has, n.need
		return
	}
	tree, err := syntax.Parse(expr, syntax.Perl) // as regexp.Compile does
	if err != nil {
		return
	}
	in := pfAnalyze(tree)
	if in.exact {
		pf.need, pf.has = pfNeedOf(in.set)
	} else {
		pf.need, pf.has = in.need, in.hasNeed
	}
	pfNeeds.Store(expr, pfNeed{has: pf.has, need: pf.need})
}

// anyMatch reports whether any of pfs matches t once folded
// (textmatch.Fold). ASCII text is first folded and lower-cased by
// foldLowerASCII for the prefilters, and only folded for the regexps when a
// prefilter lets one through.
func anyMatch(pfs []prefilter, t string) bool {
	if !pfIsASCII(t) {
		folded := textmatch.Fold(t)
		for i := range pfs {
			if pfs[i].re.MatchString(folded) {
				return true
			}
		}
		return false
	}
	lower := foldLowerASCII(t)
	folded, done := "", false
	for i := range pfs {
		pf := &pfs[i]
		if !pf.analyzed {
			pf.analyze()
		}
		if pf.has && !pfContainsAny(lower, pf.need) {
			continue
		}
		if !done {
			folded, done = textmatch.Fold(t), true
		}
		if pf.re.MatchString(folded) {
			return true
		}
	}
	return false
}

// foldLowerASCII is strings.ToLower(textmatch.Fold(s)) for ASCII s, in one
// pass: whitespace runs become one space, the ends are trimmed, upper case
// letters become lower case.
func foldLowerASCII(s string) string {
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\t', '\n', '\v', '\f', '\r', ' ':
			space = true
			continue
		}
		if space && len(b) > 0 {
			b = append(b, ' ')
		}
		space = false
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

func pfContainsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// pfInfo is what pfAnalyze knows of a syntax node, for ASCII text lower-cased:
// when exact, every match of the node is one of set; when hasNeed, every
// match contains one of need.
type pfInfo struct {
	exact   bool
	set     []string
	hasNeed bool
	need    []string
}

var (
	pfUnknown = pfInfo{}
	pfEmpty   = pfInfo{exact: true, set: []string{""}}
)

// pfNeedOf turns an exact set into a need list: valid when no member is empty.
func pfNeedOf(set []string) ([]string, bool) {
	if len(set) == 0 || len(set) > pfMaxNeed || slices.Contains(set, "") {
		return nil, false
	}
	return set, true
}

func pfAnalyze(re *syntax.Regexp) pfInfo {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return pfEmpty
	case syntax.OpLiteral:
		return pfLiteral(re)
	case syntax.OpCharClass:
		return pfClass(re.Rune)
	case syntax.OpCapture:
		return pfAnalyze(re.Sub[0])
	case syntax.OpQuest:
		in := pfAnalyze(re.Sub[0])
		if !in.exact || len(in.set)+1 > pfMaxExact {
			return pfUnknown
		}
		return pfInfo{exact: true, set: pfUnion(in.set, []string{""})}
	case syntax.OpPlus:
		return pfNeedInfo(pfAnalyze(re.Sub[0]))
	case syntax.OpRepeat:
		if re.Min < 1 {
			return pfUnknown
		}
		return pfNeedInfo(pfAnalyze(re.Sub[0]))
	case syntax.OpConcat:
		return pfConcat(re.Sub)
	case syntax.OpAlternate:
		return pfAlternate(re.Sub)
	}
	return pfUnknown // any character, star, no match: nothing known
}

// pfNeedInfo is what is known of a node that contains a match of in.
func pfNeedInfo(in pfInfo) pfInfo {
	if in.exact {
		need, ok := pfNeedOf(in.set)
		return pfInfo{hasNeed: ok, need: need}
	}
	return pfInfo{hasNeed: in.hasNeed, need: in.need}
}

func pfLiteral(re *syntax.Regexp) pfInfo {
	fold := re.Flags&syntax.FoldCase != 0
	var b strings.Builder
	longest, whole := "", true
	for _, r := range re.Rune {
		if c, ok := pfASCIIOf(r, fold); ok {
			b.WriteByte(c)
			continue
		}
		// A rune that matches no single ASCII byte ends a run: the
		// longest run is the need.
		whole = false
		if b.Len() > len(longest) {
			longest = b.String()
		}
		b.Reset()
	}
	if whole {
		return pfInfo{exact: true, set: []string{b.String()}}
	}
	if b.Len() > len(longest) {
		longest = b.String()
	}
	if longest == "" {
		return pfUnknown
	}
	return pfInfo{hasNeed: true, need: []string{longest}}
}

// pfASCIIOf returns the lower-case ASCII byte that rune r matches in ASCII
// text (with case folding when fold), ok false when it matches none or the
// answer is not one byte.
func pfASCIIOf(r rune, fold bool) (byte, bool) {
	if r < utf8.RuneSelf {
		return byte(unicode.ToLower(r)), true
	}
	if !fold {
		return 0, false
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < utf8.RuneSelf {
			return byte(unicode.ToLower(f)), true
		}
	}
	return 0, false
}

// pfClass: a class with few ASCII members is the exact set of them,
// lower-cased. The parser has already added the case-folded runes.
func pfClass(ranges []rune) pfInfo {
	var set []string
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], min(ranges[i+1], utf8.RuneSelf-1)
		if hi-lo+1 > 2*pfMaxClass {
			return pfUnknown
		}
		for r := lo; r <= hi; r++ {
			s := string(rune(unicode.ToLower(r)))
			if !slices.Contains(set, s) {
				set = append(set, s)
			}
			if len(set) > pfMaxClass {
				return pfUnknown
			}
		}
	}
	if len(set) == 0 {
		return pfUnknown // matches no ASCII byte; nothing useful to say
	}
	return pfInfo{exact: true, set: set}
}

// pfConcat joins runs of exact parts into exact sets; each run and each
// inexact part's need is a candidate need of the whole, and the most
// selective one is kept.
func pfConcat(subs []*syntax.Regexp) pfInfo {
	cur := []string{""}
	whole := true
	var best []string
	consider := func(need []string, ok bool) {
		if ok && pfBetter(need, best) {
			best = need
		}
	}
	for _, sub := range subs {
		in := pfAnalyze(sub)
		if in.exact {
			if prod := pfCross(cur, in.set); prod != nil {
				cur = prod
				continue
			}
			consider(pfNeedOf(cur))
			cur, whole = in.set, false
			continue
		}
		whole = false
		consider(pfNeedOf(cur))
		cur = []string{""}
		consider(in.need, in.hasNeed)
	}
	if whole {
		return pfInfo{exact: true, set: cur}
	}
	consider(pfNeedOf(cur))
	return pfInfo{hasNeed: best != nil, need: best}
}

// pfBetter reports whether need a is more selective than b (nil): its
// shortest string is longer, or as long with fewer strings.
func pfBetter(a, b []string) bool {
	if b == nil {
		return true
	}
	la, lb := pfShortest(a), pfShortest(b)
	return la > lb || la == lb && len(a) < len(b)
}

func pfShortest(list []string) int {
	n := -1
	for _, s := range list {
		if n < 0 || len(s) < n {
			n = len(s)
		}
	}
	return n
}

// pfCross returns every a+b, nil when there would be more than pfMaxExact.
func pfCross(as, bs []string) []string {
	if len(as)*len(bs) > pfMaxExact {
		return nil
	}
	out := make([]string, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			if s := a + b; !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func pfUnion(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// pfAlternate: a match of an alternation is a match of one branch, so the
// needs (or exact sets) of all branches together are the need of the whole.
func pfAlternate(subs []*syntax.Regexp) pfInfo {
	ins := make([]pfInfo, len(subs))
	exact := true
	var set []string
	for i, sub := range subs {
		ins[i] = pfAnalyze(sub)
		if exact = exact && ins[i].exact; exact {
			set = pfUnion(set, ins[i].set)
		}
	}
	if exact && len(set) <= pfMaxExact {
		return pfInfo{exact: true, set: set}
	}
	var need []string
	for _, in := range ins {
		n := pfNeedInfo(in)
		if !n.hasNeed {
			return pfUnknown
		}
		need = pfUnion(need, n.need)
	}
	if len(need) > pfMaxNeed {
		return pfUnknown
	}
	return pfInfo{hasNeed: true, need: need}
}

// pfIsASCII reports whether s is all ASCII bytes.
func pfIsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
