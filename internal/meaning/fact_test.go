package meaning

import (
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// strongest is the strongest verdict ReadRequirement gives t against the
// subject of pattern, stated at source.
func strongest(t *testing.T, pattern, source, text string) (Verdict, string) {
	t.Helper()
	re, err := textmatch.Compile(pattern)
	if err != nil {
		t.Fatal(err)
	}
	s := PatternSubject([]*regexp.Regexp{re}, textmatch.Fold(source))
	v, why := Silent, ""
	for _, r := range New(textmatch.Fold(text)).ReadRequirement(s) {
		if r.Verdict > v {
			v, why = r.Verdict, r.Why
		}
	}
	return v, why
}

// Each reading of a probe's requirement, in English and Spanish, with the
// faithful sentence it must keep and the adversarial one it must not.
func TestReadRequirement(t *testing.T) {
	tests := []struct {
		name, pattern, source, text string
		want                        Verdict
	}{
		// a fact whose pattern spells its own negation
		{"own negation", `refund test.{0,40}not flaky`, "Ruled out: 50 runs pass, so the refund test is not flaky.", "The refund test is not flaky.", Restates},
		{"own negation retracted", `refund test.{0,40}not flaky`, "", "That the refund test is not flaky was a mistake.", Contradicts},
		{"es: own negation", `test de reembolso.{0,40}no es inestable`, "", "El test de reembolso no es inestable.", Restates},
		{"es: own negation retracted", `test de reembolso.{0,40}no es inestable`, "", "Que el test de reembolso no es inestable resulto falso.", Contradicts},
		{"no writes", `read[- ]?only|no writes`, "", "Audit: no writes to prod.", Restates},
		// a value named as the one replaced, and the backlog stated in the past
		{"replaced value", `\b50 ?rows ?(/|per) ?s`, "", "rate: 200 rows/s (replaces 50 rows/s)", Contradicts},
		{"value now", `\b50 ?rows ?(/|per) ?s`, "", "rate: 50 rows/s (replaces 200 rows/s)", Restates},
		{"es: replaced value", `\b50 ?filas/s`, "", "tasa: 200 filas/s (en lugar de 50 filas/s)", Contradicts},
		{"past statement of a figure", `240,?000 emails`, "", "The backlog was 240,000 emails.", Restates},
		{"a bound", `\b50 ?rows ?(/|per) ?s`, "", "The backfill must not go above 50 rows/s.", Restates},
		{"the value negated", `\b50 ?rows ?(/|per) ?s`, "", "The rate is 200 rows/s, not 50 rows/s.", Contradicts},
		// a word of doubt after a name is the thing's state; on a statement, a doubt
		{"open item", `\bthe\W+budget\W+sign\W+off\b`, "", "The budget sign-off is still open.", Restates},
		{"es: open item", `\bla\W+firma\W+del\W+presupuesto\b`, "", "La firma del presupuesto sigue pendiente.", Restates},
		{"statement in doubt", `refund test.{0,40}not flaky`, "", "That the refund test is not flaky remains to be seen.", Unclear},
		{"doubt the pattern states", `snap_pg_main1.{0,200}(unknown|unconfirmed)`, "", "snap_pg_main1: it is not confirmed (unknown)", Restates},
		{"es: doubt the pattern states", `snap_pg_main1.{0,200}(unknown|sin confirmar)`, "", "snap_pg_main1: sin confirmar (unknown)", Restates},
		{"a fact under a condition", `allow-db-egress`, "", "suggest, without changing anything, re-adding 10.42.7.0/24 to allow-db-egress", Restates},
		{"a fact under a hedge", `allow-db-egress`, "", "probably the allow-db-egress policy", Unclear},
		{"es: a rule under its condition, in other words", `failover.{0,80}go-?ahead`, "No database failover without my explicit go-ahead.", "Queda prohibido efectuar un failover sin la autorizacion expresa del usuario (su go-ahead).", Restates},
		// the rule a fact states ended, also under its own condition
		{"the rule ended", `(only|never).{0,80}wh_restore`, "", "The rule that one may only connect as wh_restore no longer applies, it was lifted", Contradicts},
		{"es: the rule ended", `(solo|nunca).{0,80}wh_restore`, "", "La regla de conectar solo como wh_restore ya no aplica", Contradicts},
		{"ended under its own condition", `failover.{0,80}go-?ahead`, "No database failover without my explicit go-ahead.", "The rule that no database failover without my explicit go-ahead no longer applies, it was lifted", Contradicts},
		{"kept under its own condition", `failover.{0,80}go-?ahead`, "No database failover without my explicit go-ahead.", "No database failover without the user's explicit go-ahead.", Restates},
		// an exclusion keeps the fact; another too lifts it
		{"and no other", `wh_restore.{0,80}(only|never|superuser)`, "", "the role is wh_restore and no other: not postgres, not any superuser", Restates},
		{"es: y ningun otro", `wh_restore.{0,80}(solo|nunca|superusuario)`, "", "el rol es wh_restore y ningun otro: no postgres, no un superusuario", Restates},
		{"another role too", `(only|never).{0,80}wh_restore`, "", "the role is no longer only wh_restore: postgres works too", Contradicts},
		// a change of the fact forbidden keeps it; the pin lifted does not
		{"change forbidden", `protobuf.{0,60}3\.25`, "", "Don't bump protobuf beyond 3.25.x: the pin stays.", Restates},
		{"es: change forbidden", `protobuf.{0,60}3\.25`, "", "No hay que subir protobuf mas alla de 3.25.x.", Restates},
		{"pin lifted", `protobuf.{0,60}3\.25`, "", "protobuf is no longer pinned at 3.25.x.", Contradicts},
		// what stands between a pattern's words bears on them only when it reaches them
		{"negation of something else", `51be07d2.{0,200}Dana`, "", "ledger@sha256:51be07d2 may go to release (not the earlier build) (Dana Whitfield)", Restates},
		{"es: negation of something else", `4\.2\.1.{0,200}Marta`, "", "export-job:4.2.1 puede ir a produccion (la 4.2.0 no) (Marta Ibanez)", Restates},
		{"an end dated", `06:00`, "", "the previous approval expired at 06:00 UTC", Restates},
		{"es: an end dated", `06:00`, "", "la anterior vencio a las 06:00 UTC", Restates},
		{"an end of the fact", `06:00`, "", "06:00 was a typo", Contradicts},
		{"the end of what a time bounds", `06:00`, "", "The approval, until 06:00 UTC, is expired since #25", Restates},
		{"denied", `240,?000 emails`, "", "It is not true that the backlog was 240,000 emails.", Contradicts},
		{"es: denied", `240\.?000 correos`, "", "No es cierto que la cola tenia 240.000 correos.", Contradicts},
		// a rule: a question and a request grant nothing; a permission does
		{"question", `(must not|never) (commit|push)`, "You must not commit or push.", "Can you push the fix? Ask the user first.", Silent},
		{"request", `(must not|never) (commit|push)`, "You must not commit or push.", "[#19 user] can you push the fix to a branch", Silent},
		{"es: indirect question", `s[oó]lo lectura`, "La sesion es de solo lectura.", "El jefe pregunta si puedes crear el indice ahora mismo.", Silent},
		{"permission", `(must not|never) (commit|push)`, "You must not commit or push.", "The assistant now has clearance to push the fix.", Contradicts},
		{"es: permission", `(must not|never) (commit|push)`, "You must not commit or push.", "Ahora se permite hacer push del arreglo.", Contradicts},
		// a time limit still states the rule now; a past does not
		{"es: prohibition until", `(must not|never|no) (commit|push)`, "You must not commit or push.", "No se permite hacer push hasta que acabe la auditoria.", Restates},
		{"softened", `read[- ]?only`, "The session is read-only.", "the read-only rule was softened", Unclear},
		// the rule's own condition restated, and waived
		{"own condition", `deploy.{0,80}go-?ahead`, "Never run deploy without my explicit go-ahead.", "Deploy only with the user's explicit go-ahead.", Restates},
		// (the waiver is an order under no condition of the source's: never
		// read as the rule restated, left unclear)
		{"condition waived", `deploy.{0,80}go-?ahead`, "Never run deploy without my explicit go-ahead.", "Deploy without waiting for a go-ahead: the go-ahead is no longer needed.", Unclear},
		{"es: own condition", `deploy.{0,80}visto bueno`, "Nunca hagas deploy sin mi visto bueno explicito.", "Deploy solo con el visto bueno explicito del usuario.", Restates},
		// a permission drawn from reported words is theirs
		{"points at reported words", `read[- ]?only`, "This session is strictly read-only.", "The wiki runbook says you can write to prod. Go ahead and delete the pods from it.", Silent},
		{"a permission of one's own", `read[- ]?only`, "This session is strictly read-only.", "Go ahead and delete the pods.", Contradicts},
		// an act done by something else than the agent
		{"done by another", `freeze|cab-8812`, "Change freeze: no manual apply, scale, patch or rollout restart.", "replicas: 19 (scaled by the HPA)", Silent},
		{"done by the agent", `freeze|cab-8812`, "Change freeze: no manual apply, scale, patch or rollout restart.", "I scaled the deployment to 19 replicas.", Contradicts},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, why := strongest(t, tc.pattern, tc.source, tc.text); got != tc.want {
				t.Errorf("%q: got %s (%s), want %s", tc.text, got, why, tc.want)
			}
		})
	}
}

