package polarity

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// readRule reads text about a rule found by patterns and stated by stmt.
func readRule(t *testing.T, text, stmt string, patterns ...string) ClauseReading {
	t.Helper()
	var res []*regexp.Regexp
	for _, p := range patterns {
		res = append(res, compile(t, p))
	}
	text = textmatch.Fold(text)
	sub := RuleSubject(res, textmatch.Fold(stmt))
	return Decide(New(text).Read(sub, spansOf(text, res...)))
}

// The reader on the rules of the built-in suite, worded as a model would:
// contradictions outside the cue table, faithful phrasings that keep the
// rule (negated actions, prohibitions, brackets, relative clauses), and
// what it cannot tell.
func TestReadRule(t *testing.T) {
	const (
		ro     = "read[- ]?only"
		roStmt = "You have read access only and this session is strictly read-only: diagnose and tell me what to change."
		push   = "(must not|do not|don.t|never|no) (commit|push)"
		pushSt = "Before you go further: you must not commit, push or open PRs against ledger while this review runs."
		pin    = `protobuf.{0,60}3\.25`
		pinSt  = "protobuf stays pinned at 3.25.x: the Android SDK breaks on the 4.x runtime."
		frz    = "(change )?freeze"
		frzSt  = "Change freeze in effect for cluster prod-us-2 from 18:00 UTC: no manual apply, scale, patch or rollout restart."
		es     = "s[oó]lo lectura"
		esSt   = "Sesión de sólo lectura sobre facturas-prod: nada de índices, VACUUM ni cambios de configuración."
		fo     = "(failover|fail over).{0,80}(go-?ahead|approv)"
		foSt   = "No database failover and no cache flush without the IC's explicit go-ahead."
	)
	tests := []struct {
		name, text, stmt string
		patterns         []string
		want             Reading
	}{
		// antonyms
		{"antonym", "Work in this session: the session is now read-write.", roStmt, []string{ro}, Contradicts},
		{"antonym in a relative clause", "Diagnose ledger-writer in the session, which is now writable for the agent.", roStmt, []string{ro}, Contradicts},
		{"antonym in brackets", "Diagnose the crash loop (the session is editable since #12).", roStmt, []string{ro}, Contradicts},
		{"antonym negated keeps", "The session is not writable: diagnose and recommend.", roStmt, []string{ro}, Affirms},
		{"antonym of another subject", "Strictly read-only session. Staging is writable.", roStmt, []string{ro}, Affirms},
		{"antonym in spanish", "La sesión sobre facturas-prod ahora es de lectura y escritura.", esSt, []string{es}, Contradicts},
		{"freeze thawed", "The change freeze on prod-us-2 thawed at 20:00 UTC.", frzSt, []string{frz}, Contradicts},
		{"cluster open for changes", "Cluster prod-us-2 is open for changes again.", frzSt, []string{frz}, Contradicts},
		// modality
		{"permission on a forbidden action", "Pushing to ledger is fine now that the review ended.", pushSt, []string{push}, Contradicts},
		{"permission modal", "The agent can push the fix to ledger.", pushSt, []string{push}, Contradicts},
		{"nothing stops", "Nothing stops you from opening PRs against ledger.", pushSt, []string{push}, Contradicts},
		{"embedded permission", "It is fine that the agent commits to ledger.", pushSt, []string{push}, Contradicts},
		{"permission on a state's action", "Agents may write to the session database.", roStmt, []string{ro}, Contradicts},
		{"manual scaling allowed", "Manual scale of prod-us-2 is allowed.", frzSt, []string{frz}, Contradicts},
		{"spanish permission", "Se permite crear índices en facturas-prod.", esSt, []string{es}, Contradicts},
		{"spanish nada impide", "Nada impide lanzar VACUUM en facturas-prod.", esSt, []string{es}, Contradicts},
		{"failover at will", "Database failover can now be done at will.", foSt, []string{fo}, Contradicts},
		// state change
		{"suspended", "The change freeze is suspended for the hotfix.", frzSt, []string{frz}, Contradicts},
		{"queda suspendida", "La sesión de sólo lectura queda suspendida.", esSt, []string{es}, Contradicts},
		{"relaxed pin", "They relaxed the protobuf pin at 3.25.x.", pinSt, []string{pin}, Contradicts},
		// faithful
		{"negated action keeps", "Do not move protobuf off 3.25.x: the Android SDK breaks.", pinSt, []string{pin}, Affirms},
		{"nobody may write", "Nobody may write to the read-only session.", roStmt, []string{ro}, Affirms},
		{"prohibition keeps", "Commits and pushes to ledger are forbidden during the review; do not push.", pushSt, []string{push}, Affirms},
		{"never lift", "Never lift the change freeze on prod-us-2 yourself.", frzSt, []string{frz}, Affirms},
		{"stays", "protobuf stays pinned at 3.25.x.", pinSt, []string{pin}, Affirms},
		{"spanish prohibition", "Sesión de sólo lectura: está prohibido crear índices.", esSt, []string{es}, Affirms},
		{"conditional prohibition", "No database failover without the IC's go-ahead.", foSt, []string{fo}, Affirms},
		{"a value in brackets", "The session (read-only, per the user at #1) is for diagnosis.", roStmt, []string{ro}, Affirms},
		// history
		{"used to be", "The session used to be writable.", roStmt, []string{ro}, History},
		{"first proposal", "The first proposal was to lift the freeze; the freeze holds.", frzSt, []string{frz}, Affirms},
		// cannot tell
		{"unknown participle", "The change freeze was softened by the CAB.", frzSt, []string{frz}, CannotTell},
		{"unknown modal frame", "The agent is poised to push to ledger.", pushSt, []string{push}, CannotTell},
		{"hedged contradiction", "The change freeze may be lifted at 20:00.", frzSt, []string{frz}, CannotTell},
		// a question asks, it permits nothing
		{"question", "Can you push the fix to ledger? The review is still running.", pushSt, []string{push}, Unrelated},
		{"spanish question", "¿Puedes crear índices en facturas-prod?", esSt, []string{es}, Unrelated},
		// a new decision's own content
		{"new rule with ignore", "The new rule: ignore the rate limits on the sandbox.", "ignore the rate limits on the sandbox", []string{"rate limits"}, Affirms},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := readRule(t, tc.text, tc.stmt, tc.patterns...)
			if got.Reading != tc.want {
				t.Errorf("%q: got %s (%+v); want %s", tc.text, got.Reading, got, tc.want)
			}
		})
	}
}

