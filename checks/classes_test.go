package checks

import (
	"testing"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/summary"
)

// Meaning by class (issue 24): a rule, a refuted hypothesis or an
// unfinished operation contradicted in words no cue holds fails; the
// faithful phrasing beside it passes; a clause the reader cannot classify
// on the subject makes the check uncertain, never a pass.

func addStep(text string) func(s *summary.Summary) {
	return func(s *summary.Summary) { s.NextSteps = append(s.NextSteps, text) }
}

func TestConstraintClasses(t *testing.T) {
	runCases(t, result.TypeConstraint, "ro", []checkCase{
		// contradictions, one per class
		{name: "antonym", mut: addStep("the investigation on prod is now read-write, apply the fix"), want: result.Fail, ptr: "/next_steps/0", msg: "opposite state"},
		{name: "antonym in a relative clause", mut: addStep("apply the fix to prod, which is editable for this investigation"), want: result.Fail, msg: "opposite state"},
		{name: "modal permission", mut: addStep("the assistant may change prod directly"), want: result.Fail, msg: "permission"},
		{name: "embedded permission", mut: addStep("it is fine that the assistant changes prod"), want: result.Fail, msg: "permission"},
		{name: "state change", mut: setConstraint("read-only: suspended for the hotfix"), want: result.Fail, msg: "suspended"},
		{name: "state change outside the cues", mut: addStep("the read-only mode has lapsed since #12"), want: result.Fail, msg: "cancellation"},
		{name: "spanish antonym", mut: addStep("la investigación en prod ahora es de lectura y escritura"), want: result.Fail, msg: "opposite state"},
		{name: "spanish permission", mut: addStep("nada impide modificar prod en esta investigación"), want: result.Fail, msg: "permission"},
		{name: "spanish state change", mut: setConstraint("el modo de solo lectura caducó a mitad de la sesión"), want: result.Fail, msg: "cancellation"},
		// faithful
		{name: "faithful: negated action", mut: setConstraint("read-only: do not change prod, nobody may change prod"), want: result.Pass},
		{name: "faithful: prohibition", mut: setConstraint("read-only investigation: changes to prod are forbidden"), want: result.Pass},
		{name: "faithful: brackets and relative", mut: setConstraint("the investigation (read-only, which the user set at #1) makes no change to prod"), want: result.Pass},
		{name: "faithful: another subject's opposite", mut: func(s *summary.Summary) {
			s.Constraints[0].Text = "read-only: no changes to prod"
			s.NextSteps = []string{"staging is writable for the team"}
		}, want: result.Pass},
		{name: "history is not current", mut: addStep("the first proposal was to make prod writable; the user refused"), want: result.Pass},
		// cannot tell
		{name: "unknown participle", mut: addStep("the read-only rule was softened by the user"), want: result.Uncertain, ptr: "/next_steps/0", msg: "cannot read plainly"},
		{name: "hedged contradiction", mut: addStep("the read-only mode may be lifted tomorrow"), want: result.Uncertain},
		{name: "a contradiction beats an unknown word", mut: func(s *summary.Summary) {
			s.NextSteps = []string{"the read-only rule was softened by the user", "the investigation is now writable"}
		}, want: result.Fail},
		{name: "missing beats an unknown word", mut: func(s *summary.Summary) {
			s.Constraints = s.Constraints[1:]
			s.NextSteps = []string{"the read-only rule was softened by the user"}
		}, want: result.Fail},
	})
}

func TestRefutedHypothesisClasses(t *testing.T) {
	runCases(t, result.TypeRefutedHypothesis, "dns", []checkCase{
		{name: "likely", mut: addStep("DNS is broken, most likely, so check resolv.conf"), want: result.Fail, msg: "restated as open"},
		{name: "plain assertion", mut: addStep("DNS is broken, so check resolv.conf"), want: result.Fail, msg: "asserted"},
		{name: "still open", mut: addStep("whether DNS is broken remains to be seen"), want: result.Fail, msg: "restated as open"},
		{name: "spanish", mut: addStep("probablemente DNS is broken"), want: result.Fail, msg: "restated as open"},
		{name: "faithful: the claim keeps its own hedge", mut: func(s *summary.Summary) { s.Hypotheses[0].Claim = "DNS is broken, maybe a stale resolver" }, want: result.Pass},
		{name: "faithful: a heading refutes a hedged claim", mut: addStep("Refuted at #4: DNS is broken, maybe a stale resolver"), want: result.Pass},
		{name: "faithful: ruled out", mut: addStep("DNS is broken was ruled out at #4: db resolves"), want: result.Pass},
		{name: "faithful: history", mut: addStep("initially we thought DNS is broken"), want: result.Pass},
		{name: "unknown word", mut: addStep("DNS is broken was revisited at #4"), want: result.Uncertain},
	})
}

func TestPendingOperationClasses(t *testing.T) {
	setDesc := func(d string) func(s *summary.Summary) {
		return func(s *summary.Summary) { s.Pending[1].Description = d }
	}
	runCases(t, result.TypePendingOperation, "mig", []checkCase{
		{name: "completion synonym", mut: addStep("c4 landed, move on to the port"), want: result.Fail, msg: "said to be finished"},
		{name: "completion in its own entry", mut: setDesc("migration scripts/migrate.sh went out to prod"), want: result.Fail, ptr: "/pending/1/description"},
		{name: "spanish", mut: addStep("c4 salió bien"), want: result.Fail, msg: "said to be finished"},
		{name: "in a relative clause", mut: addStep("c4, which is live now, needs no follow-up"), want: result.Fail},
		// an inferred completion is not plainly unfinished: the agent may
		// act on it (issue 36's "pending result inferred" class)
		{name: "inferred", mut: addStep("c4 should be done by now, presumably finished; confirm first"), want: result.Uncertain, msg: "inferred"},
		{name: "faithful: hedged", mut: addStep("c4 may have finished; confirm first"), want: result.Pass},
		{name: "faithful: not yet", mut: setDesc("migration scripts/migrate.sh: no result yet, not to be assumed applied"), want: result.Pass},
		{name: "faithful: spanish", mut: addStep("c4 sin resultado todavía"), want: result.Pass},
		{name: "unknown verb", mut: addStep("c4 cleared the staging gate"), want: result.Uncertain, msg: "cannot read plainly"},
	})
}
