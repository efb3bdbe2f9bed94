package meaning

import "strings"

// Modifier is a word that changes what a clause says: a condition, an
// exception, a quantifier, an attribution, a time limit, a past frame, a
// presupposition, a hedge, a concession, a counterfactual, a comparison,
// an approximation or a question.
type Modifier struct {
	Class Class
	Sense string
	// Cue is the modifier's words; Object the content words it governs (up
	// to a comma or the clause's end).
	Cue    string
	Object []string
	// Before is the content words of the clause before the cue (the
	// speaker of an attribution).
	Before []string
}

// String names a modifier for a message: `condition "if the owner approves"`.
func (m Modifier) String() string {
	s := m.Cue
	if len(m.Object) > 0 {
		s += " " + strings.Join(m.Object, " ")
	}
	return string(m.Class) + " " + quote(s)
}

// modifiers is the modifier stage: the modifiers of clause ci among
// classes, leaving out the tokens the predicate read (skip).
func (t *Text) modifiers(ci int, classes []Class, skip func(Hit) bool) []Modifier {
	var out []Modifier
	for _, md := range t.modifierHits(ci, classes) {
		if skip == nil || !skip(md.hit) {
			out = append(out, md.Modifier)
		}
	}
	for _, c := range classes {
		if c == Question && t.question(ci) {
			out = append(out, Modifier{Class: Question, Cue: "?"})
		}
	}
	return out
}

// question reports whether clause ci ends in a question mark.
func (t *Text) question(ci int) bool {
	c := t.clauses[ci]
	return c.T1 < len(t.toks) && t.toks[c.T1].W == "?"
}

// reportVerbs after a past copula report an instruction, not a past
// state: "was told to keep it read-only".
var reportVerbs = set(`told asked instructed declared set made placed put ordered given stated marked kept requested said reminded warned`)

func (t *Text) reportsAfter(h Hit) bool {
	return h.T1 < len(t.toks) && reportVerbs[t.toks[h.T1].W]
}

// object returns the content words of clause ci from token i up to a
// comma or the clause's end, at most six.
func (t *Text) object(ci, i int) []string {
	end := i
	for c := t.clauses[ci]; end < c.T1 && t.toks[end].W != ","; end++ {
	}
	out := t.contentWords(i, end)
	if len(out) > 6 {
		out = out[:6]
	}
	return out
}

// contentWords returns the words of tokens a to b that carry content: a
// value, or a word of three letters or more that is no stop word.
func (t *Text) contentWords(a, b int) []string {
	var out []string
	for i := a; i < b; i++ {
		if tk := t.toks[i]; tk.Word && (tk.Value || len(tk.W) >= 3 && !stopWords[tk.W]) {
			out = append(out, tk.W)
		}
	}
	return out
}

func (t *Text) words(a, b int) string {
	var ws []string
	for i := a; i < b; i++ {
		ws = append(ws, t.toks[i].W)
	}
	return strings.Join(ws, " ")
}

// stopWords are left out of a modifier's object.
var stopWords = set(`the and for with that this from into onto over upon than then them they their there these those what when where which while who whom whose will would could should shall must have has had been being are was were its our your his her him she you not any all some each only also just very more most such own same other the del las los una unos unas que con por para sin sobre entre como pero mas ese esa esos esas este esta estos estas muy ser son fue era han hay sus`)

// accounted reports whether src, the invariant's own statement, carries
// modifier m: a cue of its class (and sense) and, for a condition, an
// exception, a time limit or an attribution, a word of its object.
func accounted(m Modifier, src *Text) bool {
	if src == nil {
		return false
	}
	if m.Class == Comparison && m.Sense == "upper" && !src.HasClass(Comparison) {
		return true // a value stated as the limit it is ("must not exceed 30 s" of "timeouts are 30 s")
	}
	for ci := range src.clauses {
		for _, h := range src.hitsOf(ci, m.Class) {
			if h.Sense != m.Sense {
				continue
			}
			switch m.Class {
			case Condition, Exception, Time, Attribution:
				// the source's own cue, with a word of what it governs
				// ("until Friday"), or the very same cue when it governs
				// nothing ("for now"); a time limit's words are looked for in
				// what the source's own limit governs, so that a rule "while
				// the review runs" is not restated by "until the findings are
				// listed" because the source names findings elsewhere
				held := len(m.Object) > 0 && src.holdsAlike(m.Object)
				if m.Class == Time {
					own := src.object(ci, h.T1)
					// "during the first hour of", "al comienzo de": the part
					// may be in the cue itself
					held = len(m.Object) > 0 && alike(own, m.Object) && !partOfSpan(append(strings.Fields(m.Cue), m.Object...), own)
				}
				if held || len(m.Object) == 0 && src.words(h.T0, h.T1) == m.Cue {
					return true
				}
			case Quantifier, Hedge:
				// "as a general rule" is not carried by a source that says
				// "they care about that most": the same words, or none
				if src.words(h.T0, h.T1) == m.Cue {
					return true
				}
			default:
				return true
			}
		}
	}
	return m.Class == Attribution && sourceSpeaker(m)
}

