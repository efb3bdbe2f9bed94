package checks

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// Every history frame, in both languages, names the value after (or
// before) it as the old one; a value stated as current, or "antes de" a
// date, is no history. This is the reading the correction check relies on
// (internal/meaning.ReadValue for a replaced value), on raw text as a
// summary writes it; each phrase of the old class is tested in
// internal/meaning (TestEveryWordRow).
func TestHistoryFrames(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Rate: we first proposed 200 rows/s.", true},
		{"Rate: 200 rows/s was considered and dropped.", true},
		{"Tasa: 50 filas/s (antes 200 rows/s).", true},
		{"jobs/backfill/defaults.env pauses the job (its rate and chunk defaults, 200 rows/s and 1000, are superseded).", true},
		{"200 filas/s, la cifra anterior, ya descartada.", true},
		{"The default, 200 rows/s, which was replaced by 50 rows/s, no longer holds.", true},
		{"The rate is 200 rows/s.", false},
		{"The rate is 200 rows/s, as initially planned.", false},
		{"crear el índice antes del 200 rows/s", false},
		{"Initially 50 rows/s; now 200 rows/s.", false},
		{"La tasa era baja al principio y ahora es 200 rows/s.", false},
		{"We first proposed 50 rows/s; the backfill stays at 200 rows/s.", false},
		{"The earlier plan was 50 rows/s, and the backfill runs at 200 rows/s.", false},
	} {
		text := textmatch.Fold(tc.text)
		i := strings.Index(text, "200")
		r := meaning.New(text).ReadValue(i, i+len("200 rows/s"), meaning.Replaced, nil)
		if got := r.Verdict == meaning.Restates; got != tc.want {
			t.Errorf("ReadValue(%q) = %v (%s); want named as the old value: %v", tc.text, r.Verdict, r.Why, tc.want)
		}
	}
}

// rateScenario turns the fixture's correction into a figure: at #7 the
// user corrects the rate from 200 rows/s to 50 rows/s.
func rateScenario(sc *scenarios.Scenario) {
	sc.Events[6].Text = "Correction: the backfill rate is now 50 rows/s, not 200 rows/s. Keep the context under 50,000 tokens."
	sc.Invariants[4] = &scenarios.Correction{InvariantBase: scenarios.InvariantBase{ID: "port"}, Old: "200 rows/s", New: "50 rows/s", Subject: "backfill rate", SourceSeq: 7}
}

// rateSummary is the fixture's gold summary for rateScenario, then f.
func rateSummary(f func(s *summary.Summary)) func(s *summary.Summary) {
	return func(s *summary.Summary) {
		s.Corrections = []summary.Correction{{Subject: "backfill rate", Value: "50 rows/s", Supersedes: "200 rows/s", SourceSeq: 7}}
		if f != nil {
			f(s)
		}
	}
}

func withText(text string) func(s *summary.Summary) {
	return rateSummary(func(s *summary.Summary) { s.Text += " " + text })
}

// The false-alarm classes of the correction check, each faithful in
// English and Spanish, and the summaries that would fool it.
func TestCorrectionFalseAlarmClasses(t *testing.T) {
	var cases []checkCase
	add := func(name string, mut func(s *summary.Summary), want result.Status) {
		cases = append(cases, checkCase{name: name, sc: rateScenario, mut: mut, want: want})
	}
	// a superseded value quoted as history
	add("history: first proposed", withText("We first proposed 200 rows/s; the backfill runs at 50 rows/s."), result.Pass)
	add("history: earlier plan", withText("The earlier plan was 200 rows/s. The backfill runs at 50 rows/s."), result.Pass)
	add("history: considered", withText("200 rows/s was considered and dropped; the backfill runs at 50 rows/s."), result.Pass)
	add("es history: se propuso", withText("Se propuso primero 200 rows/s; el backfill va a 50 rows/s."), result.Pass)
	add("es history: plan inicial", withText("El plan inicial era 200 filas/s. El backfill va a 50 filas/s."), result.Pass)
	add("es history: descartado", withText("200 filas/s quedó descartado; el backfill va a 50 filas/s."), result.Pass)
	// a status in brackets or in a relative clause
	add("status in brackets", withText("Backfill rate: 50 rows/s (overridden 200 rows/s)."), result.Pass)
	add("status in a relative clause", withText("The default, 200 rows/s, which was replaced by 50 rows/s, no longer holds."), result.Pass)
	add("es status in brackets", withText("Tasa del backfill: 50 filas/s (antes 200 filas/s)."), result.Pass)
	add("es status in a relative clause", withText("200 filas/s, que quedó sustituido por 50 filas/s, ya no rige."), result.Pass)
	// the same figure in another unit or scale
	add("another unit", rateSummary(func(s *summary.Summary) { s.Corrections[0].Value = "3000 rows/min" }), result.Pass)
	add("another unit in text", withText("The backfill runs at 3000 rows per minute now."), result.Pass)
	add("es another unit", withText("El backfill va ahora a 3000 filas por minuto."), result.Pass)
	// the fooling summaries
	add("old value disguised in another unit", withText("The backfill runs at 12000 rows/min."), result.Fail)
	add("es old value disguised in another unit", withText("El backfill va ahora a 12.000 filas/min, que es la tasa del plan."), result.Fail)
	add("reversed with a history word", withText("We first proposed 50 rows/s; the backfill stays at 200 rows/s."), result.Fail)
	add("new value only as history", rateSummary(func(s *summary.Summary) {
		s.Corrections = nil
		s.Text += " The earlier plan was 50 rows/s."
	}), result.Fail)
	runCases(t, result.TypeCorrection, "port", cases)
}

