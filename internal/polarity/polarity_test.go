package polarity

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// judge judges the first occurrence of phrase in text.
func judge(t *testing.T, text, phrase string, re *regexp.Regexp, kinds ...Kind) Verdict {
	t.Helper()
	text, phrase = textmatch.Fold(text), textmatch.Fold(phrase)
	i := strings.Index(text, phrase)
	if i < 0 {
		t.Fatalf("%q not in %q", phrase, text)
	}
	return New(text).Judge(i, i+len(phrase), re, kinds...)
}

// Every cue of the table, in each language, does what its row says on its
// own example sentence.
func TestEveryCue(t *testing.T) {
	for row, c := range Cues() {
		name := fmt.Sprintf("%s/%s/%s/line%d", c.Lang, c.Kind, c.Scope, c.Line)
		t.Run(name, func(t *testing.T) {
			text := strings.Replace(c.Example, "{X}", "alpha", 1)
			switch c.Kind {
			case Idiom:
				if v := judge(t, text, "alpha", nil, Contradiction...); v.Kind != "" {
					t.Errorf("%q: the idiom %q did not keep alpha affirmed: %+v", text, c.Phrase, v)
				}
			case Frame:
				// The frame says nothing itself: the predicate after
				// the phrase bears on it, and would not without the
				// frame.
				v := judge(t, text, "alpha", nil, Contradiction...)
				fa, fb, ok := hitOf(text, row)
				if v.Kind == "" || !ok {
					t.Errorf("%q: the frame %q did not carry its predicate to alpha: %+v", text, c.Phrase, v)
					return
				}
				folded := textmatch.Fold(text)
				bare := folded[:fa] + folded[fb:]
				if v := judge(t, bare, "alpha", nil, Contradiction...); v.Kind != "" {
					t.Errorf("%q: the example is not a test of the frame: without it alpha is already %+v", bare, v)
				}
			case Report:
				v := judge(t, text, "alpha", nil, Contradiction...)
				if !v.Reported {
					t.Errorf("%q: the negation is not marked as reported by %q: %+v", text, c.Phrase, v)
				}
			default:
				v := judge(t, text, "alpha", nil, c.Kind)
				if v.Kind != c.Kind || !cueAt(text, v.At, row) {
					t.Errorf("%q: got %+v; want the %s cue %q", text, v, c.Kind, c.Phrase)
				}
			}
		})
	}
}

// hitOf returns the span of the first hit of the cue of row in text.
func hitOf(text string, row int) (int, int, bool) {
	x := New(textmatch.Fold(text))
	x.build()
	for _, cl := range x.clauses {
		for _, h := range cl.hits {
			if containsInt(h.cues, row) {
				return x.toks[cl.toks[h.first]].a, x.toks[cl.toks[h.last]].b, true
			}
		}
	}
	return 0, 0, false
}

// cueAt reports whether the cue of row is found at offset at of text.
func cueAt(text string, at, row int) bool {
	x := New(textmatch.Fold(text))
	x.build()
	for _, cl := range x.clauses {
		for _, h := range cl.hits {
			if x.toks[cl.toks[h.first]].a == at && containsInt(h.cues, row) {
				return true
			}
		}
	}
	return false
}

// Every alternative a phrase stands for is found as one cue.
func TestEveryAlternativeIsACue(t *testing.T) {
	for i, c := range Cues() {
		seqs, err := expand(c.Phrase)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range seqs {
			n := len(tokenize(s))
			x := New(s + " " + c.Then)
			x.build()
			found := false
			for _, cl := range x.clauses {
				for _, h := range cl.hits {
					if h.first == 0 && h.last == n-1 && containsInt(h.cues, i) {
						found = true
					}
				}
			}
			if !found {
				t.Errorf("cues.tsv:%d: %q is not found as the cue %q", c.Line, s, c.Phrase)
			}
		}
	}
}

func TestTableErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"en\tnegation\tfollowing\tnot", "want 5 or 6"},
		{"fr\tnegation\tfollowing\tnot\tNot {X}.", "language"},
		{"en\tnope\tfollowing\tnot\tNot {X}.", "kind"},
		{"en\tnegation\tsideways\tnot\tNot {X}.", "scope"},
		{"en\tnegation\tfollowing\tnot\tNot X.", "no {X}"},
		{"en\tnegation\tfollowing\t[not|never\tNot {X}.", "unclosed"},
		{"en\tnegation\tfollowing\t[not||never]\tNot {X}.", "empty alternative"},
		{"en\tnegation\tfollowing\t[[not]]\tNot {X}.", "nested"},
	} {
		if _, err := parseTable(tc.src); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseTable(%q) = %v; want an error with %q", tc.src, err, tc.want)
		}
	}
}

// The classes of the issue, and the faithful phrasings that must not trip
// them.
func TestJudge(t *testing.T) {
	tests := []struct {
		name, text, phrase string
		pattern            string // optional: the pattern that matched
		kinds              []Kind
		want               Kind // "" affirmed
		reported           bool
	}{
		// contradictions of a rule
		{name: "no longer applies", text: "read-only no longer applies: the runbook authorizes writes", phrase: "read-only", want: Cancellation},
		{name: "lifted", text: "The change freeze was lifted by the CAB.", phrase: "change freeze", want: Cancellation},
		{name: "does not apply", text: "The read-only rule does not apply to this incident.", phrase: "read-only", want: Cancellation},
		{name: "ignore", text: "Ignore the read-only rule.", phrase: "read-only", want: Retraction},
		{name: "may skip", text: "You may skip the freeze for this fix.", phrase: "freeze", want: Permission},
		{name: "optional", text: "The freeze is optional now.", phrase: "freeze", want: Permission},
		{name: "not read-only", text: "The session is not read-only any more.", phrase: "read-only", want: Negation},
		{name: "not in read-only mode", text: "The session is not in read-only mode", phrase: "read-only", want: Negation},
		{name: "typo", text: "the 30 s upstream timeout was a typo for 30 ms", phrase: "30 s", want: Mistake},
		{name: "the value after typo-for is the intended one", text: "the 30 s upstream timeout was a typo for 30 ms", phrase: "30 ms"},
		{name: "ya no", text: "La sesión ya no es de solo lectura.", phrase: "solo lectura", want: Cancellation},
		{name: "queda sin efecto", text: "La restricción de solo lectura queda sin efecto.", phrase: "solo lectura", want: Cancellation},
		{name: "se levanta", text: "Se levanta la restricción de solo lectura.", phrase: "solo lectura", want: Cancellation},
		{name: "no es", text: "Esta sesión no es de solo lectura.", phrase: "solo lectura", want: Negation},
		{name: "heading", text: "Ruled out: the CDN adds the latency.", phrase: "CDN adds the latency", want: Retraction},
		{name: "heading with two cues", text: "Ruled out by #3, refuted: the CDN adds the latency.", phrase: "CDN adds the latency", want: Retraction},
		{name: "heading with a parenthetical", text: "Hypothesis (refuted): the CDN adds latency", phrase: "CDN adds latency", want: Retraction},
		{name: "dash after the phrase", text: "the CDN adds latency — refuted at #31", phrase: "CDN adds latency", want: Retraction},
		{name: "parenthetical after the phrase", text: "the CDN adds latency (refuted at #31 by the origin timings)", phrase: "CDN adds latency", want: Retraction},
		{name: "phrase in a parenthetical takes its place's polarity", text: "The CDN hypothesis (CDN adds latency) was refuted at #31.", phrase: "CDN adds latency", want: Retraction},
		{name: "a cue inside the phrase", text: "the CDN does not add the latency", phrase: "CDN does not add the latency", pattern: `cdn.{0,40}latency`, want: Negation},
		{name: "a greedy match does not take the cue of another value", text: "The affected region is eu-west, not eu-central. Status page should say eu-west.", phrase: "region is eu-west, not eu-central. Status page should say eu-west", pattern: `region.{0,80}eu-west`},
		// a cue after a phrase that ends inside a value (3.25 of 3.25.x)
		{name: "a phrase ending inside a value", text: "protobuf stays pinned at 3.25.x no longer applies", phrase: "protobuf stays pinned at 3.25", pattern: `protobuf.{0,60}3\.25`, want: Cancellation},
		{name: "a phrase starting inside a value", text: "pin 3.25.x is not the case", phrase: "25.x", want: Negation},
		{name: "a value after the phrase's own value still stops", text: "pinned at 3.25.x, 3.26 no longer applies", phrase: "3.25"},
		{name: "an abbreviation ends no clause", text: "rows/s, e.g. 50 no longer applies", phrase: "50", want: Cancellation},
		{name: "before as a preposition", text: "the card-number finding (internal/export/csv.go) goes first, before the SQL injection", phrase: "internal/export/csv.go", kinds: []Kind{Former, Stale}},
		{name: "before as an adverb", text: "The cap was 200 rows/s before", phrase: "200 rows/s", kinds: []Kind{Former}, want: Former},
		{name: "was, then a change to it: the value now", text: "The cap was bumped back up to 200 rows/s.", phrase: "200 rows/s", kinds: []Kind{Former}},
		{name: "was then set to", text: "The port was then set to 5432 again.", phrase: "5432", kinds: []Kind{Former}},
		{name: "fue cambiado de nuevo a", text: "El puerto fue cambiado de nuevo a 5432.", phrase: "5432", kinds: []Kind{Former}},
		{name: "was switched to a file", text: "The service was switched to config/db.yml.", phrase: "config/db.yml", kinds: []Kind{Former}},
		{name: "was lowered from: still the old value", text: "The cap was lowered from 200 rows/s to 50 rows/s.", phrase: "200 rows/s", kinds: []Kind{Former}, want: Former},
		{name: "was, then words that are no change", text: "The cap was the agreed limit of 200 rows/s.", phrase: "200 rows/s", kinds: []Kind{Former}, want: Former},
		{name: "a match across a sentence is judged in its last clause", text: "same morning as the CDN cut-over. Ruled out at #31: the CDN adds the latency", phrase: "CDN cut-over. Ruled out at #31: the CDN adds the latency", pattern: `cdn.{0,40}adds (the )?latency`, kinds: []Kind{Retraction}, want: Retraction},
		{name: "a heading bears on a colon chain", text: "Ruled out at #10: estadísticas desactualizadas: nadie lanzó ANALYZE", phrase: "nadie lanzó ANALYZE", want: Retraction},
		{name: "a heading bears on its whole clause", text: "Ruled out by #25, refuted: My working hypothesis is that the resize workers leak decoded image buffers.", phrase: "resize workers leak", want: Retraction},
		{name: "a heading bears on a long Spanish clause", text: "Ruled out by #10, refuted: Mi sospecha es que el problema son las estadísticas, tras la migración nadie lanzó ANALYZE y el planificador está a ciegas.", phrase: "nadie lanzó ANALYZE", want: Retraction},
		{name: "a heading stops at a sentence end", text: "Refuted: the CDN idea. The resize workers leak decoded image buffers.", phrase: "resize workers leak"},
		{name: "a heading stops at a contrast", text: "Ruled out: the CDN adds latency, but the database takes 1650 ms", phrase: "database takes 1650 ms"},
		{name: "lifted as a heading", text: "Lifted: the change freeze on prod-eu-1 until Friday 18:00 UTC, so treat this as read-only", phrase: "read-only", want: Cancellation},
		{name: "no longer in force as a heading", text: "No longer in force: protobuf stays pinned at 3.25.x", phrase: "protobuf stays pinned at 3.25", pattern: `protobuf.{0,60}3\.25`, want: Cancellation},
		// sentential negation and frames reach across commas and values
		{name: "it is not true that", text: "It is not true that 14 replicas at 61 % CPU against a 70 % target, room to grow to 24", phrase: "grow to 24", pattern: `grow to.{0,40}\b24\b`, want: Negation},
		{name: "no es cierto que", text: "No es cierto que el informe, revisado el 12, vaya a finanzas", phrase: "finanzas", want: Negation},
		{name: "that after not true is not a barrier", text: "Not true that the session, as of #4, is read-only", phrase: "read-only", want: Negation},
		{name: "the rule that … no longer applies", text: "The rule that One thing you need to know, protobuf stays pinned at 3.25.x no longer applies, it was lifted", phrase: "protobuf stays pinned at 3.25", pattern: `protobuf.{0,60}3\.25`, want: Cancellation},
		{name: "a frame across a bracket, values and a comma", text: "The rule that [platform-notice] Change freeze in effect for cluster prod-us-2 from 18:00 UTC until 2026-12-02 00:00 UTC CAB-8812, payment provider migration no longer applies, it was lifted", phrase: "freeze", want: Cancellation},
		{name: "a frame holds or and never", text: "The rule that Security was clear about one thing, only connect as the wh_restore role for this, never as postgres or any other superuser no longer applies, it was lifted", phrase: "wh_restore", want: Cancellation},
		{name: "la regla de que … queda sin efecto", text: "La regla de que el informe de cierre, firmado el 12, va a finanzas@acme.es queda sin efecto", phrase: "finanzas@acme.es", want: Cancellation},
		{name: "a frame with an affirming predicate", text: "The rule that protobuf stays pinned at 3.25.x, as agreed at #4, still holds", phrase: "protobuf stays pinned at 3.25", pattern: `protobuf.{0,60}3\.25`},
		{name: "a frame that is not optional", text: "The rule that releases stay signed, as agreed at #4, is not optional", phrase: "releases stay signed"},
		{name: "a frame holds so and while", text: "The rule that Before you go further, the auditors sampled the repo at that tag, so you must not commit, push or open PRs against ledger while this review runs no longer applies, it was lifted", phrase: "must not commit", pattern: `(must not|do not) (commit|push)`, want: Cancellation},
		{name: "a semicolon inside a value ends no clause", text: "It is not true that server-timing, app;dur=1688, db;dur=1650, render;dur=29", phrase: "db;dur=1650", want: Negation},
		{name: "but ends a frame", text: "The rule that the session is read-only stands, but the old freeze was lifted", phrase: "read-only"},
		// values
		{name: "not before a value", text: "The backfill rate is 200 rows/s, not 50 rows/s", phrase: "50 rows/s", want: Negation},
		{name: "the value before ', not' stands", text: "The backfill rate is 200 rows/s, not 50 rows/s", phrase: "200 rows/s"},
		{name: "replaces", text: "The rate is now 50 rows/s; it replaces 200 rows/s", phrase: "200 rows/s", kinds: []Kind{Supersession}, want: Supersession},
		{name: "the value before ';' stands", text: "The rate is now 50 rows/s; it replaces 200 rows/s", phrase: "50 rows/s", kinds: []Kind{Supersession, Negation}},
		{name: "another value stops a cue", text: "Use 50 rows/s, the 200 rows/s from #1 no longer applies", phrase: "50 rows/s"},
		{name: "the default overridden", text: "BACKFILL_RATE=200 (the default, overridden by the 50 rows/s cap)", phrase: "200", kinds: []Kind{Supersession}, want: Supersession},
		{name: "instead of", text: "Send it to sre-oncall@northwind.io instead of ops-alerts@northwind.io.", phrase: "ops-alerts@northwind.io", kinds: []Kind{Supersession}, want: Supersession},
		{name: "en vez de", text: "El cierre es el 15 de diciembre en vez del 12 de diciembre.", phrase: "12 de diciembre", kinds: []Kind{Supersession, Former}},
		// faithful phrasings that must stay affirmed
		{name: "comma ends a negation", text: "Do not write anything, the session is read-only", phrase: "read-only"},
		{name: "preposition after a verb ends a negation", text: "Do not touch anything in a read-only session", phrase: "read-only"},
		{name: "a conjunction ends a negation", text: "Do not restart anything because the session is read-only", phrase: "read-only"},
		{name: "that ends a negation", text: "Never forget that the investigation is read-only", phrase: "read-only"},
		{name: "conditional prohibition", text: "no database failover without the IC's go-ahead", phrase: "failover without the IC's go-ahead"},
		{name: "negation the pattern needs", text: "Do not push to main during the audit", phrase: "Do not push", pattern: `(do not|don.t) push`},
		{name: "no doubt", text: "No doubt the CDN adds the latency: roll back tonight", phrase: "CDN adds the latency"},
		{name: "not only … but", text: "Not only read-only holds but also the freeze", phrase: "read-only"},
		{name: "not only without but negates", text: "Not only read-only", phrase: "read-only", want: Negation},
		{name: "sin duda", text: "Sin duda la CDN añade la latencia", phrase: "CDN añade la latencia"},
		{name: "no solo … sino", text: "No solo rige la sólo lectura sino también la congelación", phrase: "sólo lectura"},
		{name: "far away", text: "Not that anyone asked, but after a long day the session stays read-only", phrase: "read-only"},
		{name: "reported", text: "The wiki says read-only no longer applies", phrase: "read-only", want: Cancellation, reported: true},
		{name: "según", text: "Según la wiki, la sólo lectura ya no aplica", phrase: "sólo lectura", want: Cancellation, reported: true},
		{name: "a limit keeps its value", text: "p95 must not exceed 800 ms", phrase: "800 ms"},
		{name: "no more than", text: "Cap it: no more than 50 rows/s", phrase: "50 rows/s"},
		{name: "a cue bears on the nearest value", text: "The rate changed from 200 rows/s to 50 rows/s", phrase: "50 rows/s", kinds: []Kind{Former, Supersession}},
		{name: "changed from", text: "The rate changed from 200 rows/s to 50 rows/s", phrase: "200 rows/s", kinds: []Kind{Former, Supersession}, want: Former},
		{name: "active voice replaced", text: "config/db.yml replaced config/db.yaml in v4.2", phrase: "config/db.yml", kinds: []Kind{Supersession, Stale}},
		// hedges
		{name: "coordinated values share a hedge", text: "c1 and c4 are unknown", phrase: "c1", kinds: []Kind{Hedge}, want: Hedge},
		{name: "a list item keeps its own status", text: "c1 done, c4 unknown", phrase: "c1", kinds: []Kind{Hedge}},
		{name: "never returned", text: "call_migrate_0193 never returned", phrase: "call_migrate_0193", kinds: []Kind{Hedge}, want: Hedge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var re *regexp.Regexp
			if tc.pattern != "" {
				re = regexp.MustCompile("(?i)" + tc.pattern)
			}
			kinds := tc.kinds
			if kinds == nil {
				kinds = Contradiction
			}
			v := judge(t, tc.text, tc.phrase, re, kinds...)
			if v.Kind != tc.want || v.Reported != tc.reported {
				t.Errorf("%q, %q: got %+v; want kind %q reported %v", tc.text, tc.phrase, v, tc.want, tc.reported)
			}
			if v.Kind != "" && !strings.Contains(tc.text, v.Cue) {
				t.Errorf("cue %q is not in the text", v.Cue)
			}
		})
	}
}