// sourceSpeaker reports whether an attribution names the one who gave the
// invariant's statement: the user ("per the user", "el usuario dijo").
func sourceSpeaker(m Modifier) bool {
	for _, w := range append(append(strings.Fields(m.Cue), m.Object...), m.Before...) {
		switch w {
		case "user", "user's", "usuario", "operator", "operador", "you":
			return true
		}
	}
	return false
}

// holdsAny reports whether the text holds one of words as a token.
func (t *Text) holdsAny(words []string) bool {
	for _, tk := range t.toks {
		for _, w := range words {
			if tk.W == w {
				return true
			}
		}
	}
	return false
}

func quote(s string) string { return "\"" + s + "\"" }

// Carries reports whether the subject's source states a modifier of class
// c that text restates: the source holds a cue of c, and a content word of
// text that is not itself a cue of c ("Friday" of "until Friday 18:00
// UTC"). A summary's typed field (a constraint's condition or expiry) is
// read with it.
func (s *Subject) Carries(c Class, text string) bool {
	if s.Source == nil {
		return false
	}
	cue := false
	for ci := range s.Source.clauses {
		cue = cue || len(s.Source.hitsOf(ci, c)) > 0
	}
	if !cue {
		return false
	}
	t := New(text)
	inCue := map[int]bool{}
	for ci := range t.clauses {
		for _, h := range t.hitsOf(ci, c) {
			for k := h.T0; k < h.T1; k++ {
				inCue[k] = true
			}
		}
	}
	var words []string
	for i, w := range t.toks {
		if !inCue[i] && w.Word && (w.Value || len(w.W) >= 3 && !stopWords[w.W]) {
			words = append(words, w.W)
		}
	}
	return len(words) == 0 || s.Source.holdsAny(words)
}

// modifierClass is set for the classes of the modifier stage.
var modifierClass = map[Class]bool{Condition: true, Exception: true, Quantifier: true, Attribution: true, Time: true, Past: true,
	Presupposition: true, Hedge: true, Concession: true, Counterfactual: true, Comparison: true, Approx: true}

// insidePredicate reports whether a modifier's words lie inside a longer
// phrase of a predicate class ("sin" inside "sin pedir permiso", "until"
// inside "until approved" read as a condition).
func (t *Text) insidePredicate(ci int, h Hit) bool {
	for _, o := range t.hitsIn(ci) {
		if !modifierClass[o.Class] && o.T0 <= h.T0 && h.T1 <= o.T1 && o.T1-o.T0 > h.T1-h.T0 {
			return true
		}
	}
	return false
}

// even reports whether a condition or a time limit is preceded by "even"
// ("even once the notes are written", "incluso si"): it widens what the
// clause says instead of narrowing it.
func (t *Text) even(h Hit) bool {
	if h.Class != Condition && h.Class != Time && h.Class != Concession || h.T0 == 0 {
		return false
	}
	switch t.toks[h.T0-1].W {
	case "even", "incluso", "aun", "ni":
		return true
	}
	return false
}

// sessionWords name the work a rule is given for: a time limit over them
// ("during the investigation", "mientras dure la revisión") is the rule's
// own scope, not an expiry.
var sessionWords = set(`session investigation review audit incident task work sev sev1 sev2 sev3 outage migration cutover cut-over window maintenance sesion investigacion revision auditoria incidente tarea trabajo migracion ventana`)

// sessionScope reports whether a time limit governs the work itself: its
// object names a word of sessionWords with nothing before it but a verb
// of lasting in the present ("while the review runs", "mientras dure la
// revisión"). A part of the work ("during the first hour of the
// incident") or a lasting in the past ("mientras duró la revisión") is a
// limit the rule may not have.
func (t *Text) sessionScope(ci int, h Hit) bool {
	if h.Class != Time || partOfSpan(strings.Fields(t.words(h.T0, h.T1)), nil) {
		return false // "al comienzo de la revisión": a part of it
	}
	for _, w := range t.object(ci, h.T1) {
		switch {
		case sessionWords[w]:
			return true
		case !lastingWords[w]:
			return false
		}
	}
	return false
}

