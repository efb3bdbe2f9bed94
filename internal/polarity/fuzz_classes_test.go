package polarity

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// filler is what the class fuzz targets grow a subject with: values,
// names and paths that hold no class word, no cue and no barrier.
var filler = []string{
	"protobuf", "3.25.x", "db.yml", "config/db.yaml", "50", "rows/s", "CAB-8812", "18:00", "UTC", "2026-12-02",
	"ops@northwind.io", "cluster", "prod-us-2", "v4.8.0", "role", "wh_restore", "#4", "payments-api",
	"10.42.8.0/24", "5432", "ledger", "invoices", "eu-west-1", "tax_code",
}

func fillerOf(picks []byte) string {
	var ws []string
	for _, p := range picks {
		if len(ws) == 6 {
			break
		}
		ws = append(ws, filler[int(p)%len(filler)])
	}
	return strings.Join(ws, " ")
}

// fuzzClass is the metamorphic property of one class: whatever the
// subject holds, every form of every entry of the class gives the class's
// reading, in each entry's example sentence.
func fuzzClass(f *testing.F, class Class) {
	f.Add([]byte{0, 1, 2})
	f.Add([]byte{6, 12, 9, 14})
	f.Add([]byte{})
	f.Add([]byte{17, 3, 22, 8, 5, 11, 19})
	f.Fuzz(func(t *testing.T, picks []byte) {
		fill := fillerOf(picks)
		for _, e := range Entries() {
			if e.Class != class {
				continue
			}
			_, subj := mark(e.Example)
			if fill != "" {
				subj += " " + fill
			}
			seqs, _ := expand(e.Phrase)
			for _, alt := range seqs {
				caseFor(t, e, alt, subj).check(t)
			}
		}
	})
}

func FuzzDeonticClass(f *testing.F)    { fuzzClass(f, Deontic) }
func FuzzNegationClass(f *testing.F)   { fuzzClass(f, NegationClass) }
func FuzzChangeClass(f *testing.F)     { fuzzClass(f, Change) }
func FuzzCompletionClass(f *testing.F) { fuzzClass(f, Completion) }
func FuzzEpistemicClass(f *testing.F)  { fuzzClass(f, Epistemic) }
func FuzzHistoryClass(f *testing.F)    { fuzzClass(f, HistoryClass) }

// FuzzAntonymClass: whatever a rule's subject holds, each opposite of the
// state it sets, given to the subject, contradicts the rule, in a plain
// clause, in a relative clause and in brackets; the state itself keeps it.
func FuzzAntonymClass(f *testing.F) {
	f.Add([]byte{0, 1, 2})
	f.Add([]byte{6, 12, 9, 14})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, picks []byte) {
		fill := fillerOf(picks)
		tab := classesOf()
		for _, p := range Pairs() {
			states, _ := expand(tab.entries[p.States].Phrase)
			opposites, _ := expand(tab.entries[p.Opposites].Phrase)
			_, subj := mark(p.Example)
			if fill != "" {
				subj += " " + fill
			}
			st := states[0]
			re := compile(t, regexp.QuoteMeta(st))
			stmt := "The " + subj + " is " + st + "."
			forms := []string{"The %s is now %s.", "Work on the %s, which is now %s.", "Work goes on (the %s is %s since #12)."}
			if p.Lang == "es" {
				stmt = "La " + subj + " es " + st + "."
				forms = []string{"La %s ahora es %s.", "Se trabaja en la %s, que ahora es %s.", "Se sigue (la %s es %s desde el #12)."}
			}
			sub := RuleSubject([]*regexp.Regexp{re}, textmatch.Fold(stmt))
			for _, form := range forms {
				for _, o := range opposites {
					text := textmatch.Fold(fmt.Sprintf(form, subj, o))
					classCase{text: text, subject: sub, spans: spansOf(text, re), want: Contradicts, cue: o}.check(t)
				}
				text := textmatch.Fold(fmt.Sprintf(form, subj, st))
				classCase{text: text, subject: sub, spans: spansOf(text, re), want: Affirms, cue: st}.check(t)
			}
		}
	})
}
