package meaning

import "strings"

// The party stage: whom a rule binds, and whose approval it waits for. A
// clause that gives the rule to a party its source never names ("read-only
// for the accounting team") or hands its approval to another ("unless the
// DB team's go-ahead is given", "la aprobación del usuario") says the rule
// of someone else: it does not restate it.

// Party is the modifier class of such a party.
const Party Class = "party"

// Place is no row of the table either: a frame that puts a rule in a
// place its source does not (foreignPlace).
const Place Class = "place"

// partyNouns name a party a rule may be given for: "for the team", "para
// el equipo de contabilidad". After "for" or "para" only these count, the
// words being common ("for now", "para medir").
var partyNouns = set(`team teams group squad department committee board lead leads owner owners manager managers admin admins administrator administrators contractor contractors vendor customer customers client clients user users operator operators developer developers engineer engineers auditor auditors accounting finance security compliance legal dba dbas sre sres ops oncall on-call staff everyone equipo equipos grupo departamento comite junta responsable responsables jefe jefa administrador administradores proveedor cliente clientes usuario usuarios usuaria usuarias operador desarrolladores ingenieros auditores contabilidad finanzas seguridad cumplimiento guardia personal todos`)

// ownerMarks open the owner after an approval noun: "approval from the
// DBA", "el visto bueno del IC".
var ownerMarks = set(`from by of del de`)

// partyDeterminers may stand before a party's words.
var partyDeterminers = set(`the a an its el la los las un una su sus`)

// userWords name the user, who is the speaker of a source in the first
// person.
var userWords = set(`user usuario usuaria you operator operador`)

// firstPersonSource are the words of a statement in the first person.
var firstPersonSource = set(`i i'm i'll i've my me mine we our us yo mi mis nosotros nuestro nuestra`)

// foreignParty returns the words of a party clause ci names that the
// source src does not: the owner of an approval (a possessive before an
// approval noun, or the words after "from", "by", "of", "del" past it),
// or the party after "for" or "para" (partyNouns). A party is the
// source's when one of its words is the source's (held alike, or the
// initials of the source's words: "IC" of "incident commander"), or it is
// the user and the source speaks in the first person.
func (t *Text) foreignParty(ci int, src *Text) (string, bool) {
	if src == nil {
		return "", false
	}
	for _, p := range t.parties(ci) {
		if !src.ownsParty(p) {
			return strings.Join(p.words, " "), true
		}
	}
	return "", false
}

// party is the words of a party a clause names; given is set for the one
// a rule is given for ("for the team"), unset for an approval's owner.
type party struct {
	words []string
	given bool
}

// parties returns each party clause ci names.
func (t *Text) parties(ci int) []party {
	c := t.clauses[ci]
	var out []party
	for _, h := range t.hitsOf(ci, Approve) {
		if h.Sense != "noun" {
			continue
		}
		// "the DB team's explicit go-ahead": a possessive up to two words
		// before it
		for k := h.T0 - 1; k >= c.T0 && k >= h.T0-3; k-- {
			if w, ok := strings.CutSuffix(t.toks[k].W, "'s"); ok {
				ws := []string{w}
				if k-1 >= c.T0 && t.toks[k-1].Word && !partyDeterminers[t.toks[k-1].W] {
					ws = append([]string{t.toks[k-1].W}, ws...)
				}
				out = append(out, party{words: ws})
				break
			}
		}
		// "approval from the DBA", "el visto bueno explícito del IC": an
		// owner mark up to two words after it
		for k := h.T1; k < c.T1 && k <= h.T1+2 && t.toks[k].Word && !barriers[t.toks[k].W]; k++ {
			if ownerMarks[t.toks[k].W] {
				if ws := t.partyWords(k+1, c.T1, false); len(ws) > 0 {
					out = append(out, party{words: ws})
				}
				break
			}
		}
	}
	for k := c.T0; k < c.T1; k++ {
		if w := t.toks[k].W; w == "for" || w == "para" {
			if ws := t.partyWords(k+1, c.T1, true); len(ws) > 0 && !t.toInfinitive(k+1, c.T1) {
				out = append(out, party{words: ws, given: true})
			}
		}
	}
	return out
}

// toInfinitive reports whether the words from token a are a subject of
// an infinitive ("waiting for the DB team to raise it", "those are for
// the committee to decide"): who is to act, not whom a rule is given for.
func (t *Text) toInfinitive(a, end int) bool {
	for k := a; k < end && k <= a+5; k++ {
		switch w := t.toks[k].W; {
		case w == "to":
			return true
		case !t.toks[k].Word || barriers[w]:
			return false
		}
	}
	return false
}

