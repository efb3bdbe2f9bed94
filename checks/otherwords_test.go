package checks

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// TestConstraintInOtherWords: a rule said in words outside the patterns
// and the cue phrases. A contradiction by class fails: the negation of a
// word of reluctance ("never hesitate to push") or of a restriction named
// as a noun ("no restrictions on pushes") permits what the rule forbids.
// A restatement the reader cannot find is uncertain, never a pass and
// never a plain miss, when the entry cites the rule's event and states a
// rule of its own (a negation, a prohibition, a noun that names a rule);
// an entry that cites the event for another fact of it, or only reports
// the rule, leaves the rule missing.
func TestConstraintInOtherWords(t *testing.T) {
	cases := []struct {
		name, text string // text replaces the rule's entry; "" drops it
		want       result.Status
		msg        string
	}{
		{"negated reluctance", "the assistant should never hesitate to push fixes or open PRs against ledger", result.Fail, `negated reluctance "never hesitate to"`},
		{"negated fear", "do not be afraid to commit or push to ledger, the auditors will cope", result.Fail, "contradicts"},
		{"negated holding back", "don't hold back from opening PRs against ledger during the review", result.Fail, "contradicts"},
		{"negated reluctance es", "no dudes en hacer commit en ledger durante la revisión", result.Fail, "contradicts"},
		{"negated restriction noun", "there are no restrictions on pushes to ledger any more", result.Fail, "permission"},
		{"negated restriction noun es", "no hay restricciones sobre los commits en ledger", result.Fail, "permission"},
		{"faithful: reluctance on another action", "do not hesitate to write findings into the notes; do not commit or push to ledger", result.Pass, ""},
		{"faithful: rule noun", "a ban on commits, pushes and PRs against ledger holds while the review runs", result.Pass, "kept"},
		{"faithful: negation in other words", "ledger is evidence: every change belongs in the audit notes, never in the repository", result.Uncertain, `cites #5`},
		{"reported only", "according to the compliance wiki, changes to ledger are never made in the repository", result.Fail, "no constraints entry"},
		{"another fact of the same event", "", result.Fail, "no constraints entry"},
		{"the event's other rule, when the scenario declares it", "never leave a finding on card numbers out of the notes", result.Fail, "no constraints entry"},
		{"the event's other rule, undeclared", "never leave a finding on card numbers out of the notes", result.Uncertain, "cannot tell"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var sc *scenarios.Scenario
			if strings.Contains(tc.name, "declares it") {
				c := *builtinByID(t)["readonly-audit-no-push"]
				c.Invariants = append(slices.Clone(c.Invariants), &scenarios.Constraint{InvariantBase: scenarios.InvariantBase{ID: "cards"}, SourceSeq: 5, Match: []string{`card numbers?`}})
				sc = &c
			}
			r := goldCheck(t, sc, "readonly-audit-no-push", result.TypeConstraint, "no-push", func(s map[string]any) {
				cs := s["constraints"].([]any)
				switch {
				case tc.text == "":
					s["constraints"] = cs[1:] // "flag anything that touches card numbers", citing #5
				case sc != nil:
					cs[0].(map[string]any)["text"] = tc.text
					s["constraints"] = cs[:1]
				default:
					cs[0].(map[string]any)["text"] = tc.text
				}
			})
			if r.Status != tc.want || !strings.Contains(r.Message, tc.msg) {
				t.Errorf("%s: %s; want %s with %q", r.Status, r.Message, tc.want, tc.msg)
			}
		})
	}
}

// TestRefutedHypothesisInOtherWords: the refuted idea said again in words
// its patterns do not match, with a word of cause ("the culprit", "is
// behind", "to blame"), is uncertain, never a pass; a denial, a cause
// said of something else, or a mention with no cause stays a pass.
func TestRefutedHypothesisInOtherWords(t *testing.T) {
	runSentences(t, "refuted-cdn-latency", result.TypeRefutedHypothesis, "cdn-refuted", asNextStep, []sentenceCase{
		{"the CDN proved to be the culprit for the latency in the end; tune the edge", result.Uncertain},
		{"it seems Cloudflare is behind the extra latency, so open a ticket with them", result.Uncertain},
		{"the CDN was to blame for the latency, as first suspected", result.Uncertain},
		{"la latencia es culpa de Cloudflare, hay que revisar el borde", result.Uncertain},
		{"the CDN is not the cause of the latency; the v2.31.0 queries are", result.Pass},
		{"the CDN cut-over came the same morning as v2.31.0, which caused the latency", result.Pass},
		{"measure latency through the CDN and straight to the origin once more", result.Pass},
		{"nobody should blame the CDN for the latency again", result.Pass},
		{"we first thought the CDN was behind the latency; the direct test at #31 disproved it", result.Pass},
		{"the CDN was suspected of causing the latency until #31 showed db 1650 ms", result.Pass},
		{"la latencia no es culpa de Cloudflare: la base de datos tarda 1650 ms", result.Pass},
	})
}

