package polarity

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// classCase is one sentence built from a table entry: what the reader
// must read in it about its subject.
type classCase struct {
	text    string
	subject *Subject
	spans   []Span
	want    Reading
	// cue is the alternative the sentence was built with: a class hit
	// must cover it (the entry is read, not only a cue of cues.tsv).
	cue string
	// value is set for a history entry of sense superseded: the subject
	// (spans[0]) is a value, and HistoryFrame must frame it with cue.
	value bool
}

// mark removes the <…> marks of an example and returns the subject.
func mark(example string) (text, subject string) {
	i, j := strings.Index(example, "<"), strings.Index(example, ">")
	if i < 0 || j < i {
		return example, ""
	}
	return example[:i] + example[i+1:j] + example[j+1:], example[i+1 : j]
}

func compile(t testing.TB, p string) *regexp.Regexp {
	t.Helper()
	re, err := textmatch.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	return re
}

func spansOf(text string, res ...*regexp.Regexp) []Span {
	var out []Span
	for _, re := range res {
		for _, loc := range re.FindAllStringIndex(text, -1) {
			out = append(out, Span{Start: loc[0], End: loc[1], Re: re})
		}
	}
	return out
}

// opSpans finds an operation id as a whole token.
func opSpans(text, id string) []Span {
	var out []Span
	for off := 0; ; {
		i := strings.Index(text[off:], id)
		if i < 0 {
			return out
		}
		i += off
		out = append(out, Span{Start: i, End: i + len(id)})
		off = i + len(id)
	}
}

// expectedFor is the reading each class and sense gives on the subject of
// its examples (docs/polarity.md).
var expectedFor = map[Class]map[Sense]Reading{
	Deontic:       {Permit: Contradicts, Oblige: Contradicts, Forbid: Affirms},
	NegationClass: {Not: Affirms},
	Change:        {Ends: Contradicts, Holds: Affirms, RuleNoun: Contradicts},
	Known:         {Neutral: Affirms},
	HistoryClass:  {Past: History, Superseded: History},
	FrameClass:    {NewFrame: Affirms},
	Completion:    {Done: Contradicts, NotDone: Affirms, Hedged: Affirms, Started: Unrelated},
	Epistemic:     {Open: Contradicts, Refuted: Affirms, Confirmed: Contradicts},
}

// caseFor builds the sentence of entry e with alternative alt.
func caseFor(t testing.TB, e Entry, alt, subjectText string) classCase {
	t.Helper()
	example := strings.ReplaceAll(e.Example, "{C}", alt)
	if subjectText != "" {
		i, j := strings.Index(example, "<"), strings.Index(example, ">")
		example = example[:i+1] + subjectText + example[j:]
	}
	text, subj := mark(example)
	text = textmatch.Fold(text)
	subj = textmatch.Fold(subj)
	c := classCase{text: text, want: expectedFor[e.Class][e.Sense], cue: alt}
	switch e.Class {
	case Deontic, NegationClass:
		action := strings.Fields(subj)[0]
		re := compile(t, `(never|do not|must not|nunca|no) `+regexp.QuoteMeta(strings.ToLower(action)))
		stmt := "Never " + action + " to main."
		if e.Lang == "es" {
			stmt = "Nunca " + action + " a main."
		}
		c.subject = RuleSubject([]*regexp.Regexp{re}, stmt)
		c.spans = spansOf(text, re)
	case Change, Known, HistoryClass:
		if e.Sense == Superseded {
			i := strings.Index(text, subj)
			c.value, c.spans = true, []Span{{Start: i, End: i + len(subj)}}
			break
		}
		if e.Sense == RuleNoun {
			stmt := "Platform change freeze on " + subj + " until Friday."
			if e.Lang == "es" {
				stmt = "Congelación de cambios en " + subj + " hasta el viernes."
			}
			re := compile(t, `change freeze|congelacion de cambios`)
			c.subject = RuleSubject([]*regexp.Regexp{re}, textmatch.Fold(stmt))
			c.spans = spansOf(text, re)
			break
		}
		re := compile(t, regexp.QuoteMeta(strings.ToLower(subj)))
		c.subject = RuleSubject([]*regexp.Regexp{re}, "the "+subj+" holds")
		c.spans = spansOf(text, re)
	case FrameClass:
		re := compile(t, regexp.QuoteMeta(strings.ToLower(subj)))
		c.subject = RuleSubject([]*regexp.Regexp{re})
		c.spans = spansOf(text, re)
	case Completion:
		c.subject = OperationSubject()
		c.spans = opSpans(text, subj)
	case Epistemic:
		re := compile(t, regexp.QuoteMeta(strings.ToLower(subj)))
		c.subject = HypothesisSubject()
		c.spans = spansOf(text, re)
	}
	return c
}