// fileScenario turns the fixture's correction into a file: at #7 the user
// says the values file is values-production.yaml, not values-prod.yaml.
func fileScenario(sc *scenarios.Scenario) {
	sc.Events[6].Text = "Correction: use deploy/values-production.yaml, not deploy/values-prod.yaml. Keep the context under 50,000 tokens."
	sc.Invariants[4] = &scenarios.Correction{InvariantBase: scenarios.InvariantBase{ID: "port"}, Old: "deploy/values-prod.yaml", New: "deploy/values-production.yaml", Subject: "values file", SourceSeq: 7}
}

func fileSummary(arts []summary.ArtifactRef, corr bool) func(s *summary.Summary) {
	return func(s *summary.Summary) {
		s.Corrections = nil
		if corr {
			s.Corrections = []summary.Correction{{Subject: "values file", Value: "deploy/values-production.yaml", Supersedes: "deploy/values-prod.yaml", SourceSeq: 7}}
		}
		s.Artifacts = append(s.Artifacts, arts...)
	}
}

// An artifact entry whose status retires it (stale, superseded, deleted)
// does not state the old file as current, in any language; one that parks
// the new file there does not carry it; one that marks the old file
// current does state it.
func TestCorrectionHonoursArtifactStatus(t *testing.T) {
	oldStale := summary.ArtifactRef{Path: "deploy/values-prod.yaml", Status: summary.ArtifactStale, SourceSeq: 7}
	newCurrent := summary.ArtifactRef{Path: "deploy/values-production.yaml", Status: summary.ArtifactCurrent, SourceSeq: 7}
	var cases []checkCase
	for _, st := range []string{summary.ArtifactStale, summary.ArtifactSuperseded, summary.ArtifactDeleted} {
		old := oldStale
		old.Status = st
		cases = append(cases, checkCase{name: "old file " + st, sc: fileScenario, mut: fileSummary([]summary.ArtifactRef{old, newCurrent}, true), want: result.Pass})
	}
	cases = append(cases,
		checkCase{name: "old file stale, no correction entry", sc: fileScenario, mut: fileSummary([]summary.ArtifactRef{oldStale, newCurrent}, false), want: result.Pass},
		checkCase{name: "es: old file stale, new named in Spanish", sc: fileScenario, mut: func(s *summary.Summary) {
			fileSummary([]summary.ArtifactRef{oldStale}, false)(s)
			s.Text += " El archivo de valores es deploy/values-production.yaml."
		}, want: result.Pass},
		checkCase{name: "old file current", sc: fileScenario, mut: fileSummary([]summary.ArtifactRef{{Path: "deploy/values-prod.yaml", Status: summary.ArtifactCurrent}, newCurrent}, true), want: result.Fail},
		checkCase{name: "old file with no status", sc: fileScenario, mut: fileSummary([]summary.ArtifactRef{{Path: "deploy/values-prod.yaml"}, newCurrent}, true), want: result.Fail},
		checkCase{name: "new file parked in a stale artifact", sc: fileScenario, mut: fileSummary([]summary.ArtifactRef{{Path: "deploy/values-production.yaml", Status: summary.ArtifactStale}}, false), want: result.Fail, msg: "only in an artifact marked stale"},
	)
	runCases(t, result.TypeCorrection, "port", cases)
}

