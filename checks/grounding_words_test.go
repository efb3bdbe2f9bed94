package checks

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// wordsCase is an event at #8 (its whole text), optional context added to
// the covered session (#2), and a verified claim citing #8.
type wordsCase struct {
	name, event, context, claim string
	want                        result.Status
	msg                         string
}

func runWordsCases(t *testing.T, cases []wordsCase) {
	t.Helper()
	var cc []checkCase
	for _, tc := range cases {
		cc = append(cc, checkCase{
			name: tc.name,
			sc: func(sc *scenarios.Scenario) {
				sc.Events[7].Text = tc.event
				if tc.context != "" {
					sc.Events[1].Text += " " + tc.context
				}
			},
			mut: func(s *summary.Summary) {
				s.Verified = append(s.Verified, summary.Claim{Claim: tc.claim, SourceSeq: 8})
			},
			want: tc.want,
			msg:  tc.msg,
		})
	}
	runCases(t, result.CheckGrounding, "", cc)
}

// Every entry of wordforms.tsv, one by one: an irregular form reads as its
// lemma, the words of a sense as one; no form or sense word is in two
// entries, and two senses never share a stem.
func TestWordForms(t *testing.T) {
	seen := map[string]string{}
	senseOf := map[string]string{}
	n := 0
	for _, line := range strings.Split(wordFormsTSV, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		form, rest, ok := strings.Cut(line, "\t")
		if !ok {
			t.Errorf("wordforms.tsv: %q has no tab", line)
			continue
		}
		n++
		words := strings.Fields(rest)
		if form != "=" {
			words = []string{form, rest}
		}
		keys := words // a form, or a sense's words: each in one entry
		if form != "=" {
			keys = words[:1]
		}
		for _, w := range keys {
			if prev, dup := seen[w]; dup {
				t.Errorf("wordforms.tsv: %q is in %q and in %q", w, prev, line)
			}
			seen[w] = line
		}
		for _, w := range words[1:] {
			if groundStem(w) != groundStem(words[0]) {
				t.Errorf("%q reads as %q, %q as %q; want one stem (%s)", w, groundStem(w), words[0], groundStem(words[0]), line)
			}
		}
		if form == "=" {
			s := groundStem(words[0])
			if prev, dup := senseOf[s]; dup {
				t.Errorf("senses %q and %q share the stem %q", prev, line, s)
			}
			senseOf[s] = line
		}
	}
	if n < 50 {
		t.Fatalf("wordforms.tsv has %d entries: not read", n)
	}
	for _, tc := range []struct{ a, b string }{
		{"keep", "change"}, {"start", "stop"}, {"raise", "lower"}, {"time", "timeout"}, {"kept", "key"},
		{"mantener", "cambiar"}, {"subir", "bajar"}, {"pass", "pas"},
	} {
		if groundStem(tc.a) == groundStem(tc.b) {
			t.Errorf("%q and %q read as one stem %q; want two", tc.a, tc.b, groundStem(tc.a))
		}
	}
}

func TestTextLang(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"keep the timeout as it is, just the pool", "en"},
		{"187 paquetes dependen de grpc", "es"},
		{"mantener el timeout tal cual", "es"},
		{"187\nbz_rdeps bazel query rdeps(//...)", ""},
		{"la cola de emails tenia un backlog; mention it in the pr", ""},
	} {
		if got := textLang(tc.text); got != tc.want {
			t.Errorf("textLang(%q) = %q; want %q", tc.text, got, tc.want)
		}
	}
}

