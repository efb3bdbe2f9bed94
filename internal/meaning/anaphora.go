package meaning

import "slices"

// The subject stage's last step: a phrase that picks one of two things by
// position ("the former", "the latter", "the second one", "el primero",
// "a la segunda") names what it points at. A clause that says "of
// values-prod.yaml and values-production.yaml, the former is to be edited"
// is about values-prod.yaml, though it names it only before the choice.
// The pointer resolves only when its sentence has named, before it, exactly
// two of the subject's names and others (not a pattern, an action or a
// state); with one, three or more it is left unread, and a reader that
// sees Ref set may weigh a choice by position below a choice by name.

var (
	// firstOf and lastOf are the words that pick the first or the last of
	// two things named.
	firstOf = set(`former first primero primera`)
	lastOf  = set(`latter second last segundo segunda ultimo ultima`)
	// pointerArticles open such a pointer: "the former", "el primero",
	// "a la segunda", "este ultimo", "del primero".
	pointerArticles = set(`the el la al del este esta`)
	// afterPointer are the words that may follow an ordinal standing alone
	// ("the first is", "el primero y"): any other word is the noun it
	// qualifies ("the first phase", "la primera vez", "the former owner"),
	// and the ordinal points at nothing.
	afterPointer = set(`one is was are were should must will would can could needs need has gets to of and or in with on y o es fue era se debe tiene de en con para que`)
)

// pointerAt reports whether token i, in a clause that ends at token end,
// is an ordinal that points back by position ("the former").
func (t *Text) pointerAt(i, end int) bool {
	w := t.toks[i].W
	if !firstOf[w] && !lastOf[w] || i == 0 || !pointerArticles[t.toks[i-1].W] {
		return false
	}
	return i+1 >= end || !t.toks[i+1].Word || afterPointer[t.toks[i+1].W]
}

// findPointers returns the tokens of the text that point back by
// position, in order.
func (t *Text) findPointers() []int {
	var out []int
	for _, c := range t.clauses {
		for i := c.T0; i < c.T1; i++ {
			if t.toks[i].Word && t.pointerAt(i, c.T1) {
				out = append(out, i)
			}
		}
	}
	return out
}

// withPointers adds to ms, the mentions of s in clause ci, one mention
// for each pointer of the clause that resolves, with the referent's What
// and Ref set to it, in token order.
func (t *Text) withPointers(ci int, s *Subject, ms []Mention) []Mention {
	c := t.clauses[ci]
	var out, cands []Mention
	for _, i := range t.pointers {
		if i < c.T0 || i >= c.T1 {
			continue
		}
		if cands == nil {
			cands = t.sentenceNamesBefore(ci, s, ms)
		}
		two := t.twoNamed(cands, i)
		if two == nil {
			continue
		}
		ref := two[0]
		if lastOf[t.toks[i].W] {
			ref = two[1]
		}
		out = append(out, Mention{What: ref.What, T0: i, T1: i + 1, Ref: &ref})
	}
	if out == nil {
		return ms
	}
	all := append(append([]Mention(nil), ms...), out...)
	slices.SortStableFunc(all, func(a, b Mention) int { return a.T0 - b.T0 })
	return all
}

// sentenceNamesBefore returns ms with the mentions of the clauses of ci's
// sentence before it prepended: what a pointer of ci may point at
// ("de config/db.yaml y config/db.yml, cambiar pool_max en el primero").
func (t *Text) sentenceNamesBefore(ci int, s *Subject, ms []Mention) []Mention {
	var before []Mention
	for cj := ci - 1; cj >= 0 && t.clauses[cj].Sent == t.clauses[ci].Sent; cj-- {
		before = append(t.clauseMentions(cj, s), before...)
	}
	return append(before, ms...)
}

// twoNamed returns the two distinct names or others mentioned before token
// i, in order, or nil when there are not exactly two.
func (t *Text) twoNamed(ms []Mention, i int) []Mention {
	var two []Mention
	for _, m := range ms {
		if m.T1 > i || m.Ref != nil || m.What != NameOf && m.What != OtherOf {
			continue
		}
		w := t.words(m.T0, m.T1)
		if len(two) > 0 && t.words(two[0].T0, two[0].T1) == w || len(two) > 1 && t.words(two[1].T0, two[1].T1) == w {
			continue
		}
		if len(two) == 2 {
			return nil
		}
		two = append(two, m)
	}
	if len(two) != 2 {
		return nil
	}
	return two
}

// pointerName quotes a mention for a reason: its words, and for a pointer
// the words of what it points at ("'the former' (values-prod.yaml)").
func (t *Text) pointerName(m Mention) string {
	if m.Ref == nil {
		return quote(t.words(m.T0, m.T1))
	}
	return quote(t.words(m.T0-1, m.T1)) + " (" + t.words(m.Ref.T0, m.Ref.T1) + ")"
}