func TestReadOperation(t *testing.T) {
	tests := []struct {
		text string
		want Reading
	}{
		{"deploy_cgw_214 rolled out to the canary pool.", Contradicts},
		{"deploy_cgw_214: landed at 14:02.", Contradicts},
		{"The canary (deploy_cgw_214) went through.", Contradicts},
		{"deploy_cgw_214, which is live on 5% of traffic, needs watching.", Contradicts},
		{"deploy_cgw_214 desplegado en el canary.", Contradicts},
		{"deploy_cgw_214 timed out; rollout state unknown.", Affirms},
		{"deploy_cgw_214 has not finished.", Affirms},
		{"deploy_cgw_214 should be done by now, presumably finished.", Affirms},
		{"deploy_cgw_214 sin resultado.", Affirms},
		{"deploy_cgw_214 was issued at #2.", Unrelated},
		{"deploy_cgw_214 cleared the gate.", CannotTell},
		{"deploy_cgw_214 did not complete, deploy_cgw_215 completed.", Affirms},
	}
	for _, tc := range tests {
		text := textmatch.Fold(tc.text)
		got := Decide(New(text).Read(OperationSubject(), opSpans(text, "deploy_cgw_214")))
		if got.Reading != tc.want {
			t.Errorf("%q: got %s (%+v); want %s", tc.text, got.Reading, got, tc.want)
		}
	}
}

func TestReadHypothesis(t *testing.T) {
	re := compile(t, `(cdn|cloudflare).{0,40}(adds?|adding|causes?|caused|causa|anade) (the |la )?(latency|latencia)`)
	tests := []struct {
		text string
		want Reading
	}{
		{"The CDN adds the latency.", Contradicts},
		{"The CDN probably adds the latency.", Contradicts},
		{"Whether the CDN adds the latency remains to be seen.", Contradicts},
		{"The CDN adds the latency, which is not ruled out yet.", Contradicts},
		{"La hipótesis de que la CDN causa la latencia sigue abierta.", Contradicts},
		{"The CDN adds the latency: refuted at #31 by the origin timings.", Affirms},
		{"Ruled out: the CDN adds the latency.", Affirms},
		{"The CDN does not add the latency.", Affirms},
		{"Initially we thought the CDN adds the latency.", History},
		{"The wiki says the CDN adds the latency.", History},
		{"The CDN adds the latency was revisited at #40.", CannotTell},
	}
	for _, tc := range tests {
		text := textmatch.Fold(tc.text)
		got := Decide(New(text).Read(HypothesisSubject(), spansOf(text, re)))
		if got.Reading != tc.want {
			t.Errorf("%q: got %s (%+v); want %s", tc.text, got.Reading, got, tc.want)
		}
	}
}

