package polarity

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// Every word of every row of concepts.tsv, read against a rule stated in
// the other language: under a prohibition it keeps the rule, under a
// permission it contradicts it.
func TestEveryActionConcept(t *testing.T) {
	rows := ActionConcepts()
	langs := map[string]map[string]ActionConcept{}
	for _, r := range rows {
		if langs[r.Concept] == nil {
			langs[r.Concept] = map[string]ActionConcept{}
		}
		if _, dup := langs[r.Concept][r.Lang]; !dup {
			langs[r.Concept][r.Lang] = r
		}
	}
	for _, r := range rows {
		other := "es"
		if r.Lang == "es" {
			other = "en"
		}
		o, ok := langs[r.Concept][other]
		if !ok {
			t.Errorf("concepts.tsv:%d: concept %s has no %s row", r.Line, r.Concept, other)
			continue
		}
		// the rule, stated in the other language with its first word
		stmt := textmatch.Fold(strings.ReplaceAll(o.Forbid, "{C}", o.Words[0]))
		sub := RuleSubject(nil, stmt)
		for _, w := range r.Words {
			t.Run(fmt.Sprintf("%s/%s/%s", r.Concept, r.Lang, w), func(t *testing.T) {
				for _, c := range []struct {
					text string
					want Reading
				}{
					{strings.ReplaceAll(r.Forbid, "{C}", w), Affirms},
					{strings.ReplaceAll(r.Permit, "{C}", w), Contradicts},
				} {
					text := textmatch.Fold(c.text)
					got := Decide(New(text).Read(sub, nil))
					if got.Reading != c.want {
						t.Errorf("against %q (actions %v): %q is %s (%+v); want %s", stmt, sub.Actions(), text, got.Reading, got, c.want)
					}
				}
				if got := ConceptsOf(w); !slices.Contains(got, r.Concept) {
					t.Errorf("ConceptsOf(%q) = %v; want %s in it", w, got, r.Concept)
				}
			})
		}
	}
}

func TestConceptsOf(t *testing.T) {
	for _, tc := range []struct {
		phrase string
		want   []string
	}{
		{"reinicios", []string{"restart"}},
		{"restarting", []string{"restart"}},
		{"conmutacion", []string{"failover"}},
		{"solo lectura", []string{"readonly"}},
		{"read-only", []string{"readonly"}},
		{"congelacion", []string{"frozen"}},
		{"banana", nil},
		{"the session is read-only", nil}, // a sentence, not a phrase of a concept
	} {
		if got := ConceptsOf(tc.phrase); !slices.Equal(got, tc.want) {
			t.Errorf("ConceptsOf(%q) = %v; want %v", tc.phrase, got, tc.want)
		}
	}
	if got := ConceptWords("restart", "es"); !slices.Contains(got, "reinicios") {
		t.Errorf("ConceptWords(restart, es) = %v; want reinicios in it", got)
	}
	if got := ConceptWords("readonly", "es"); !slices.Contains(got, "solo lectura") {
		t.Errorf("ConceptWords(readonly, es) = %v; want solo lectura in it", got)
	}
	if got := ConceptWords("nothing", "en"); got != nil {
		t.Errorf("ConceptWords(nothing, en) = %v; want nil", got)
	}
}

func TestLanguage(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"sesión estrictamente de solo lectura", "es"},
		{"nada de failover de la base de datos sin el visto bueno del IC", "es"},
		{"the session is read-only", "en"},
		{"don't apply, restart, scale or edit anything", "en"},
		{"read-only", "en"}, // "only"
		{"prod-eu-1", ""},
		{"deploy/payments-api/database.yaml", ""},
		{"the base de datos", ""}, // one word of each: no majority
	} {
		if got := Language(textmatch.Fold(tc.text)); got != tc.want {
			t.Errorf("Language(%q) = %q; want %q", tc.text, got, tc.want)
		}
	}
}

// A rule stated and matched in English is read, by concept, in a Spanish
// clause: a faithful restatement keeps it, the inversion in the same words
// contradicts it.
func TestRuleAcrossLanguages(t *testing.T) {
	for _, tc := range []struct {
		name     string
		patterns []string
		stmt     string
		text     string
		want     Reading
	}{
		{"state kept", []string{`read[- ]?only`}, "This session is strictly read-only.", "sesión estrictamente de solo lectura", Affirms},
		{"state in brackets kept", []string{`read[- ]?only`}, "This session is strictly read-only.", "la investigación (de solo lectura) sigue", Affirms},
		{"state negated", []string{`read[- ]?only`}, "This session is strictly read-only.", "la sesión no es de solo lectura", Contradicts},
		{"state cancelled", []string{`read[- ]?only`}, "This session is strictly read-only.", "la sesión ya no es de solo lectura", Contradicts},
		{"state opposite", []string{`read[- ]?only`}, "This session is strictly read-only.", "la sesión ahora es de lectura y escritura", Contradicts},
		{"actions forbidden", []string{`change freeze`}, "Change freeze: do not apply, restart or scale anything.", "nada de aplicar, reinicios ni escalado", Affirms},
		{"actions permitted", []string{`change freeze`}, "Change freeze: do not apply, restart or scale anything.", "se puede reiniciar los pods", Contradicts},
		{"action forbidden, verb", []string{`(do not|never) push`}, "You must not push to main.", "no se puede hacer push a main", Affirms},
		{"action permitted, verb", []string{`(do not|never) push`}, "You must not push to main.", "se puede hacer push a main", Contradicts},
		{"negated imperative with a clitic", []string{`(do not|never) apply`}, "Do not apply the patch.", "no lo apliques en prod", Affirms},
		{"negated imperative, list", []string{`change freeze`}, "Change freeze: do not apply, restart or edit anything.", "no reinicies ni edites nada", Affirms},
		{"approval kept", []string{`failover.{0,80}go-?ahead`}, "No database failover without the IC's explicit go-ahead.", "nada de failover sin el visto bueno del IC", Affirms},
		{"approval waived", []string{`failover.{0,80}go-?ahead`}, "No database failover without the IC's explicit go-ahead.", "el failover queda a criterio del asistente", Contradicts},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var res []*regexp.Regexp
			for _, p := range tc.patterns {
				res = append(res, compile(t, p))
			}
			sub := RuleSubject(res, textmatch.Fold(tc.stmt))
			if got := sub.Languages(); !slices.Equal(got, []string{"en"}) {
				t.Errorf("Languages() = %v; want [en]", got)
			}
			text := textmatch.Fold(tc.text)
			if got := Decide(New(text).Read(sub, spansOf(text, res...))); got.Reading != tc.want {
				t.Errorf("%q: %s (%+v); want %s", text, got.Reading, got, tc.want)
			}
		})
	}
}