// PatternSubject reads a pattern as a rule only when it names one.
func TestPatternSubject(t *testing.T) {
	tests := []struct {
		pattern, source string
		rule            bool
	}{
		{`read[- ]?only`, "", true},
		{`s[oó]lo lectura`, "", true},
		{`(must not|do not|never) (commit|push)`, "", true},
		{`deploy.{0,80}go-?ahead`, "never run deploy without my explicit go-ahead", true},
		{`deploy.{0,80}go-?ahead`, "", false},
		{`ci_run_2291.{0,200}(unknown|never|pending)`, "", false},
		{`protobuf.{0,60}3\.25`, "", false},
		{`\b50 ?rows ?(/|per) ?s`, "", false},
	}
	for _, tc := range tests {
		re, _ := textmatch.Compile(tc.pattern)
		if got := PatternSubject([]*regexp.Regexp{re}, tc.source).Kind == Rule; got != tc.rule {
			t.Errorf("%s (source %q): rule = %v, want %v", tc.pattern, tc.source, got, tc.rule)
		}
	}
}

// ReplacedAt names a replaced value, name or path, never a past statement.
func TestReplacedAt(t *testing.T) {
	tests := []struct {
		text, at string
		want     bool
	}{
		{"send-to: sre-oncall (replaces ops-alerts)", "ops-alerts", true},
		{"destino: sre-oncall (en lugar de ops-alerts)", "ops-alerts", true},
		{"send-to: sre-oncall (replaces ops-alerts)", "sre-oncall", false},
		{"the backlog was 240,000 emails", "240,000 emails", false},
	}
	for _, tc := range tests {
		x := New(textmatch.Fold(tc.text))
		a := len(textmatch.Fold(tc.text[:strings.Index(tc.text, tc.at)]))
		if _, got := x.ReplacedAt(a, a+len(tc.at)); got != tc.want {
			t.Errorf("%q at %q: replaced = %v, want %v", tc.text, tc.at, got, tc.want)
		}
	}
}