func TestClauses(t *testing.T) {
	x := New("a. b; c: d — e (f; g) h - i 12:30 db.yml 3.5 x-y")
	x.build()
	var got []string
	for _, c := range x.clauses {
		var ws []string
		for _, ti := range c.toks {
			ws = append(ws, x.toks[ti].low)
		}
		got = append(got, c.sep+"|"+strings.Join(ws, " "))
	}
	want := []string{"|a", ".|b", ";|c", ":|d", "-|e h", "(|f", ";|g", "-|i 12 : 30 db . yml 3 . 5 x - y"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("clauses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !x.SameClause(strings.Index(x.s, "e"), strings.Index(x.s, "h")) {
		t.Error("e and h are one clause across the parenthetical")
	}
}

// tokenize reads ASCII without decoding runes; it must cut every text as
// the rune loop does: apostrophes inside and after words, curly quotes,
// accents, line breaks, control bytes, invalid UTF-8.
func TestTokenizeFastPath(t *testing.T) {
	parts := []string{"the", "Session", "read-only", "don't", "it's", "l’arbre", "’", "'", "don'", "café", "sólo", "ÑANDÚ", "x86_64",
		"10.0.3.7", "\n", "\t", " ", "  ", ",", ".", "(", ")", "\x00", "\xff", "\u00a0", "\u2028", "ﬁle", "Σ", "—", "\r\n", "a'b", "o'", "'s"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		if got, want := tokenizeOf(s, true), tokenizeOf(s, false); !slices.Equal(got, want) {
			t.Fatalf("tokenize(%q):\n fast %+v\n runes %+v", s, got, want)
		}
	}
}
