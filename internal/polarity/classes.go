package polarity

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// Class is a semantic class of words: what a clause says about the subject
// of an invariant, however it is worded (classes.tsv, docs/polarity.md).
type Class string

// The classes.
const (
	// Deontic: prohibition, obligation and permission (may, is allowed to,
	// nothing stops you from, is forbidden, must; puede, se permite, nada
	// impide, está prohibido, debe).
	Deontic Class = "deontic"
	// Negation: not, never, nobody, without; no, nadie, sin. It flips the
	// class word it stands before ("nobody may push" forbids).
	NegationClass Class = "negation"
	// Change: the rule or the state it sets stops holding (lifted,
	// thawed, no longer in force; queda suspendida), holds on (remains
	// in force, enforced; sigue vigente), or names a rule (ban, freeze).
	Change Class = "change"
	// Known: words on a subject that neither keep nor end it (announced,
	// agreed; anunciada, acordada).
	Known Class = "known"
	// HistoryClass: a frame of proposal, consideration or past use (was
	// considered, used to be, initially; se consideró, antes era).
	HistoryClass Class = "history"
	// Frame: the frame of a new decision (the new rule:, from now on; la
	// nueva regla, a partir de ahora): a retraction word after it is the
	// decision's content.
	FrameClass Class = "frame"
	// Completion: an operation finished or took hold, did not, may have,
	// or only started.
	Completion Class = "completion"
	// Epistemic: an idea is open or likely, refuted, or confirmed.
	Epistemic Class = "epistemic"
	// Antonym: a state a rule sets, its opposite, or an action the state
	// forbids (antonyms.tsv).
	Antonym Class = "antonym"
)

// Sense is what an entry of a class says.
type Sense string

// The senses, by class.
const (
	Permit   Sense = "permit"  // deontic
	Forbid   Sense = "forbid"  // deontic
	Oblige   Sense = "oblige"  // deontic
	Not      Sense = "not"     // negation
	Ends     Sense = "ends"    // change
	Holds    Sense = "holds"   // change
	RuleNoun Sense = "rule"    // change: a noun that names a rule
	Neutral  Sense = "neutral" // known
	Past     Sense = "past"    // history
	// Superseded: history, a value named as no longer current (we first
	// proposed, overridden, are superseded, mislabelled as; se propuso,
	// quedó descartado). Only Text.HistoryFrame reads it: these words
	// stand in their own trie and never shadow what the class reader
	// reads of a rule, an operation or a hypothesis.
	Superseded Sense = "superseded" // history
	NewFrame   Sense = "new"        // frame
	Done       Sense = "done"       // completion
	NotDone    Sense = "notdone"    // completion
	Hedged     Sense = "hedge"      // completion
	Started    Sense = "started"    // completion
	Open       Sense = "open"       // epistemic
	Refuted    Sense = "refuted"    // epistemic
	Confirmed  Sense = "confirmed"  // epistemic
	State      Sense = "state"      // antonym: the state a rule sets
	Opposite   Sense = "opposite"   // antonym: its opposite
	Action     Sense = "action"     // antonym: an action the state forbids
)

var classSenses = map[Class][]Sense{
	Deontic:       {Permit, Forbid, Oblige},
	NegationClass: {Not},
	Change:        {Ends, Holds, RuleNoun},
	Known:         {Neutral},
	HistoryClass:  {Past, Superseded},
	FrameClass:    {NewFrame},
	Completion:    {Done, NotDone, Hedged, Started},
	Epistemic:     {Open, Refuted, Confirmed},
}

// Entry is one row of classes.tsv, or one column of a row of antonyms.tsv.
type Entry struct {
	Lang   string
	Class  Class
	Sense  Sense
	Phrase string // as in the table: [a|b c] alternatives, [a|b]? optional
	// Example is a sentence where {C} stands for each alternative of
	// Phrase (antonyms: {O} for each opposite) and <…> marks the subject.
	Example string
	// Pair is the index of the antonym pair (its row of antonyms.tsv),
	// -1 for classes.tsv.
	Pair int
	// Follows is set when the example puts the entry before its subject
	// ("may <push>", "lift the <freeze>"): a deontic or change entry then
	// bears on a subject that follows it closely, else on one before it.
	Follows bool
	// File and Line locate the entry.
	File string
	Line int
}

// Pair is one row of antonyms.tsv: a state, its opposite and what it
// forbids, as entries.
type Pair struct {
	// Concept names the state across languages ("readonly").
	Concept                   string
	Lang                      string
	States, Opposites, Action int // indexes in Entries()
	Example                   string
	Line                      int
}

//go:embed classes.tsv
var classesTSV string

//go:embed antonyms.tsv
var antonymsTSV string