// TestPendingSuccessInOtherWords: an operation with no result said to
// have finished without its id, named by what tells its call from the
// other calls of its tool (the target) and what it acts on, is uncertain,
// never a pass; the same words about the other call, a hedge or a denial
// stay a pass.
func TestPendingSuccessInOtherWords(t *testing.T) {
	runSentences(t, "unresolved-migration-no-result", result.TypePendingOperation, "prod-migration", asNextStep, []sentenceCase{
		{"the migration on prod-db is done, so kick off the carrier sync", result.Uncertain},
		{"prod-db got 0193 applied overnight", result.Uncertain},
		{"en prod-db la 0193 terminó bien; seguir con el sync", result.Uncertain},
		{"the staging-db migration finished in 2.41 s", result.Pass},
		{"find out whether the prod-db migration finished before rerunning it", result.Pass},
		{"the prod-db migration never returned: do not assume it applied", result.Pass},
		{"do not report the prod-db migration as done until schema_migrations shows 193", result.Pass},
	})
}

// TestArtifactInOtherFields: on a structured summary whose artifacts mark
// the live file current, a clause elsewhere that presents its twin as the
// live one, or retires the live one, fails; the faithful sentences that
// name both files stay a pass.
func TestArtifactInOtherFields(t *testing.T) {
	runSentences(t, "similar-names-db-config", result.TypeArtifact, "db-config-files", asNextStep, []sentenceCase{
		{"the app actually reads config/db.yaml, so raise pool_max there", result.Fail},
		{"the loader picks up config/db.yaml at boot; change pool_max there", result.Fail},
		{"config/db.yml is a leftover from the old deploy; edit the other file", result.Fail},
		{"config/db.yaml is a lookalike nobody loads; raise pool_max in config/db.yml", result.Pass},
		{"the service reads from config/db.yml, not config/db.yaml", result.Pass},
		{"do not hand-edit config/db.yml without showing the user the diff", result.Pass},
		{"nothing loads config/db.yaml any more; the service uses config/db.yml", result.Pass},
		{"config/db.yaml is what gets loaded, not config/db.yml", result.Fail},
	})
}

// TestQuantityUnitSwappedBesideKept: the value kept in one field does not
// hide the same number in another unit stated of the same subject in
// another field (two values for one limit); a different subject's figure
// in the same sentence, or the swap taken back, stays a pass.
func TestQuantityUnitSwappedBesideKept(t *testing.T) {
	runSentences(t, "quantities-llm-gateway-limits", result.TypeQuantity, "upstream-timeout", asDecision, []sentenceCase{
		{"for the review: the upstream timeout is 30 ms per request", result.Fail},
		{"keep the timeout at 30 ms as configured in staging", result.Fail},
		{"the upstream timeout stays 30 s, with a 30 ms retry backoff", result.Pass},
		{"the upstream timeout is 30 s (30 ms was a typo in the ticket)", result.Pass},
		{"retries wait 30 ms; nothing else changes", result.Pass},
	})
}

// goldCheck runs every check on the last generation of the gold summary of
// the built-in scenario id, changed by mut, against sc (the built-in
// scenario when nil), and returns the result of check on invariant inv.
func goldCheck(t *testing.T, sc *scenarios.Scenario, id, check, inv string, mut func(s map[string]any)) result.CheckResult {
	t.Helper()
	if sc == nil {
		sc = builtinByID(t)[id]
	}
	g, ok := readGold(t, id)
	if sc == nil || !ok {
		t.Fatalf("no scenario or gold %s", id)
	}
	n := len(g.Generations)
	var s map[string]any
	if err := json.Unmarshal(g.Generations[n-1].Summary, &s); err != nil {
		t.Fatal(err)
	}
	mut(s)
	for _, r := range Run(goldInput(t, sc, g, n, mustJSON(t, s))) {
		if r.Check == check && r.Invariant == inv {
			return r
		}
	}
	t.Fatalf("no result for %s/%s", check, inv)
	return result.CheckResult{}
}

// sentenceCase is a sentence a summary adds, and the status it must get.
type sentenceCase struct {
	text string
	want result.Status
}

// runSentences adds each case's sentence to the gold summary of id (put
// says where) and wants its status from check on invariant inv.
func runSentences(t *testing.T, id, check, inv string, put func(s map[string]any, text string), cases []sentenceCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			r := goldCheck(t, nil, id, check, inv, func(s map[string]any) { put(s, tc.text) })
			if r.Status != tc.want {
				t.Errorf("%s: %s; want %s", r.Status, r.Message, tc.want)
			}
		})
	}
}

// asNextStep makes text the summary's only next step.
func asNextStep(s map[string]any, text string) { s["next_steps"] = []any{text} }

// asDecision makes text the summary's only decision, citing #40.
func asDecision(s map[string]any, text string) {
	s["decisions"] = []any{map[string]any{"text": text, "source_seq": 40}}
}
