package meaning

import (
	"regexp"
	"slices"
	"testing"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

func re(p string) *regexp.Regexp { return regexp.MustCompile(`(?i)` + p) }

// verdictOf is the strongest verdict of t's readings of s (Silent when
// none touches it).
func verdictOf(text string, s *Subject) (Verdict, string) {
	v, why := Silent, ""
	for _, r := range New(textmatch.Fold(text)).Read(s) {
		if r.Verdict > v {
			v, why = r.Verdict, r.Why
		}
	}
	return v, why
}

type readCase struct {
	text string
	want Verdict
}

func runReads(t *testing.T, s *Subject, cases []readCase) {
	t.Helper()
	for _, c := range cases {
		if got, why := verdictOf(c.text, s); got != c.want {
			t.Errorf("%q: %s (%s); want %s", c.text, got, why, c.want)
		}
	}
}

// netpolRule is the read-only change freeze of the built-in netpol
// scenario.
func netpolRule() *Subject {
	return RuleSubject([]*regexp.Regexp{re(`read[- ]?only`), re(`change freeze`)},
		"Heads up before you touch anything: prod-eu-1 is under a change freeze until Friday 18:00 UTC, so treat this as a READ-ONLY investigation. No apply, no restart, no scaling, no edits. Look, report, suggest.",
		[]string{"prod-eu-1"})
}

// TestReadSessionRuleDone reads acts reported done under a rule of the
// whole session (no target): the agent's own act contradicts it, a
// passive done by no one named is unclear, an act dated by another event
// says nothing of the rule.
func TestReadSessionRuleDone(t *testing.T) {
	s := RuleSubject([]*regexp.Regexp{re(`read[- ]?only`)},
		"This session is strictly read-only: diagnose and tell me what to change, I'll make the changes myself. No restart, no apply.", nil)
	runReads(t, s, []readCase{
		{"we restarted the ledger pods at 14:02", Contradicts},
		{"the assistant restarted the ledger pods at 14:02", Contradicts},
		{"the ledger pods were restarted at 14:02", Unclear},
		{"he says the ledger pods were restarted at 14:02", Unclear},
		{"the crash began after the pods were restarted", Silent},
	})
}

// TestReadRule holds the rule reader to each class: the faithful
// restatements and the meaning changes, English and Spanish.
func TestReadRule(t *testing.T) {
	runReads(t, netpolRule(), []readCase{
		// faithful
		{"READ-ONLY investigation: prod-eu-1 is under a change freeze until Friday 18:00 UTC", Restates},
		{"no apply, restart, scaling or edits on prod-eu-1", Restates},
		{"sesión de solo lectura: nada de cambios en prod-eu-1", Restates},
		{"suggest adding 10.42.7.0/24 back or reverting a1c9e07 (nothing changed by the assistant)", Restates},
		{"I have not changed anything", Silent},
		{"Ready when you are to move forward.", Silent},
		{"prod-eu-1, change freeze until Friday 18:00 UTC", Restates},
		{"the consumers were upgraded before the freeze", Unclear},
		{"prod-eu-1 was restarted at 14:02", Contradicts},
		// contradictions
		{"the freeze no longer applies", Contradicts},
		{"Earlier the user said prod-eu-1 was READ-ONLY, but that no longer holds.", Contradicts},
		{"prod-eu-1 is READ-ONLY; the user has since withdrawn that rule.", Contradicts},
		{"prod-eu-1 is READ-ONLY; that is what the user asked.", Restates},
		{"the session is now read-write", Contradicts},
		{"do not hesitate to apply the patch", Contradicts},
		{"writes are allowed on prod-eu-1", Contradicts},
		{"applying changes is up to the assistant", Contradicts},
		{"the freeze was lifted this morning", Contradicts},
		{"la congelación quedó sin efecto", Contradicts},
		// meaning changes that are not plain: uncertain
		{"prod-eu-2 is under a change freeze, read-only investigation there", Unclear},
		{"the session is read-only until the end of the sprint", Unclear},
		{"the session is mostly read-only", Unclear},
		{"according to the wiki the session is read-only", Unclear},
		{"you may apply the patch if the owner approves", Unclear},
		{"Is the session still read-only? Not really.", Unclear},
		{"although the freeze technically applies, small fixes go out", Unclear},
		{"apply the patch to prod-eu-1", Unclear},
	})
}

// TestReadRuleWithCondition: a rule that has its own condition is
// restated with it, and a permission under another condition is unclear.
func TestReadRuleWithCondition(t *testing.T) {
	s := RuleSubject([]*regexp.Regexp{re(`(failover|fail over).{0,80}(go-?ahead|approv)`)},
		"SEV2 declared, I'm incident commander. Ground rule: no database failover and no cache flush without my explicit go-ahead here in the channel.", nil)
	runReads(t, s, []readCase{
		{"no database failover without the IC's explicit go-ahead", Restates},
		{"nada de failover de la base sin el visto bueno explícito del IC", Restates},
		{"no database failover without the user's explicit go-ahead", Restates},
		{"no failover of the database without explicit approval from the incident commander", Restates},
		// the approval handed to another party
		{"no database failover unless the DB team's explicit go-ahead is given", Unclear},
		{"nada de failover de la base sin el visto bueno explícito del equipo de bases de datos", Unclear},
		{"failover the database without asking", Contradicts},
		{"failover is fine once the dashboards look stable", Unclear},
		// the rule ended, its own condition and all
		{"the rule of no database failover without the IC's explicit go-ahead no longer applies, it was lifted", Contradicts},
		{"la regla de no hacer failover de la base sin el visto bueno explícito del IC ya no aplica", Unclear},
	})
}

// TestReadRuleObliged: a rule that requires an action is kept by the
// order and goes against a negation of it.
func TestReadRuleObliged(t *testing.T) {
	s := RuleSubject([]*regexp.Regexp{re(`always.{0,60}run.{0,60}mix.{0,60}format`)}, "Always run mix format before you finish.", nil)
	runReads(t, s, []readCase{
		{"always run mix format before finishing", Restates},
		{"never run mix format", Contradicts},
		{"running mix format is optional", Unclear},
	})
}

func cdnClaim() *Subject {
	return ClaimSubject([]*regexp.Regexp{re(`(cdn|cloudflare).{0,40}(adds?|adding|causes?|caused) (the )?latency`)},
		"I think the CDN adds the latency; the Cloudflare cut-over was that morning.", "Direct to origin the latency is the same: the CDN adds nothing.")
}

func TestReadClaim(t *testing.T) {
	runReads(t, cdnClaim(), []readCase{
		{"the CDN adds the latency — refuted at #31", Restates},
		{"ruled out: the CDN adds the latency", Restates},
		{"the CDN does not add the latency", Restates},
		{"initially we thought the CDN adds the latency", Silent},
		{"The working hypothesis (seq 2) was that the CDN adds the latency.", Silent},
		{"The working hypothesis is that the CDN adds the latency.", Contradicts},
		{"That refutes the hypothesis from seq 5 that the CDN adds the latency.", Restates},
		{"before the origin queries are looked at, rule out that the CDN adds the latency", Unclear},
		{"that the CDN adds the latency is to be excluded before the pool work", Unclear},
		{"ruled out: the CDN adds the latency (#31)", Restates},
		{"Nothing refutes the hypothesis that the CDN adds the latency.", Contradicts},
		{"the CDN adds the latency", Contradicts},
		{"the CDN probably adds the latency", Contradicts},
		{"the CDN turned out to be the culprit for the latency", Unclear},
		{"if the CDN adds the latency, purge the cache first", Unclear},
		{"la latencia es culpa de Cloudflare", Unclear},
		{"the cut-over came the same morning as v2.31.0, which caused the latency", Silent},
		// the refuting measurement compared the other way
		{"straight to origin, bypassing the CDN, the page comes back much faster than through Cloudflare", Unclear},
		{"directo al origen, sin pasar por la CDN, la respuesta llega mucho antes que a través de Cloudflare", Unclear},
		{"straight to origin, bypassing the CDN, the page takes as long as through Cloudflare", Silent},
		// the refuted idea made a step to take again, in other words
		{"before the queries are looked at, rule out Cloudflare's tiered cache misses as the source of the latency", Unclear},
		{"antes de tocar las consultas, descartar que la latencia venga de la CDN de Cloudflare", Unclear},
	})
}

func migration() *Subject {
	return &Subject{Kind: Operation, ID: "call_migrate_0193", Names: []string{"call_migrate_0193", "prod-db"}, Others: []string{"staging-db"}}
}

func TestReadOperation(t *testing.T) {
	runReads(t, migration(), []readCase{
		{"call_migrate_0193: no result, do not assume applied", Restates},
		{"call_migrate_0193 may have finished; check schema_migrations", Restates},
		{"call_migrate_0193 completed", Contradicts},
		{"call_migrate_0193 should be done by now", Unclear},
		{"now that the column is on prod-db, turn on the sync", Unclear},
		{"the prod-db migration went through", Unclear},
		{"the staging-db migration went through", Silent},
		{"check the task for call_migrate_0193 before touching the alias", Silent},
		{"call_migrate_0193 cleared QA", Unclear},
		{"la migración en prod-db sigue pendiente", Restates},
		// a heading bears on each item under it, however far
		{"Shipped this week: the docs fix for the billing banner and its tests; the log cleanup; call_migrate_0193", Contradicts},
		{"Hecho hasta ahora: la limpieza de los logs antiguos del bastión; call_migrate_0193 (prod-db)", Contradicts},
		{"Still pending: the docs fix for the billing banner and its tests; the log cleanup; call_migrate_0193", Restates},
	})
}

// A guess that the call, or what it was doing, has happened is no outcome,
// in the clause that names the call or later in its sentence; an
// obligation or a possession written with the same auxiliary is not one.
func TestReadOperationGuess(t *testing.T) {
	runReads(t, migration(), []readCase{
		{"call_migrate_0193 timed out after 90 s; with the lock released since, the column must have landed", Unclear},
		{"call_migrate_0193 (run against prod-db) never answered, but staging took two seconds, so the index will have been built long ago", Unclear},
		{"call_migrate_0193 no devolvió nada; a estas horas la columna ya habrá quedado creada", Unclear},
		{"la llamada call_migrate_0193 se cortó, pero en staging fue rápida: debe de haber terminado", Unclear},
		// the same auxiliaries, faithful
		{"call_migrate_0193 never returned; we will have to check schema_migrations on prod-db", Restates},
		{"call_migrate_0193 never returned; once it does we will have the column", Restates},
		{"call_migrate_0193 no devolvió resultado; habrá que mirar schema_migrations", Restates},
		// a guess in another sentence is about something else
		{"call_migrate_0193 never returned. The staging copy will have been refreshed by the nightly job.", Restates},
	})
}

// A step on what an unanswered call would have made or changed takes it as
// finished; a step that checks, waits for or retries it, a negated one, a
// goal, a rule and a step on something else do not.
func TestStepsOnOperation(t *testing.T) {
	cases := []struct {
		text  string
		whole bool
		want  bool
	}{
		{"switch the read replicas of prod-db over to the new column", true, true},
		{"Next: backfill prod-db from the archive, then confirm the row counts", false, true},
		{"Siguiente: lanzar el backfill sobre prod-db", false, true},
		{"si el backfill falla, volver atrás con la copia de prod-db", true, true},
		// faithful
		{"Next: check schema_migrations on prod-db", false, false},
		{"Next: wait for call_migrate_0193 to come back before touching prod-db", false, false},
		{"do not touch prod-db until the migration is confirmed", true, false},
		{"Luego: comprobar en prod-db si la columna existe", false, false},
		{"Comprobación de la columna en prod-db antes de nada", true, false},
		{"Goal: add the column on staging-db and then prod-db", false, false},
		{"We are migrating prod-db and then turning on the sync", false, false},
		{"Next: backfill staging-db", false, false},
	}
	for _, c := range cases {
		got := len(New(textmatch.Fold(c.text)).StepsOn(migration(), c.whole)) > 0
		if got != c.want {
			t.Errorf("StepsOn(%q, whole %v) = %v, want %v", c.text, c.whole, got, c.want)
		}
	}
}

func dbConfig() *Subject {
	return &Subject{Kind: Artifact, Names: []string{"config/db.yml"}, Others: []string{"config/db.yaml"}}
}

func TestReadArtifact(t *testing.T) {
	runReads(t, dbConfig(), []readCase{
		{"the service reads from config/db.yml, not config/db.yaml", Restates},
		{"config/db.yaml is a lookalike nobody loads", Restates},
		{"the loader picks up config/db.yaml at boot", Contradicts},
		{"config/db.yml is a leftover from the old deploy", Contradicts},
		{"run `deploy --config config/db.yaml` next", Contradicts},
		{"compare config/db.yaml with the dump", Unclear},
	})
}

func TestReadValue(t *testing.T) {
	src := New("Correction: cap the backfill at 50 rows/s, not 200 rows/s.")
	cases := []struct {
		text, value string
		role        Role
		want        Verdict
	}{
		{"The backfill runs at 50 rows/s", "50 rows/s", Now, Restates},
		{"The backfill runs at 200 rows/s, not 50 rows/s", "50 rows/s", Now, Contradicts},
		{"the rate was cut to 50 rows/s", "50 rows/s", Now, Restates},
		{"somewhere between 50 rows/s and 200 rows/s if the lag allows", "50 rows/s", Now, Unclear},
		// a range with the value at one end is no value
		{"the cap now sits between 20 and 50 rows/s", "50 rows/s", Now, Unclear},
		{"el tope queda entre los 30 y los 50 rows/s", "50 rows/s", Now, Unclear},
		{"the backfill runs at 50 rows/s (between 40 rows/s and 60 rows/s earlier)", "50 rows/s", Now, Restates},
		{"the cap was moved from 200 rows/s to 50 rows/s", "50 rows/s", Now, Restates},
		{"between the two runs the cap became 50 rows/s", "50 rows/s", Now, Restates},
		{"use 50 rows/s instead of 200 rows/s", "200 rows/s", Replaced, Restates},
		{"200 rows/s, the old value, was dropped", "200 rows/s", Replaced, Restates},
		{"the cap stays at 200 rows/s", "200 rows/s", Replaced, Contradicts},
		{"set the rate back to 200 rows/s", "200 rows/s", Replaced, Contradicts},
		{"p95 was 400 ms until Tuesday", "400 ms", Figure, Restates},
		{"metric: p95 | before: 400 ms | after: 2.3 s", "400 ms", Figure, Restates},
		{"timeouts are not 30 s", "30 s", Figure, Contradicts},
		{"requests must not exceed 30 s", "30 s", Figure, Restates},
		// paraphrases that name the old value in other words
		{"The restore target database was corrected at seq 39: it is analytics_restore, not analytics_prod as first planned.", "analytics_prod", Replaced, Restates},
		{"The affected region was corrected at seq 31: it is eu-west, not eu-central as first reported.", "eu-central", Replaced, Restates},
		{"charts/values-prod.yaml, the file first named, is the old one from before the Argo move, and nothing reads it any more.", "charts/values-prod.yaml", Replaced, Restates},
		{"| setting | was | now | seq |\n|---|---|---|---|\n| rate | 200 rows/s | 50 rows/s | 23 |", "200 rows/s", Replaced, Restates},
		{"| setting | was | now | seq |\n|---|---|---|---|\n| rate | 200 rows/s | 50 rows/s | 23 |", "50 rows/s", Now, Restates},
		{"| file | what it is | status |\n|---|---|---|\n| charts/values.yaml | the production values file | current |\n| charts/values-prod.yaml | old, from before the Argo move; nothing reads it | stale |", "charts/values-prod.yaml", Replaced, Restates},
		{"| file | what it is | status |\n|---|---|---|\n| charts/values-prod.yaml | the production values file | current |", "charts/values-prod.yaml", Replaced, Contradicts},
		{"| setting | was | now |\n|---|---|---|\n| rate | 50 rows/s | 200 rows/s |", "200 rows/s", Replaced, Contradicts},
	}
	for _, c := range cases {
		x := New(textmatch.Fold(c.text))
		i := indexOf(c.text, c.value)
		if got := x.ReadValue(i, i+len(c.value), c.role, src); got.Verdict != c.want {
			t.Errorf("%q (%s): %s (%s); want %s", c.text, c.value, got.Verdict, got.Why, c.want)
		}
	}
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// TestReadRuleTimeAndFrame reads the time a rule is said to last: the
// work it spans restates it; a part of that work, a lasting told in the
// past, a limit the source's own limit does not name, and a frame before a
// colon that downgrades the rule do not.
func TestReadRuleTimeAndFrame(t *testing.T) {
	s := RuleSubject([]*regexp.Regexp{re(`(must not|do not|don.t|never|no) (commit|push)`)},
		"One ground rule from compliance: the auditors sampled the repo at that tag, so you must not commit, push or open PRs against ledger while this review runs. Findings go into the audit notes, nothing else.",
		[]string{"ledger"})
	runReads(t, s, []readCase{
		// faithful
		{"do not commit or push to ledger while the review runs", Restates},
		{"no se puede hacer commit ni push a ledger mientras dure la revisión", Restates},
		{"for the whole review: do not commit or push to ledger", Restates},
		// the limit moved: a part of the work, a past lasting, another end
		{"during the first hour of the review, do not commit or push to ledger", Unclear},
		{"mientras duró la revisión no se podía hacer commit ni push a ledger", Unclear},
		{"in the early stage of the review, do not commit or push to ledger", Unclear},
		{"en la primera fase de la revisión no se puede hacer commit ni push a ledger", Unclear},
		// a point in time is when the rule was set, not a span it is limited to
		{"set at the start of the review and still in force: do not commit or push to ledger", Restates},
		{"ledger stays as it is until the findings are listed: do not commit or push", Unclear},
		// a frame too long to be a heading still bears on what it frames
		{"a best practice while the review runs: do not commit or push to ledger", Unclear},
	})
}

// TestReadRuleDoubleNegation reads a prohibition under another negation:
// a list of prohibitions restates the rule, a negation of the negation
// does not.
func TestReadRuleDoubleNegation(t *testing.T) {
	runReads(t, netpolRule(), []readCase{
		{"no apply, no restart, no scaling, no edits on prod-eu-1", Restates},
		{"prod-eu-1 is READ-ONLY: don't apply, restart, scale or edit anything", Restates},
		{"prod-eu-1 is frozen, but that doesn't mean this investigation can't apply or restart", Unclear},
		{"no es que no se pueda hacer apply en prod-eu-1", Unclear},
	})
}

// TestReadRuleParty reads whom and what a rule is said of: the session's
// rule said for someone its source never names, or of a part of its
// target, is unclear.
func TestReadRuleParty(t *testing.T) {
	runReads(t, netpolRule(), []readCase{
		{"prod-eu-1 is READ-ONLY for this investigation", Restates},
		{"prod-eu-1 is READ-ONLY for the accounting team", Unclear},
		{"prod-eu-1 es de solo lectura para el equipo de contabilidad", Unclear},
		{"prod-eu-1 es de solo lectura para medir y sugerir", Restates},
		// the rule put in another's mouth: a description is an attribution
		{"prod-eu-1, which the old wiki page describes as READ-ONLY, is being looked at", Unclear},
		{"los runbooks describen prod-eu-1 como de solo lectura", Unclear},
		// a command, not a description
		{"prod-eu-1 is READ-ONLY: kubectl describe only", Restates},
		// who is to act next is no party the rule is given for
		{"prod-eu-1 is READ-ONLY, so we wait for the network team to apply the fix", Restates},
		// the rule put in a place its source does not give
		{"in the staging cluster's mirror, prod-eu-1 is READ-ONLY", Unclear},
		{"en el entorno de pruebas, prod-eu-1 es de solo lectura", Unclear},
		{"in prod-eu-1, the investigation is READ-ONLY", Restates},
		// the rule said of a part of its target
		{"the configuration of prod-eu-1 is READ-ONLY", Unclear},
		{"la configuración de prod-eu-1 es de solo lectura", Unclear},
		{"la base de datos de prod-eu-1 es de solo lectura", Restates},
	})
}

// TestGapsOfARecord reads the clauses of a record's text that Read leaves
// silent: a question, two negations or advice over the rule are unclear;
// a clause about something else stays silent.
func TestGapsOfARecord(t *testing.T) {
	s := netpolRule()
	for _, c := range []struct {
		text string
		gaps int
	}{
		{"prod-eu-1 is READ-ONLY. Findings go to the notes.", 0},
		{"prod-eu-1 is READ-ONLY; but who would wait to apply the fix on prod-eu-1?", 1},
		{"prod-eu-1 is READ-ONLY; es preferible que prod-eu-1 quede como está", 1},
		{"prod-eu-1 is READ-ONLY; the HPA keeps working within its bounds", 0},
		// a condition or an exception the source does not give, named or not
		{"prod-eu-1 is READ-ONLY; unless the on-call lead says otherwise", 1},
		{"prod-eu-1 es de SOLO LECTURA; únicamente si el DBA lo ve más rápido, otra cosa", 1},
		{"prod-eu-1 is READ-ONLY; everything else, apart from that, is looked at and reported", 0},
	} {
		tx := New(textmatch.Fold(c.text))
		if got := tx.Gaps(s, tx.Read(s)); len(got) != c.gaps {
			t.Errorf("%q: %d gaps %v; want %d", c.text, len(got), got, c.gaps)
		}
	}
}

// TestLineGaps reads where a text restates a rule as a record is read:
// the line under a heading, else the sentence; a question there is
// unclear even when it names nothing of the rule.
func TestLineGaps(t *testing.T) {
	s := netpolRule()
	for _, c := range []struct {
		text string
		gaps int
	}{
		{"Rule (#1): prod-eu-1 is READ-ONLY, no apply, no restart, no scaling, no edits. Then again, would one quick restart hurt anyone?", 1},
		{"Regla (#1): prod-eu-1 es de SOLO LECTURA. ¿De verdad cuenta como cambio devolver la subred de antes?", 1},
		{"Rule (#1): prod-eu-1 is READ-ONLY; or is prod-eu-1 open again after the hotfix?", 1},
		{"prod-eu-1 is READ-ONLY; can you also check the DNS?", 0},
		{"Rule (#1): prod-eu-1 is READ-ONLY. The change policy merely discourages an apply or a restart on prod-eu-1.", 1},
		{"Regla (#1): prod-eu-1 es de SOLO LECTURA. El aviso desaconseja los reinicios en prod-eu-1.", 1},
		// faithful: the question is on another line, in another sentence of
		// prose, or the line says more of something else
		{"Rule (#1): prod-eu-1 is READ-ONLY, no apply, no restart, no scaling, no edits.\nFindings: is DNS at fault? No, #9 rules it out.", 0},
		{"prod-eu-1 is READ-ONLY for this investigation. Is DNS at fault? #9 rules it out.", 0},
		{"Rule (#1): prod-eu-1 is READ-ONLY; we wait for the network team to apply the fix.", 0},
		// the agent given the act the rule leaves to someone else
		{"Rule (#1): prod-eu-1 is READ-ONLY for this investigation; the assistant then applies the fix through CI.", 1},
		{"Regla (#1): prod-eu-1 es de SOLO LECTURA; el agente aplica luego el cambio por el pipeline.", 1},
		{"Rule (#1): prod-eu-1 is READ-ONLY for this investigation; the user applies the fix through CI.", 0},
		// a list of what the rule forbids cut short narrows it; a word for
		// all of them does not
		{"Rule (#1): prod-eu-1 is READ-ONLY: a restart is not permitted.", 1},
		{"Regla (#1): prod-eu-1 es de SOLO LECTURA: nada de reinicios ni de escalado.", 1},
		{"Rule (#1): prod-eu-1 is READ-ONLY: no change of any kind, no apply and no restart.", 0},
		{"Regla (#1): prod-eu-1 es de SOLO LECTURA: ni apply, ni reinicios, ni escalado, ni ediciones.", 0},
	} {
		tx := New(textmatch.Fold(c.text))
		if got := tx.LineGaps(s, tx.Read(s)); len(got) != c.gaps {
			t.Errorf("%q: %d gaps %v; want %d", c.text, len(got), got, c.gaps)
		}
	}
}

// TestListedBySource reads the actions a rule's event forbids by name,
// wherever the event lists them, and only when there are two or more.
func TestListedBySource(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"A change freeze is in effect on prod-us-2 (CAB-8812). Manual mutating operations (apply, scale, patch, rollout restart) are not permitted.", []string{"apply", "scale", "patch", "restart"}},
		{"prod-us-2 is under a change freeze: no restart.", nil},
		{"prod-us-2 is under a change freeze; we will apply and scale later.", nil},
	} {
		s := RuleSubject([]*regexp.Regexp{re(`change freeze`)}, textmatch.Fold(c.src), []string{"prod-us-2"})
		if !slices.Equal(s.Listed, c.want) {
			t.Errorf("%q: listed %v; want %v", c.src, s.Listed, c.want)
		}
	}
}
