package polarity

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// Kind is what a cue says about the phrase it bears on.
type Kind string

// The kinds of cue (docs/polarity.md has the full table).
const (
	// Negation: not, never, no, isn't; no, nunca.
	Negation Kind = "negation"
	// Cancellation: the rule existed and stopped applying (no longer
	// applies, was lifted; ya no aplica, queda sin efecto).
	Cancellation Kind = "cancellation"
	// Permission: the rule may be broken (may ignore, is optional; se
	// puede ignorar).
	Permission Kind = "permission"
	// Retraction: what was said is taken back, or refuted (ignore, ruled
	// out; descartado).
	Retraction Kind = "retraction"
	// Mistake: the value was never right (was a typo; fue una errata).
	Mistake Kind = "mistake"
	// Supersession: a value replaced by another (instead of, replaced by;
	// en vez de).
	Supersession Kind = "supersession"
	// Former: a value named as the old one (was, previously; antes era).
	Former Kind = "former"
	// Hedge: the outcome is not known (unknown, whether; pendiente).
	Hedge Kind = "hedge"
	// Stale: an artifact that is not the live one (stale, ignored; obsoleto).
	Stale Kind = "stale"
	// Current: the live artifact (loads, in use; vigente).
	Current Kind = "current"
	// Success: an operation finished (completed; terminado).
	Success Kind = "success"
	// Report: reported speech (says, according to; según): a negation
	// inside it is someone else's claim.
	Report Kind = "report"
	// Frame: opens the subject of a rule or a claim ("the rule that",
	// "la regla de que"); it says nothing itself, and the first cue after
	// the phrase that bears on what precedes it bears on the whole frame
	// ("The rule that … no longer applies").
	Frame Kind = "frame"
	// Idiom: an affirming idiom whose negation word negates nothing (no
	// doubt, not only … but; sin duda).
	Idiom Kind = "idiom"
)

// Contradiction is the set of kinds that turn a statement of a rule or a
// value into its opposite: what every text-deciding check counts.
var Contradiction = []Kind{Negation, Cancellation, Permission, Retraction, Mistake}

// Scope says which side of a cue it bears on.
type Scope string

// Scopes.
const (
	// Following: the cue bears on what comes after it ("not X").
	Following Scope = "following"
	// Preceding: the cue bears on what comes before it ("X no longer applies").
	Preceding Scope = "preceding"
	// Both: either side ("X, refuted" and "refuted: X").
	Both Scope = "both"
	// Clause: everything after the cue to the end of its clause, across
	// commas and values ("It is not true that …, …").
	Clause Scope = "clause"
)

// Cue is one row of the cue table.
type Cue struct {
	Lang  string // en, es
	Kind  Kind
	Scope Scope
	// Phrase is the cue as written in the table: words on folded,
	// lower-cased text, [a|b c] for alternatives, [a|b]? for an optional
	// slot.
	Phrase string
	// Example is a sentence where {X} stands for the phrase the cue bears on.
	Example string
	// Then, for an idiom, is a word that must follow later in the
	// sentence ("not only … but").
	Then string
	// Line is the cue's line in cues.tsv.
	Line int
}

//go:embed cues.tsv
var cuesTSV string

type table struct {
	cues []Cue
	trie *node
	// conditional, barrier words, filler: small closed word lists.
}

// node is a trie over lower-cased tokens.
type node struct {
	next map[string]*node
	cues []int // indexes of the cues ending here
}

// longest walks root over the tokens of c from its j-th token and returns
// the index (in c.toks) of the last token of the longest entry that starts
// there, with the entries ending at it; best is -1 when none does.
func (x *Text) longest(root *node, c *clause, j int) (best int, entries []int) {
	best = -1
	n := root
	for m := j; m < len(c.toks); m++ {
		n = n.next[x.toks[c.toks[m]].low]
		if n == nil {
			break
		}
		if len(n.cues) > 0 {
			best, entries = m, n.cues
		}
	}
	return best, entries
}

var (
	loadOnce sync.Once
	loaded   *table
	loadErr  error
)