// A claim with no salient token is grounded by its content words, compared
// by stem: another inflection, an irregular form, a word of the same
// sense, another clause order, a relative clause that adds what another
// covered event says. The adversaries: words the event does not hold, or
// the main clause taken from another event. English and Spanish.
func TestGroundingContentWords(t *testing.T) {
	poolEN := "Makes sense. Keep the timeout as it is, just the pool."
	poolES := "Tiene sentido. Mantén el timeout como está, solo el pool."
	rdepsEN := "bazel query rdeps on grpc: 187 packages"
	rdepsES := "bazel query rdeps de grpc: 187 paquetes"
	bastionEN := "Heads up, the bastion got recycled by the security patch run a minute ago."
	bastionES := "Aviso: una ejecución de parches de seguridad recicló el bastión hace un minuto."
	reindexEN := "The orders reindex started at 10:02."
	reindexES := "El reindex de orders empezó a las 10:02."
	runWordsCases(t, []wordsCase{
		{name: "irregular form and passive", event: poolEN, claim: "the timeout is to be kept as it is; only the pool size is changed", want: result.Pass},
		{name: "same sense, negated action, relative clause", event: poolEN, claim: "don't touch the timeout, which stays as it is; change the pool size only", want: result.Pass},
		{name: "es: otra forma y otro orden", event: poolES, claim: "el timeout se mantiene tal cual; solo cambia el pool", want: result.Pass},
		{name: "derived word counts once", event: rdepsEN, claim: "187 packages, all of which depend on grpc, are in the reverse-dependency set", want: result.Pass},
		{name: "es: relativa", event: rdepsES, claim: "187 paquetes, que dependen de grpc", want: result.Pass},
		{name: "relative clause from another covered event", event: bastionEN, context: reindexEN, claim: "the bastion was recycled by the security patch run, which came right after the orders reindex started", want: result.Pass},
		{name: "es: relativa de otro evento", event: bastionES, context: reindexES, claim: "el bastión fue reciclado por la ejecución de parches de seguridad, que llegó justo después de que empezara el reindex de orders", want: result.Pass},

		{name: "adversary: words the event lacks", event: poolEN, claim: "the retries were disabled and the connection limit halved", want: result.Fail, msg: "none of"},
		{name: "es: adversario", event: poolES, claim: "se desactivaron los reintentos y se redujo el límite de conexiones a la mitad", want: result.Fail, msg: "none of"},
		{name: "adversary: main clause from another event", event: bastionEN, context: reindexEN, claim: "the orders reindex started and completed without errors", want: result.Fail},
		{name: "es: la oración principal de otro evento", event: bastionES, context: reindexES, claim: "el reindex de orders empezó y terminó sin errores", want: result.Fail},
		{name: "adversary: a relative clause nothing covered holds", event: bastionEN, context: reindexEN, claim: "the bastion was recycled, which wiped the staging volumes and dropped each replica overnight", want: result.Fail},
		{name: "es: relativa que nada respalda", event: bastionES, context: reindexES, claim: "el bastión fue reciclado, que borró los volúmenes de staging y tiró cada réplica durante la noche", want: result.Fail},
	})
}

// Across languages words cannot be compared: a claim the event's words do
// not show is uncertain, never failed, and never passed on words the check
// could not compare; a salient token still decides. English and Spanish.
func TestGroundingAcrossLanguages(t *testing.T) {
	wordEN := "Staging looks fine from my side too. Prep the prod rollout, I'll give the final word."
	wordES := "Staging me parece bien. Prepara el despliegue a prod; la última palabra la doy yo."
	poolEN := "Makes sense. Keep the timeout as it is, just the pool."
	runWordsCases(t, []wordsCase{
		{name: "es claim, en event: words it cannot compare", event: wordEN, claim: "la última palabra sobre el despliegue a prod la tiene el usuario", want: result.Uncertain, msg: "the entry is in Spanish, the event in English"},
		{name: "en claim, es event: words it cannot compare", event: wordES, claim: "the user gives the final word on the prod rollout", want: result.Uncertain, msg: "the entry is in English, the event in Spanish"},
		{name: "es claim, en event: same sense and names", event: poolEN, claim: "mantener el timeout tal cual; cambiar solo el tamaño del pool", want: result.Pass},
		{name: "es claim, en tool output: names and numbers", event: "187\nbz_rdeps bazel query 'rdeps(//..., @org_golang_google_grpc//:go_default_library)'", claim: "187 paquetes dependen de grpc", want: result.Pass},

		{name: "adversary es: a claim the event does not support is never passed", event: wordEN, claim: "el usuario aprobó ya el despliegue a producción y lo lanzó", want: result.Uncertain},
		{name: "adversary en: a claim the event does not support is never passed", event: wordES, claim: "the user approved the production rollout and launched it", want: result.Uncertain},
		{name: "adversary es: another number is not found", event: "187\nbz_rdeps bazel query 'rdeps(//..., @org_golang_google_grpc//:go_default_library)'", claim: "188 paquetes dependen de grpc", want: result.Uncertain},
		{name: "adversary es: a salient token decides", event: poolEN, claim: "mantener config/db.yaml tal cual", want: result.Fail, msg: `"config/db.yaml" is not in the cited event`},
	})
}