// timeoutScenario: at #7 the user corrects a timeout written with a
// thousands comma, in English.
func timeoutScenario(sc *scenarios.Scenario) {
	sc.Events[6].Text = "Correction: the db timeout is now 1,500 ms, not 2,500 ms. Keep the context under 50,000 tokens."
	sc.Invariants[4] = &scenarios.Correction{InvariantBase: scenarios.InvariantBase{ID: "port"}, Old: "2,500 ms", New: "1,500 ms", Subject: "db timeout", SourceSeq: 7}
}

// A figure in another locale's format is the same figure; the value the
// scenario states keeps the reading its event's locale gives, so "1.5 ms"
// (1000 times off) never passes for "1,500 ms".
func TestCorrectionLocales(t *testing.T) {
	corr := func(v, old string) func(s *summary.Summary) {
		return func(s *summary.Summary) {
			s.Corrections = []summary.Correction{{Subject: "db timeout", Value: v, Supersedes: old, SourceSeq: 7}}
		}
	}
	runCases(t, result.TypeCorrection, "port", []checkCase{
		{name: "as written", sc: timeoutScenario, mut: corr("1,500 ms", "2,500 ms"), want: result.Pass},
		{name: "es: decimal comma in seconds", sc: timeoutScenario, mut: corr("1,5 s", "2,5 s"), want: result.Pass},
		{name: "es: dot thousands in a Spanish sentence", sc: timeoutScenario, mut: func(s *summary.Summary) {
			s.Corrections = nil
			s.Text += " El timeout de la base de datos es ahora de 1.500 ms; antes era de 2.500 ms."
		}, want: result.Pass},
		{name: "plain", sc: timeoutScenario, mut: corr("1500 ms", "2500 ms"), want: result.Pass},
		{name: "1000 times off", sc: timeoutScenario, mut: corr("1.5 ms", "2.5 ms"), want: result.Fail},
		{name: "1000 times off, Spanish style, in an English summary", sc: timeoutScenario, mut: func(s *summary.Summary) {
			s.Corrections = nil
			s.Text += " The db timeout is now 1,500 s, and it was 2,500 s."
		}, want: result.Fail},
	})
}

// The quantity check finds its figure in any unit, scale or locale, in
// English and Spanish, and never a wrong figure dressed in another unit or
// locale.
func TestQuantityUnitsAndLocales(t *testing.T) {
	text := func(s string) func(*summary.Summary) { return func(sum *summary.Summary) { sum.Text = s } }
	runCases(t, result.TypeQuantity, "timeout", []checkCase{
		{name: "ms", mut: text("Timeouts are 30000 ms."), want: result.Pass},
		{name: "min", mut: text("Timeouts are 0.5 min."), want: result.Pass},
		{name: "es: segundos", mut: text("Los timeouts son de 30 segundos."), want: result.Pass},
		{name: "es: thousands dot", mut: text("Los timeouts son de 30.000 ms en todos los casos."), want: result.Pass},
		{name: "es: decimal comma", mut: text("Los timeouts son de 0,5 min."), want: result.Pass},
		{name: "disguised 30 ms", mut: text("Timeouts are 0.03 s."), want: result.Fail},
		{name: "disguised 30 ms in microseconds", mut: text("Timeouts are 30000 µs."), want: result.Fail},
		{name: "English summary, Spanish-looking 30 ms", mut: text("Timeouts are 30.000 ms."), want: result.Fail},
		{name: "off by ten in another unit", mut: text("Timeouts are 5 min."), want: result.Fail},
	})
	con := func(s string) func(*summary.Summary) {
		return func(sum *summary.Summary) { sum.Constraints[1].Text = s }
	}
	runCases(t, result.TypeQuantity, "budget", []checkCase{
		{name: "es: thousands dot", mut: con("mantener el contexto por debajo de 50.000 tokens"), want: result.Pass},
		{name: "space thousands", mut: con("keep the context under 50 000 tokens"), want: result.Pass},
		{name: "k", mut: con("keep the context under 50k tokens"), want: result.Pass},
		{name: "a count is whole: 50.000 tokens is never 50", mut: con("keep the context under 50.000 tokens"), want: result.Pass},
		{name: "off by ten", mut: con("keep the context under 5.000 tokens"), want: result.Fail},
	})
}