func TestSubjectConcepts(t *testing.T) {
	sub := RuleSubject([]*regexp.Regexp{compile(t, `read[- ]?only|change freeze`)}, "Heads up: prod-eu-1 is under a change freeze and this investigation is read-only. Do not apply, restart or scale anything.")
	got := sub.Concepts()
	for _, want := range []string{"apply", "frozen", "readonly", "restart", "scale"} {
		if !slices.Contains(got, want) {
			t.Errorf("Concepts() = %v; want %s in it", got, want)
		}
	}
	// the patterns' language comes from the statement when the patterns
	// hold no function word; a Spanish scenario's patterns are Spanish
	es := RuleSubject([]*regexp.Regexp{compile(t, `s[oó]lo lectura`)}, textmatch.Fold("Sesión de sólo lectura: nada de índices."))
	if got := es.Languages(); !slices.Equal(got, []string{"es"}) {
		t.Errorf("Languages() = %v; want [es]", got)
	}
	if got := RuleSubject([]*regexp.Regexp{compile(t, `wh_restore`)}).Languages(); got != nil {
		t.Errorf("Languages() of a bare id = %v; want nil", got)
	}
}

func TestPatternLanguages(t *testing.T) {
	for _, tc := range []struct {
		patterns []string
		stmt     string
		want     []string
	}{
		{[]string{`read[- ]?only`}, "", []string{"en"}},
		{[]string{`read[- ]?only`, `solo lectura`}, "", []string{"en", "es"}},
		{[]string{`(failover|fail over).{0,80}(go-?ahead|approv)`}, "No database failover without the IC's go-ahead.", []string{"en"}},
		{[]string{`congelaci[oó]n`}, "", []string{"es"}},
		{[]string{`wh_restore`}, "Connect as wh_restore and nothing else.", []string{"en"}},
	} {
		var res []*regexp.Regexp
		for _, p := range tc.patterns {
			res = append(res, compile(t, p))
		}
		if got := RuleSubject(res, textmatch.Fold(tc.stmt)).Languages(); !slices.Equal(got, tc.want) {
			t.Errorf("Languages(%q, %q) = %v; want %v", tc.patterns, tc.stmt, got, tc.want)
		}
	}
}

func TestLiteralWords(t *testing.T) {
	res := []*regexp.Regexp{compile(t, `evict\w* (the )?hot keys`), compile(t, `session redis.{0,40}evict`)}
	if got, want := LiteralWords(res), []string{"evict", "hot", "keys", "the", "session", "redis"}; !slices.Equal(got, want) {
		t.Errorf("LiteralWords = %v; want %v", got, want)
	}
	if got := LanguagesOf(res); !slices.Equal(got, []string{"en"}) {
		t.Errorf("LanguagesOf = %v; want [en]", got)
	}
}

// The class reader's language (which end of a list a negation governs)
// and Language agree, and a word both languages spell alike counts for
// neither: a rule of "no" items in English is English.
func TestTextLanguageAgrees(t *testing.T) {
	for text, want := range map[string]string{
		"Heads up: prod-eu-1 is under a change freeze until Friday, so treat this as a READ-ONLY investigation. No apply, no restart, no scaling, no edits.": "en",
		"No apply, no restart, no scaling, no edits.":                    "en",
		"Nada de apply, reinicios ni escalado en prod hasta el viernes.": "es",
		"La sesión es de solo lectura: no se toca la base de facturas.":  "es",
		"the session is read-only: no writes to the payments database":   "en",
	} {
		x := New(textmatch.Fold(text))
		x.build()
		if got := x.lang(); got != want {
			t.Errorf("lang(%q) = %s; want %s", text, got, want)
		}
		if got := Language(textmatch.Fold(text)); got != x.Language() || got != want && got != "" {
			t.Errorf("Language(%q) = %s; the text's own Language %q, the reader %s", text, got, x.Language(), want)
		}
	}
}