func (c classCase) check(t testing.TB) {
	t.Helper()
	x := New(c.text)
	if c.value {
		v, ok := x.HistoryFrame(c.spans[0].Start, c.spans[0].End)
		if !ok || !strings.Contains(strings.ToLower(v.Cue), strings.ToLower(textmatch.Fold(c.cue))) {
			t.Errorf("%q: HistoryFrame = %+v, %v; want the frame %q", c.text, v, ok, c.cue)
		}
		return
	}
	got := Decide(x.Read(c.subject, c.spans))
	if got.Reading != c.want {
		t.Errorf("%q: got %s (%+v); want %s", c.text, got.Reading, got, c.want)
	}
	// the alternative is read as a class word
	x.buildClasses()
	alt := strings.ToLower(textmatch.Fold(c.cue))
	i := strings.Index(strings.ToLower(c.text), alt)
	if i < 0 {
		t.Fatalf("%q not in %q", alt, c.text)
	}
	covered := false
	for _, h := range x.ci.hits {
		if h.a <= i && i < h.b {
			covered = true
		}
	}
	if !covered {
		t.Errorf("%q: %q is not read as a class word", c.text, c.cue)
	}
}

// Every alternative of every entry of classes.tsv, put in its entry's
// example sentence, gives its class's reading of the subject.
func TestEveryClassEntry(t *testing.T) {
	for _, e := range Entries() {
		if e.Class == Antonym {
			continue
		}
		seqs, err := expand(e.Phrase)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprintf("%s/%s/%s/line%d", e.Lang, e.Class, e.Sense, e.Line), func(t *testing.T) {
			for _, alt := range seqs {
				caseFor(t, e, alt, "").check(t)
			}
		})
	}
}

// Every pair of antonyms.tsv: a rule that sets a state (each form of
// it) is contradicted by each opposite given to its subject, and by a
// permission on each action it forbids; it is kept by the state itself
// and by a prohibition of the action.
func TestEveryAntonymPair(t *testing.T) {
	tab := classesOf()
	for _, p := range Pairs() {
		states, _ := expand(tab.entries[p.States].Phrase)
		opposites, _ := expand(tab.entries[p.Opposites].Phrase)
		actions, _ := expand(tab.entries[p.Action].Phrase)
		t.Run(fmt.Sprintf("%s/line%d", p.Lang, p.Line), func(t *testing.T) {
			for _, st := range states {
				re := compile(t, regexp.QuoteMeta(st))
				plain, subj := mark(p.Example)
				stmt := "The " + subj + " is " + st + "."
				permit, forbid := "Agents may %s the "+subj+".", "Agents must never %s the "+subj+"."
				if p.Lang == "es" {
					stmt = "La " + subj + " es " + st + "."
					permit, forbid = "Los agentes pueden %s la "+subj+".", "Los agentes nunca deben %s la "+subj+"."
				}
				sub := RuleSubject([]*regexp.Regexp{re}, textmatch.Fold(stmt))
				run := func(text, cue string, want Reading) {
					text = textmatch.Fold(text)
					classCase{text: text, subject: sub, spans: spansOf(text, re), want: want, cue: cue}.check(t)
				}
				for _, o := range opposites {
					run(strings.ReplaceAll(plain, "{O}", o), o, Contradicts)
				}
				run(strings.ReplaceAll(plain, "{O}", st), st, Affirms)
				for _, a := range actions {
					run(fmt.Sprintf(permit, a), a, Contradicts)
					run(fmt.Sprintf(forbid, a), a, Affirms)
				}
			}
		})
	}
}

func TestClassTableErrors(t *testing.T) {
	for _, tc := range []struct{ classes, antonyms, want string }{
		{"en\tdeontic\tpermit\tmay", "", "want 5"},
		{"fr\tdeontic\tpermit\tmay\tX {C} <y>.", "", "language"},
		{"en\tnope\tpermit\tmay\tX {C} <y>.", "", "class"},
		{"en\tdeontic\tends\tmay\tX {C} <y>.", "", "no sense"},
		{"en\tdeontic\tpermit\tmay\tX may y.", "", "{C}"},
		{"en\tdeontic\tpermit\t[may|\tX {C} <y>.", "", "unclosed"},
		{"", "x\ten\t[a]\t[b]\t[c]", "want 6"},
		{"", "x\ten\t[a]\t[b]\t[c]\tno slot", "{O}"},
		{"", "\ten\t[a]\t[b]\t[c]\tThe <x> is {O}.", "no concept"},
	} {
		if _, err := parseClasses(tc.classes, tc.antonyms); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseClasses(%q, %q) = %v; want an error with %q", tc.classes, tc.antonyms, err, tc.want)
		}
	}
}