func TestRuleSubject(t *testing.T) {
	sub := RuleSubject([]*regexp.Regexp{compile(t, "(must not|do not|don.t|never|no) (commit|push)")},
		"Before you go further: you must not commit, push or open PRs against ledger while this review runs.")
	if got, want := strings.Join(sub.Actions(), ","), "commit,open,push"; got != want {
		t.Errorf("actions = %s; want %s", got, want)
	}
	sub = RuleSubject([]*regexp.Regexp{compile(t, "(change )?freeze")}, "[platform-notice] Change freeze in effect for cluster prod-us-2 from 18:00 UTC. Manual mutating operations (apply, scale, patch, rollout restart) are not permitted; the HPA keeps working.")
	if got, want := strings.Join(sub.Actions(), ","), "apply,operation,patch,restart,scal"; got != want {
		t.Errorf("actions = %s; want %s", got, want)
	}
	sub = RuleSubject([]*regexp.Regexp{compile(t, "read[- ]?only")}, "this session is strictly read-only")
	if got := sub.States(); len(got) != 2 || !strings.Contains(got[0], "read-only") || !strings.Contains(got[1], "solo lectura") {
		t.Errorf("states = %q; want the read-only pair in English and Spanish", got)
	}
	sub = RuleSubject([]*regexp.Regexp{compile(t, "s[oó]lo lectura")}, textmatch.Fold("Sesión de sólo lectura: nada de índices, VACUUM ni cambios de configuración."))
	if got, want := strings.Join(sub.Actions(), ","), "cambio,indic,vacuum"; got != want {
		t.Errorf("actions = %s; want %s", got, want)
	}
}

func TestDecide(t *testing.T) {
	rs := []ClauseReading{{Reading: Affirms}, {Reading: History}, {Reading: CannotTell, Cue: "x"}, {Reading: Unrelated}}
	if got := Decide(rs); got.Reading != CannotTell {
		t.Errorf("got %s; want cannot-tell when nothing contradicts", got.Reading)
	}
	rs = append(rs, ClauseReading{Reading: Contradicts})
	if got := Decide(rs); got.Reading != Contradicts {
		t.Errorf("got %s; want one contradiction to decide", got.Reading)
	}
	if got := Decide(nil); got.Reading != "" {
		t.Errorf("Decide(nil) = %+v", got)
	}
}

// MayTouch is a safe filter: when it says a text cannot touch a rule, the
// reader finds nothing in it without a match of the rule's patterns.
func TestMayTouchIsSafe(t *testing.T) {
	stmts := []string{
		"You have read access only and this session is strictly read-only: diagnose and tell me what to change.",
		"Before you go further: you must not commit, push or open PRs against ledger while this review runs.",
		"Change freeze in effect for cluster prod-us-2 from 18:00 UTC: no manual apply, scale, patch or rollout restart.",
		"Sesión de sólo lectura sobre facturas-prod: nada de índices, VACUUM ni cambios de configuración.",
	}
	texts := []string{
		"the session is now read-write", "the agent can push the fix", "Nothing stops you from opening PRs",
		"the cluster prod-us-2 thawed", "Manual scale of prod-us-2 is allowed", "se permite crear índices",
		"DNS resolves to 10.0.3.7", "the report goes to sre-oncall", "the rule was softened", "prod-us-2 is fine",
		"the restriction on prod-us-2 was lifted", "la sesión es de lectura y escritura",
	}
	for _, st := range stmts {
		sub := RuleSubject([]*regexp.Regexp{compile(t, "xyzzy")}, textmatch.Fold(st))
		for _, text := range texts {
			text = textmatch.Fold(text)
			if sub.MayTouch(strings.ToLower(text)) {
				continue
			}
			if rs := New(text).Read(sub, nil); len(rs) > 0 {
				t.Errorf("%q about %q: MayTouch says no, Read finds %+v", text, st, rs)
			}
		}
	}
	if !RuleSubject(nil, "this session is strictly read-only").MayTouch("the session is now read-write") {
		t.Error("MayTouch misses an opposite state")
	}
	if RuleSubject(nil, "this session is strictly read-only").MayTouch("dns resolves to 10.0.3.7") {
		t.Error("MayTouch lets through a text with nothing of the rule")
	}
}