// partyWords returns up to three words from token a (after a determiner),
// stopping at a barrier or a mark; with nouns set, only when one of them
// is a word of partyNouns.
func (t *Text) partyWords(a, end int, nouns bool) []string {
	for a < end && partyDeterminers[t.toks[a].W] {
		a++
	}
	var ws []string
	party := false
	for k := a; k < end && len(ws) < 3; k++ {
		tk := t.toks[k]
		if tk.W == "de" || tk.W == "of" {
			continue // "el equipo de contabilidad"
		}
		if !tk.Word || barriers[tk.W] || ownerMarks[tk.W] || stopWords[tk.W] {
			break
		}
		ws = append(ws, tk.W)
		party = party || partyNouns[tk.W]
	}
	if nouns && !party {
		return nil
	}
	return ws
}

// ownsParty reports whether a party is the source's. The owner of an
// approval is when one of its words is held alike, is the initials of the
// source's words ("IC" of "incident commander") or names the user of a
// source in the first person; a party a rule is given for only when the
// source gives it for a party sharing a word, or it is that user.
func (t *Text) ownsParty(p party) bool {
	first := false
	for _, tk := range t.toks {
		first = first || firstPersonSource[tk.W]
	}
	var given []string
	if p.given {
		for ci := range t.clauses {
			for _, q := range t.parties(ci) {
				if q.given {
					given = append(given, q.words...)
				}
			}
		}
	}
	for _, w := range p.words {
		switch {
		case userWords[w] && first:
			return true
		case p.given:
			if alike([]string{w}, given) {
				return true
			}
		case t.holdsAlike([]string{w}) || t.initials(w):
			return true
		}
	}
	return false
}

// initials reports whether w, of two to five letters, spells the first
// letters of consecutive words of the text: "ic" of "incident commander".
func (t *Text) initials(w string) bool {
	if len(w) < 2 || len(w) > 5 {
		return false
	}
	for i := 0; i+len(w) <= len(t.toks); i++ {
		k, j := i, 0
		for ; j < len(w) && k < len(t.toks); k++ {
			if !t.toks[k].Word {
				continue
			}
			if t.toks[k].W[0] != w[j] {
				break
			}
			j++
		}
		if j == len(w) {
			return true
		}
	}
	return false
}

// kindNouns name what a target is, not a part of it: "the database of
// facturas-prod" is all of it.
var kindNouns = set(`database databases db cluster server host repo repository namespace project service environment instance account branch bucket region system base datos servidor repositorio proyecto servicio entorno instancia cuenta rama sistema`)

// partOf returns the noun of a part of the target a mention names, when
// the clause says its rule of that part: "la configuración de
// facturas-prod", "the indexes of facturas-prod". A noun of what the
// target is (kindNouns), of the work (sessionWords) or one the word table
// reads (a rule noun, a state) is no part.
func (t *Text) partOf(m Mention) (string, bool) {
	k := m.T0 - 1
	if k < 1 || t.toks[k].W != "de" && t.toks[k].W != "of" {
		return "", false
	}
	w := t.toks[k-1]
	if !w.Word || w.Value || len(w.W) < 3 || stopWords[w.W] || kindNouns[w.W] || sessionWords[w.W] || len(lex().byFirst[w.W]) > 0 {
		return "", false
	}
	return w.W, true
}

// placeWords open a frame that puts what follows in a place: "in the
// Android SDK shipped to merchants, protobuf stays pinned".
var placeWords = set(`in within inside en dentro`)

// foreignPlace returns the words of a place frame that opens clause ci
// ("in the Android SDK shipped to merchants,") when the sentences of the
// source that state the rule name none of them: the rule said to hold
// somewhere its source does not put it.
func (t *Text) foreignPlace(ci int, s *Subject) (string, bool) {
	c := t.clauses[ci]
	src := s.Source
	if src == nil || c.T0 >= c.T1 || !placeWords[t.toks[c.T0].W] {
		return "", false
	}
	end := -1
	for k := c.T0 + 1; k < c.T1 && k <= c.T0+9; k++ {
		if t.toks[k].W == "," {
			end = k
			break
		}
	}
	if end < 0 {
		return "", false
	}
	words := t.contentWords(c.T0+1, end)
	if len(words) == 0 {
		return "", false
	}
	sents := src.ruleSentences(s.Patterns)
	for _, w := range words {
		for _, sc := range src.clauses {
			if sents != nil && !sents[sc.Sent] {
				continue
			}
			for i := sc.T0; i < sc.T1; i++ {
				if alike([]string{src.toks[i].W}, []string{w}) {
					return "", false
				}
			}
		}
	}
	return t.words(c.T0, end), true
}
