package scenarios

import (
	"regexp/syntax"
	"strings"
	"unicode"

	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// cueEdges warns about a constraint pattern that starts or ends on a word
// the reader (internal/meaning, words.tsv) weighs against a rule ("never
// touch the billing table": "never" is a negation). The reader judges a
// match by the words around it: a pattern that holds one matches only the
// summaries that word the rule its way (not "do not touch the billing
// table", nor "the billing table is off limits"), and the word it holds is
// no longer one the reader weighs against the rule. The subject alone ("billing table") lets
// the reader tell a summary that keeps the rule from one that negates it.
func (w *warner) cueEdges() {
	for _, inv := range w.s.Invariants {
		c, ok := Pointer(inv).(*Constraint)
		if !ok {
			continue
		}
		for _, p := range c.Match {
			word, edge, what := cueEdge(p)
			if word == "" {
				continue
			}
			w.warnf(inv.Position(), "invariant %q (constraint): the pattern %q %s on %q, which the reader takes for %s: it matches only a summary that words the rule this way, and the reader can no longer weigh that word against the rule; match what the rule is about, without the cue (docs/authoring.md, \"Patterns and polarity\")",
				inv.InvariantID(), p, edge, word, what)
		}
	}
}

// cueEdge returns the first cue word that a branch of pattern starts or
// ends on, "starts" or "ends", and what the reader takes it for; "" when
// none does or the pattern does not parse.
func cueEdge(pattern string) (word, edge, what string) {
	re, err := syntax.Parse(textmatch.Fold(pattern), syntax.Perl)
	if err != nil {
		return "", "", ""
	}
	for _, b := range branches(re) {
		for _, e := range []struct {
			edge string
			word string
		}{{"starts", edgeWord(b, true)}, {"ends", edgeWord(b, false)}} {
			if e.word == "" {
				continue
			}
			if class, ok := meaning.RuleWord(e.word); ok {
				return e.word, e.edge, "a " + string(class) + " word"
			}
		}
	}
	return "", "", ""
}

// branches returns the alternatives of re at its top, through groups.
func branches(re *syntax.Regexp) []*syntax.Regexp {
	switch re.Op {
	case syntax.OpAlternate:
		var out []*syntax.Regexp
		for _, s := range re.Sub {
			out = append(out, branches(s)...)
		}
		return out
	case syntax.OpCapture:
		return branches(re.Sub[0])
	}
	return []*syntax.Regexp{re}
}

// edgeWord returns the whole word a branch starts (first) or ends with, in
// lower case, when the branch writes it as literal letters; "" otherwise.
func edgeWord(b *syntax.Regexp, first bool) string {
	subs := []*syntax.Regexp{b}
	if b.Op == syntax.OpConcat {
		subs = b.Sub
	}
	i := 0
	if !first {
		i = len(subs) - 1
	}
	// skip anchors and word boundaries at the edge
	for i >= 0 && i < len(subs) {
		switch subs[i].Op {
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary:
			if first {
				i++
			} else {
				i--
			}
			continue
		}
		break
	}
	if i < 0 || i >= len(subs) || subs[i].Op != syntax.OpLiteral {
		return ""
	}
	lit := subs[i].Rune
	// the literal must hold the whole word: a non-letter inside it after
	// (before) the word, or nothing after (before) it in the branch
	whole := func(rest []*syntax.Regexp) bool {
		if len(rest) == 0 {
			return true
		}
		next := rest[0]
		if !first {
			next = rest[len(rest)-1]
		}
		switch next.Op {
		case syntax.OpWordBoundary:
			return true
		case syntax.OpLiteral:
			r := next.Rune[0]
			if !first {
				r = next.Rune[len(next.Rune)-1]
			}
			return !isWordRune(r)
		}
		return false
	}
	if first {
		n := 0
		for n < len(lit) && isWordRune(lit[n]) {
			n++
		}
		if n == 0 || n == len(lit) && !whole(subs[i+1:]) {
			return ""
		}
		return strings.ToLower(string(lit[:n]))
	}
	n := len(lit)
	for n > 0 && isWordRune(lit[n-1]) {
		n--
	}
	if n == len(lit) || n == 0 && !whole(subs[:i]) {
		return ""
	}
	return strings.ToLower(string(lit[n:]))
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || r == '\'' }