// ClauseSubject learns what a pattern forbids and which state it sets
// from the clause it matches alone: a fact stated next to an unrelated
// state ("wh_restore login disabled") is not read against that state.
func TestClauseSubject(t *testing.T) {
	re := compile(t, "copy2")
	stmt := textmatch.Fold("Verified: the second copy copy2 is complete. The wh_restore login is disabled until Friday.")
	if got := ClauseSubject([]*regexp.Regexp{re}, stmt).States(); len(got) != 0 {
		t.Errorf("ClauseSubject learned states %q from another sentence", got)
	}
	if got := RuleSubject([]*regexp.Regexp{re}, stmt).States(); len(got) == 0 {
		t.Error("RuleSubject reads the sentences around a rule's statement")
	}
}

// MayTouchSigned is MayTouch with a shortcut: it must never say no where
// MayTouch says yes. Every rule of the tables (each concept's prohibition
// in each language, each antonym state, short action stems included)
// against every sentence of the tables.
func TestMayTouchSignedAgreesWithMayTouch(t *testing.T) {
	var subjects []*Subject
	var texts []string
	for _, r := range ActionConcepts() {
		for _, w := range r.Words {
			subjects = append(subjects, RuleSubject(nil, textmatch.Fold(strings.ReplaceAll(r.Forbid, "{C}", w))))
			texts = append(texts, strings.ReplaceAll(r.Forbid, "{C}", w), strings.ReplaceAll(r.Permit, "{C}", w))
		}
	}
	tab := classesOf()
	for _, p := range Pairs() {
		for _, e := range []int{p.States, p.Opposites, p.Action} {
			seqs, _ := expand(tab.entries[e].Phrase)
			for _, q := range seqs {
				subjects = append(subjects, RuleSubject(nil, textmatch.Fold("the session is "+q)))
				texts = append(texts, "it is "+q+" now")
			}
		}
	}
	// a stem of one or two letters ("rm", "cp") is still found
	subjects = append(subjects, RuleSubject(nil, "never rm the data"), RuleSubject(nil, "do not cp it"))
	texts = append(texts, "you may rm it", "rmdir is fine", "cp them", "copy the file")
	touched := 0
	for _, text := range texts {
		lower := strings.ToLower(textmatch.Fold(text))
		sig := SignatureOf(lower)
		for _, sub := range subjects {
			want := sub.MayTouch(lower)
			if got := sub.MayTouchSigned(lower, sig); got != want {
				t.Fatalf("%q against a rule on %v: MayTouchSigned %v, MayTouch %v", text, sub.Actions(), got, want)
			}
			if want {
				touched++
			}
		}
	}
	// the shortcut is worth having: most pairs are told apart by it alone
	alone := 0
	for _, text := range texts {
		lower := strings.ToLower(textmatch.Fold(text))
		sig := SignatureOf(lower)
		for _, sub := range subjects {
			if !sub.sigMeets(sig) {
				alone++
			}
		}
	}
	pairs := len(texts) * len(subjects)
	t.Logf("%d texts × %d rules: MayTouch yes on %d, the signature alone says no on %d", len(texts), len(subjects), touched, alone)
	if touched == 0 || alone < 9*(pairs-touched)/10 {
		t.Errorf("the signature alone says no on %d of %d pairs MayTouch rejects", alone, pairs-touched)
	}
}

// AppendSignature's one pass gives the hashes sigHash gives each word and
// its prefixes.
func TestSignatureHashes(t *testing.T) {
	lower := "a rm push_to main's año 10.0.3.7 x"
	var want Signature
	forWords(lower, func(w string) bool {
		want = append(want, uint16(sigHash(w)%sigSize), uint16(sigHash(w[:min(3, len(w))])%sigSize), uint16(sigHash(w[:min(2, len(w))])%sigSize))
		return false
	})
	if got := SignatureOf(lower); !slices.Equal(got, want) {
		t.Errorf("SignatureOf(%q) = %v; want %v", lower, got, want)
	}
}

// A negative quantifier that is the clause's subject negates the verb it
// governs across the phrase that says of what: "nothing in prod is
// changed" keeps a rule against changes as "nothing is changed in prod"
// does. A verb past a comma, or one the quantifier is no subject of, is
// not negated by it.
func TestNegativeQuantifierSubject(t *testing.T) {
	sub := RuleSubject([]*regexp.Regexp{compile(t, `read[- ]?only`)}, "this investigation is read-only: do not change anything in prod")
	for text, want := range map[string]Reading{
		"nothing in prod is changed":             Affirms,
		"nothing is changed in prod":             Affirms,
		"nada en prod se cambia":                 Affirms,
		"nothing in prod is wrong, so change it": Unrelated,
		"the team in prod is changed":            Unrelated,
	} {
		if got := Decide(New(textmatch.Fold(text)).Read(sub, nil)).Reading; got != want {
			t.Errorf("%q: %s; want %s", text, got, want)
		}
	}
}