type classTable struct {
	entries []Entry
	pairs   []Pair
	// trie holds classes.tsv, antTrie antonyms.tsv: a word may be both
	// ("esta descongelada" ends a state and names its opposite); valTrie
	// holds the history entries of sense superseded (HistoryFrame).
	trie, antTrie, valTrie *node
}

var (
	classOnce sync.Once
	classTab  *classTable
	classErr  error
)

func classesOf() *classTable {
	classOnce.Do(func() { classTab, classErr = parseClasses(classesTSV, antonymsTSV) })
	if classErr != nil {
		panic("polarity: " + classErr.Error()) // the embedded tables are tested
	}
	return classTab
}

// Entries returns the class entries (classes.tsv, then antonyms.tsv), in
// file order.
func Entries() []Entry { return append([]Entry(nil), classesOf().entries...) }

// Pairs returns the antonym pairs, in file order.
func Pairs() []Pair { return append([]Pair(nil), classesOf().pairs...) }

func parseClasses(classes, antonyms string) (*classTable, error) {
	t := &classTable{trie: &node{}, antTrie: &node{}, valTrie: &node{}}
	for i, line := range strings.Split(classes, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("classes.tsv:%d: want 5 tab-separated fields, got %d", i+1, len(f))
		}
		e := Entry{Lang: f[0], Class: Class(f[1]), Sense: Sense(f[2]), Phrase: f[3], Example: f[4], Pair: -1, File: "classes.tsv", Line: i + 1}
		if e.Lang != "en" && e.Lang != "es" {
			return nil, fmt.Errorf("classes.tsv:%d: language %q", i+1, e.Lang)
		}
		senses, ok := classSenses[e.Class]
		if !ok {
			return nil, fmt.Errorf("classes.tsv:%d: class %q", i+1, e.Class)
		}
		if !hasSense(senses, e.Sense) {
			return nil, fmt.Errorf("classes.tsv:%d: class %s has no sense %q", i+1, e.Class, e.Sense)
		}
		if !strings.Contains(e.Example, "{C}") || !strings.Contains(e.Example, "<") || !strings.Contains(e.Example, ">") {
			return nil, fmt.Errorf("classes.tsv:%d: the example needs {C} and a <subject>", i+1)
		}
		if err := t.add(e); err != nil {
			return nil, fmt.Errorf("classes.tsv:%d: %v", i+1, err)
		}
	}
	for i, line := range strings.Split(antonyms, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 6 {
			return nil, fmt.Errorf("antonyms.tsv:%d: want 6 tab-separated fields, got %d", i+1, len(f))
		}
		concept := f[0]
		if concept == "" {
			return nil, fmt.Errorf("antonyms.tsv:%d: no concept", i+1)
		}
		f = f[1:]
		if f[0] != "en" && f[0] != "es" {
			return nil, fmt.Errorf("antonyms.tsv:%d: language %q", i+1, f[0])
		}
		if !strings.Contains(f[4], "{O}") || !strings.Contains(f[4], "<") {
			return nil, fmt.Errorf("antonyms.tsv:%d: the example needs {O} and a <subject>", i+1)
		}
		p := Pair{Concept: concept, Lang: f[0], Example: f[4], Line: i + 1}
		idx := []*int{&p.States, &p.Opposites, &p.Action}
		for k, s := range []Sense{State, Opposite, Action} {
			*idx[k] = len(t.entries)
			e := Entry{Lang: f[0], Class: Antonym, Sense: s, Phrase: f[1+k], Example: f[4], Pair: len(t.pairs), File: "antonyms.tsv", Line: i + 1}
			if err := t.add(e); err != nil {
				return nil, fmt.Errorf("antonyms.tsv:%d: %v", i+1, err)
			}
		}
		t.pairs = append(t.pairs, p)
	}
	return t, nil
}

func hasSense(ss []Sense, s Sense) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// add appends e and puts every word sequence of its phrase in the trie.
func (t *classTable) add(e Entry) error {
	seqs, err := expand(e.Phrase)
	if err != nil {
		return err
	}
	if c, o := strings.Index(e.Example, "{C}"), strings.Index(e.Example, "<"); c >= 0 && c < o {
		e.Follows = true
	}
	idx := len(t.entries)
	t.entries = append(t.entries, e)
	for _, s := range seqs {
		n := t.trie
		switch {
		case e.Class == Antonym:
			n = t.antTrie
		case e.Class == HistoryClass && e.Sense == Superseded:
			n = t.valTrie
		}
		toks := tokenize(s)
		if len(toks) == 0 {
			return fmt.Errorf("an empty alternative in %q", e.Phrase)
		}
		for _, tk := range toks {
			if n.next == nil {
				n.next = map[string]*node{}
			}
			nx := n.next[tk.low]
			if nx == nil {
				nx = &node{}
				n.next[tk.low] = nx
			}
			n = nx
		}
		if !containsInt(n.cues, idx) {
			n.cues = append(n.cues, idx)
		}
	}
	return nil
}