// lastingWords are the verbs of lasting, in the present, that may stand
// between a time limit and the work it spans.
var lastingWords = set(`runs run lasts last continues goes ongoing current dure duren dura duran siga sigan continue continuen`)

// Attributed reports whether the text reports someone else's words: a
// cue of distance, or an attribution that the subject's source does not
// carry ("according to the compliance wiki").
func (t *Text) Attributed(s *Subject) bool {
	for ci := range t.clauses {
		if t.distanced(ci) {
			return true
		}
		for _, m := range t.modifiers(ci, []Class{Attribution}, nil) {
			if !accounted(m, s.Source) {
				return true
			}
		}
	}
	return false
}

// alike reports whether a word of as is one of bs, or shares its first
// five letters with one of five letters or more, as holdsAlike does.
func alike(as, bs []string) bool {
	for _, a := range as {
		for _, b := range bs {
			if a == b || len(a) >= 5 && len(b) >= 5 && a[:5] == b[:5] {
				return true
			}
		}
	}
	return false
}

// spanParts name a part of a span of time: "the first hour of the
// incident", "la fase inicial de la revisión".
var spanParts = set(`first second third last final initial early earlier opening beginning start end half part phase stage hour hours minute minutes day days primera primer primeras primeros segunda segundo ultima ultimo inicial inicio principio comienzo final mitad parte fase etapa hora horas minuto minutos dia dias`)

// partOfSpan reports whether a time limit's object names a part of a span
// (spanParts) that the source's own limit does not.
func partOfSpan(object, own []string) bool {
	for _, w := range object {
		if spanParts[w] && !alike([]string{w}, own) {
			return true
		}
	}
	return false
}

// holdsAlike reports whether the text holds one of words, or a word that
// shares its first five letters with one of five letters or more: the
// cognates a Spanish summary writes of an English rule ("explicito" of
// "explicit", "incidente" of "incident").
func (t *Text) holdsAlike(words []string) bool {
	for _, tk := range t.toks {
		for _, w := range words {
			if tk.W == w || len(w) >= 5 && len(tk.W) >= 5 && tk.W[:5] == w[:5] {
				return true
			}
		}
	}
	return false
}

// modifierHit is a modifier with the hit it was read from.
type modifierHit struct {
	Modifier
	hit Hit
}

// label reports whether a comparison or a word of time is a field's
// label: "before: about 400 ms | after: 2.3 s".
func (t *Text) label(h Hit) bool {
	return (h.Class == Comparison || h.Class == Time || h.Class == Past) && h.T1 < len(t.toks) && t.toks[h.T1].W == ":"
}

// modifierHits returns the modifiers of clause ci among classes: every
// hit of them but a past copula that reports an instruction, a cue inside
// a longer phrase of a predicate, a condition after "even", and a time
// limit over the work itself.

func (t *Text) modifierHits(ci int, classes []Class) []modifierHit {
	var out []modifierHit
	for _, cj := range []int{t.frame(ci), ci} {
		if cj < 0 {
			continue
		}
		for _, h := range t.hitsOf(cj, classes...) {
			if h.Class == Question || h.Class == Past && t.reportsAfter(h) || t.insidePredicate(cj, h) || t.even(h) || t.sessionScope(cj, h) || t.label(h) {
				continue
			}
			m := Modifier{Class: h.Class, Sense: h.Sense, Cue: t.words(h.T0, h.T1), Object: t.object(cj, h.T1), Before: t.contentWords(t.clauses[cj].T0, h.T0)}
			out = append(out, modifierHit{m, h})
		}
	}
	return out
}

// frame returns the clause that frames clause ci, or -1: the clause right
// before it, in its sentence, ending in a colon, when it is too long to be
// its heading ("best practice while the review runs: don't push"). What
// modifies a frame modifies what it frames.
func (t *Text) frame(ci int) int {
	if ci == 0 {
		return -1
	}
	c, f := t.clauses[ci], t.clauses[ci-1]
	if c.Heading == ci-1 || f.Sent != c.Sent || !endsAtColon(t.toks, &f) {
		return -1
	}
	return ci - 1
}