func tableOf() *table {
	loadOnce.Do(func() { loaded, loadErr = parseTable(cuesTSV) })
	if loadErr != nil {
		panic("polarity: " + loadErr.Error()) // the embedded table is tested
	}
	return loaded
}

// Cues returns the cue table, in file order.
func Cues() []Cue { return append([]Cue(nil), tableOf().cues...) }

var validKinds = map[Kind]bool{Negation: true, Cancellation: true, Permission: true, Retraction: true, Mistake: true,
	Supersession: true, Former: true, Hedge: true, Stale: true, Current: true, Success: true, Report: true, Idiom: true, Frame: true}

func parseTable(src string) (*table, error) {
	t := &table{trie: &node{}}
	for i, line := range strings.Split(src, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 5 || len(f) > 6 {
			return nil, fmt.Errorf("cues.tsv:%d: want 5 or 6 tab-separated fields, got %d", i+1, len(f))
		}
		c := Cue{Lang: f[0], Kind: Kind(f[1]), Scope: Scope(f[2]), Phrase: f[3], Example: f[4], Line: i + 1}
		if len(f) == 6 {
			c.Then = f[5]
		}
		if c.Lang != "en" && c.Lang != "es" {
			return nil, fmt.Errorf("cues.tsv:%d: language %q", i+1, c.Lang)
		}
		if !validKinds[c.Kind] {
			return nil, fmt.Errorf("cues.tsv:%d: kind %q", i+1, c.Kind)
		}
		if c.Scope != Following && c.Scope != Preceding && c.Scope != Both && c.Scope != Clause {
			return nil, fmt.Errorf("cues.tsv:%d: scope %q", i+1, c.Scope)
		}
		if !strings.Contains(c.Example, "{X}") {
			return nil, fmt.Errorf("cues.tsv:%d: the example has no {X}", i+1)
		}
		seqs, err := expand(c.Phrase)
		if err != nil {
			return nil, fmt.Errorf("cues.tsv:%d: %v", i+1, err)
		}
		idx := len(t.cues)
		t.cues = append(t.cues, c)
		for _, s := range seqs {
			n := t.trie
			toks := tokenize(s)
			if len(toks) == 0 {
				return nil, fmt.Errorf("cues.tsv:%d: an empty alternative in %q", i+1, c.Phrase)
			}
			for _, tk := range toks {
				w := s[tk.a:tk.b]
				if n.next == nil {
					n.next = map[string]*node{}
				}
				nx := n.next[w]
				if nx == nil {
					nx = &node{}
					n.next[w] = nx
				}
				n = nx
			}
			if !containsInt(n.cues, idx) {
				n.cues = append(n.cues, idx)
			}
		}
	}
	return t, nil
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// expand turns a phrase into every word sequence it stands for.
func expand(phrase string) ([]string, error) {
	slots, err := splitSlots(phrase)
	if err != nil {
		return nil, err
	}
	out := []string{""}
	for _, s := range slots {
		alts := []string{s}
		optional := false
		if strings.HasPrefix(s, "[") {
			body := strings.TrimSuffix(s, "?")
			optional = body != s
			if !strings.HasSuffix(body, "]") {
				return nil, fmt.Errorf("unclosed [ in %q", phrase)
			}
			alts = strings.Split(body[1:len(body)-1], "|")
		}
		var next []string
		for _, o := range out {
			if optional {
				next = append(next, o)
			}
			for _, a := range alts {
				a = strings.TrimSpace(a)
				if a == "" {
					return nil, fmt.Errorf("an empty alternative in %q", phrase)
				}
				next = append(next, strings.TrimSpace(o+" "+a))
			}
		}
		out = next
	}
	return out, nil
}

// splitSlots splits a phrase on the spaces outside brackets.
func splitSlots(p string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '[':
			depth++
			if depth > 1 {
				return nil, fmt.Errorf("nested [ in %q", p)
			}
		case ']':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced ] in %q", p)
			}
		case ' ':
			if depth == 0 {
				if i > start {
					out = append(out, p[start:i])
				}
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unclosed [ in %q", p)
	}
	if start < len(p) {
		out = append(out, p[start:])
	}
	return out, nil
}
