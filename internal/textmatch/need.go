package textmatch

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Most patterns cannot match most texts, and a case-insensitive pattern has
// no literal prefix, so the regexp engine walks the whole text for each
// pattern. Need derives from a pattern's syntax a list of strings of which
// any match must contain at least one, in lower case: a text that contains
// none of them cannot match, and the regexp need not run. The verdict is
// therefore always the regexp's own, only faster.
//
// The strings are exact only for ASCII text: MayMatch uses them only when
// the text is ASCII, where lower-casing is byte-wise and case folding cannot
// reach outside ASCII (the Kelvin sign and the long s never occur in the
// text).

// Bounds that keep the analysis and the check cheap.
const (
	pfMaxExact = 32 // strings an exact set may hold
	pfMaxClass = 8  // ASCII members a character class may have to count as exact
	pfMaxNeed  = 64 // strings a need list may hold
)

type needOf struct {
	has  bool
	need []string
}

var needs sync.Map // compiled pattern (re.String()) → needOf

// Need returns the strings (lower case, ASCII, non-empty) one of which
// every match of re contains in ASCII text; ok is false when no such list is
// known. The analysis is remembered per pattern.
func Need(re *regexp.Regexp) (need []string, ok bool) {
	expr := re.String()
	if v, ok := needs.Load(expr); ok {
		n := v.(needOf)
		return n.need, n.has
	}
	var n needOf
	if tree, err := syntax.Parse(expr, syntax.Perl); err == nil { // as regexp.Compile does
		in := pfAnalyze(tree)
		if in.exact {
			n.need, n.has = pfNeedOf(in.set)
		} else {
			n.need, n.has = in.need, in.hasNeed
		}
	}
	needs.Store(expr, n)
	return n.need, n.has
}

// MayMatch reports whether re may match a text whose lower-cased form is
// lower: false only when lower is ASCII and holds none of re's Need.
func MayMatch(re *regexp.Regexp, lower string) bool {
	return !isASCII(lower) || MayMatchASCII(re, lower)
}

// MayMatchASCII is MayMatch for a caller that knows lower is ASCII (and
// checks it once for many patterns).
func MayMatchASCII(re *regexp.Regexp, lower string) bool {
	need, ok := Need(re)
	if !ok {
		return true
	}
	for _, s := range need {
		if strings.Contains(lower, s) {
			return true
		}
	}
	return false
}

// IsASCII reports whether s holds only ASCII bytes.
func IsASCII(s string) bool { return isASCII(s) }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
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
