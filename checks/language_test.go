package checks

import (
	"testing"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// Rules across languages (issue 24): a rule whose patterns are English is
// found by concept in a Spanish summary (its state, the actions it
// forbids) and read by class there, the faithful restatement kept and
// the inversion in the same words failed; a Spanish entry that touches
// the rule but holds no concept of it is uncertain, never a pass nor a
// fail; a rule dropped still fails.

// englishOnly makes the fixture's rule ro English only.
func englishOnly(sc *scenarios.Scenario) {
	for _, iv := range sc.Invariants {
		if c, ok := iv.(*scenarios.Constraint); ok && c.ID == "ro" {
			c.Match = []string{`read[- ]?only`}
		}
	}
}

func TestConstraintAcrossLanguages(t *testing.T) {
	cases := []checkCase{
		// faithful, by concept
		{name: "es faithful: state", mut: setConstraint("investigación de solo lectura: nada de cambios en prod"), want: result.Pass},
		{name: "es faithful: state in brackets", mut: setConstraint("la investigación (de solo lectura) no toca prod"), want: result.Pass},
		{name: "es faithful: forbidden action only", mut: setConstraint("no se puede cambiar nada en prod durante la investigación"), want: result.Pass},
		{name: "es faithful: negated action", mut: setConstraint("en prod, no lo cambies: la investigación es de solo lectura"), want: result.Pass},
		// adversarial: the same words, inverted
		{name: "es inverted: state cancelled", mut: setConstraint("la investigación ya no es de solo lectura"), want: result.Fail, ptr: "/constraints/0/text"},
		{name: "es inverted: state negated", mut: setConstraint("la investigación no es de solo lectura: se puede cambiar prod"), want: result.Fail},
		{name: "es inverted: permission beside the state", mut: func(s *summary.Summary) {
			s.Constraints[0].Text = "investigación de solo lectura"
			s.NextSteps = []string{"se pueden hacer cambios en prod si hace falta"}
		}, want: result.Fail, ptr: "/next_steps/0"},
		{name: "es inverted: opposite state", mut: setConstraint("la investigación ahora es de lectura y escritura"), want: result.Fail},
		// the rule parked in another field
		{name: "es parked in decisions", mut: func(s *summary.Summary) {
			s.Constraints = s.Constraints[1:]
			s.Decisions = []summary.Statement{{Text: "investigación de solo lectura: nada de cambios en prod", SourceSeq: 1}}
		}, want: result.Fail, msg: "no constraints entry"},
		// dropped
		{name: "es dropped", mut: func(s *summary.Summary) {
			s.Constraints = []summary.Constraint{{Text: "mantener el contexto por debajo de 50.000 tokens", SourceSeq: 7}}
		}, want: result.Fail},
		// touched, no concept: cannot tell
		{name: "es no concept, cites the rule", mut: setConstraint("la investigación se limita a mirar e informar de lo que se vea"), want: result.Uncertain, ptr: "/constraints/0/text", msg: "cannot tell"},
		// English: the patterns decide
		{name: "en faithful: bracketed state and negated actions", mut: setConstraint("the investigation (read-only): don't apply, restart, scale or edit anything in prod"), want: result.Pass},
		{name: "en inverted: same words", mut: setConstraint("the investigation (read-only until #5) may now apply, restart and change prod"), want: result.Fail},
		// English, no pattern matches: a restatement by the rule's concept
		// cannot be told from a narrower rule in the same words
		{name: "en no pattern, the forbidden action prohibited", mut: setConstraint("the investigation only looks and reports: nothing in prod is changed"), want: result.Pass},
		{name: "en no pattern, the state in other words", mut: setConstraint("the investigation is view-only: no changes in prod"), want: result.Pass},
		{name: "en no pattern, the state in other words, inverted", mut: setConstraint("the investigation is no longer view-only: prod may be changed"), want: result.Fail},
		{name: "en no pattern, no concept", mut: setConstraint("the investigation only looks at prod and reports to the on-call"), want: result.Fail, msg: "no constraints entry"},
	}
	for i := range cases {
		cases[i].sc = englishOnly
	}
	runCases(t, result.TypeConstraint, "ro", cases)
}

// An old value named as history in brackets, an appositive or a relative
// clause is no current value (the old class of internal/meaning);
// the same words with the values swapped state the old value as current.
func TestCorrectionHistoryFrames(t *testing.T) {
	var cases []checkCase
	add := func(name, text string, want result.Status) {
		cases = append(cases, checkCase{name: name, sc: rateScenario, mut: withText(text), want: want})
	}
	add("en faithful: status in brackets", "The backfill runs at 50 rows/s; defaults.env pauses the job on lag (its rate and chunk defaults, 200 rows/s and 1000, are superseded).", result.Pass)
	add("en inverted: status in brackets", "The backfill runs at 200 rows/s; defaults.env pauses the job on lag (its rate and chunk defaults, 50 rows/s and 1000, are superseded).", result.Fail)
	add("en faithful: relative clause", "The backfill runs at 50 rows/s (the rate the wiki had mislabelled as 200 rows/s).", result.Pass)
	add("en inverted: relative clause", "The backfill runs at 200 rows/s (the rate the wiki had mislabelled as 50 rows/s).", result.Fail)
	add("en faithful: appositive", "The backfill runs at 50 rows/s; 200 rows/s, the old value, was dropped.", result.Pass)
	add("en old value current in a plain clause", "The backfill runs at 50 rows/s, and the cap stays at 200 rows/s.", result.Fail)
	add("es faithful: appositive", "El backfill va a 50 filas/s; 200 filas/s, la cifra anterior, ya descartada.", result.Pass)
	add("es inverted: appositive", "El backfill va a 200 filas/s; 50 filas/s, la cifra propuesta, ya descartada.", result.Fail)
	add("es faithful: relative clause", "El backfill va a 50 filas/s (la tasa que la wiki había etiquetado por error como 200 filas/s).", result.Pass)
	add("es inverted: relative clause", "El backfill va a 200 filas/s (la tasa que la wiki había etiquetado por error como 50 filas/s).", result.Fail)
	add("es old value current in a plain clause", "El backfill va a 50 filas/s y el tope sigue en 200 filas/s.", result.Fail)
	runCases(t, result.TypeCorrection, "port", cases)
}

// A refuted hypothesis whose patterns are English, named in a Spanish
// field by one of its names (dns) as open, likely or confirmed, or in a
// Spanish hypotheses entry not marked refuted, is uncertain: the patterns
// cannot tell whether it is the refuted idea; so is a plain Spanish
// statement about it ("el DNS está roto"), which may restate or refute it
// in words no table holds. Refuted in Spanish, or only mentioned inside a
// phrase about something else, it passes.
func TestRefutedHypothesisAcrossLanguages(t *testing.T) {
	spanishClaim := func(claim, status string) func(s *summary.Summary) {
		return func(s *summary.Summary) {
			s.Hypotheses[0].Claim = claim
			s.Hypotheses[0].Status = status
		}
	}
	runCases(t, result.TypeRefutedHypothesis, "dns", []checkCase{
		{name: "es restated as likely", mut: addStep("probablemente el DNS sigue roto"), want: result.Uncertain, ptr: "/next_steps/0", msg: "other words"},
		{name: "es restated as open", mut: addStep("sigue en pie que el DNS esté roto"), want: result.Uncertain, msg: "other words"},
		{name: "es faithful: refuted", mut: addStep("se descartó que el DNS esté roto: db resuelve"), want: result.Pass},
		{name: "es faithful: a mention", mut: addStep("revisar la caché del DNS más tarde"), want: result.Pass},
		{name: "es restated as a plain fact", mut: addStep("el DNS está roto, así que hay que cambiar de resolver"), want: result.Uncertain, ptr: "/next_steps/0", msg: "plain statement"},
		{name: "es restated as a plain fact with a verb", mut: addStep("el DNS no resuelve db desde la api"), want: result.Uncertain, msg: "plain statement"},
		{name: "es entry open", mut: spanishClaim("el DNS está roto", summary.HypothesisOpen), want: result.Fail, ptr: "/hypotheses/0/status"},
		{name: "es faithful: entry refuted", mut: spanishClaim("el DNS está roto", summary.HypothesisRefuted), want: result.Pass},
		{name: "en still read by the patterns", mut: addStep("DNS is broken, most likely"), want: result.Fail},
	})
}