// A relative clause or an appositive says something of its head noun: a
// token in it and its head share its words, so the relation holds; the
// same construction with the relation flipped still fails. English and
// Spanish.
func TestGroundingRelativeClauses(t *testing.T) {
	redis := "redis_cli info stats --host redis-sessions-1\nevicted_keys:1204\nkeyspace_misses:88120344"
	filesEN := "We load config/app.yaml; config/app.yml is a leftover and is ignored."
	filesES := "Cargamos config/app.yaml; config/app.yml es un resto y se ignora."
	lineasES := "lineas_factura_pkey on public.lineas_factura figura en el volcado migrado.\nnota: lineas_factura_factura_id_idx existía en el cluster antiguo."
	runWordsCases(t, []wordsCase{
		{name: "whose clause", event: redis, claim: "redis-sessions-1, whose INFO shows evicted_keys 1204 since start, has no eviction rate yet", want: result.Pass},
		{name: "appositive", event: redis, claim: "redis-sessions-1, the replica whose INFO shows evicted_keys 1204, has no eviction rate yet", want: result.Pass},
		{name: "es: cuyo", event: redis, claim: "redis-sessions-1, cuyo INFO muestra evicted_keys 1204 desde el arranque, aún no tiene tasa de expulsión", want: result.Pass},
		{name: "the relative clause's own relation", event: "bump grpc v1.65.0 to v1.68.0\nx/net v0.26.0 -> v0.30.0 moved along", claim: "grpc (v1.65.0 → v1.68.0) was bumped together with x/net, which moved from v0.26.0 to v0.30.0", want: result.Pass},

		{name: "adversary: relation flipped in relative clauses", event: filesEN, claim: "config/app.yml, which we load, replaces config/app.yaml, which is ignored", want: result.Fail, msg: "the relation is swapped"},
		{name: "es adversario: relación invertida en relativas", event: filesES, claim: "config/app.yml, que cargamos, reemplaza a config/app.yaml, que se ignora", want: result.Fail, msg: "the relation is swapped"},
		{name: "adversary: flipped inside an appositive", event: filesEN, claim: "config/app.yml, the file we load, is current; config/app.yaml is ignored", want: result.Fail, msg: "the relation is swapped"},
		{name: "across languages a cognate cannot tell a swap", event: lineasES, claim: "only lineas_factura_pkey exists on lineas_factura; lineas_factura_factura_id_idx was lost in the migration", want: result.Uncertain, msg: "across languages"},
	})
}

// A tool's bare figure may be in its own unit, a slash list of words is
// its words, a duration in parts is one figure, and an entry with a third
// to a half of its words in the cited event is uncertain unless another
// event holds them, which makes the citation the wrong one. Each with the
// entry that would fool the rule.
func TestGroundingToolFiguresAndPartialWords(t *testing.T) {
	poolEN := "Makes sense. Keep the timeout as it is, just the pool."
	bastionEN := "Heads up, the bastion got recycled by the security patch run a minute ago."
	ttft := "requests: 108,000\nttft_ms   p50=312  p95=744  p99=1390"
	freeze := "No apply, no restart, no scaling, no edits. Look, report, suggest."
	explain := "Planning Time: 2.114 ms\nExecution Time: 3921902.466 ms"
	runWordsCases(t, []wordsCase{
		{name: "a bare figure in the tool's unit", event: ttft, claim: "TTFT p95 0.744 s", want: result.Pass},
		{name: "a slash list of the event's words", event: freeze, claim: "read-only: no apply/restart/scaling/edits", want: result.Pass},
		{name: "a duration in spaced parts", event: explain, claim: "the report takes 1 h 5 min 22 s", want: result.Pass},
		{name: "a paraphrase in other words", event: poolEN, claim: "leave the timeout as it is; change only the pool size", want: result.Uncertain, msg: "only 2 of 5"},

		{name: "adversary: another figure in the tool's unit", event: ttft, claim: "TTFT p95 7.44 s", want: result.Fail, msg: `"7.44 s" is not in the cited event`},
		{name: "adversary: a word the list adds", event: freeze, claim: "read-only: no apply/restart/deletes", want: result.Fail, msg: "is not in the cited event"},
		{name: "adversary: a part of the duration changed", event: explain, claim: "the report takes 1 h 15 min 22 s", want: result.Fail, msg: "is not in the cited event"},
		{name: "adversary: the words are another event's", event: bastionEN, context: poolEN, claim: "the bastion was recycled; keep the timeout as it is, just the pool", want: result.Fail, msg: "holds them"},
	})
}
