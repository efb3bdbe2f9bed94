package checks

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// The typed state of a workflow (issue 39): approval, goal, next_step,
// handoff. Each check has its typed record that passes, the record with a
// contradicting clause (fail) and with one it cannot read (uncertain), a
// text-only restatement (pass) and the same with its subject shifted, and
// the adversarial twin of each class the issue names beside its faithful
// twin.

// stateScenario is a release session: an approval tied to a digest and an
// expiry, a rebuild that changes the digest, a redirect of the task, a
// workflow rule, an operation with no result and a restart in a new
// session.
func stateScenario() *scenarios.Scenario {
	say := func(seq int, role scenarios.Role, text string) scenarios.Event {
		return scenarios.Event{Seq: seq, Role: role, Text: text}
	}
	base := func(id string) scenarios.InvariantBase {
		return scenarios.InvariantBase{ID: id, Pos: result.Pos{Line: 40, Col: 5}}
	}
	return &scenarios.Scenario{
		Version: 1, ID: "state-fixture", Goal: "help with the payments-api 2.14 release",
		Compaction: scenarios.Compaction{At: []int{6, 12}, MaxRatio: 1},
		Events: []scenarios.Event{
			say(1, scenarios.RoleUser, "This is session sess-7f3a of the payments-api 2.14 release. First task: investigate the checkout latency regression."),
			say(2, scenarios.RoleAssistant, "Starting with the p95 traces of checkout."),
			say(3, scenarios.RoleUser, "Dana Whitfield (release manager): approved: roll the canary of payments-api sha256:3f9a11 to the eu-west-1 pool, until 18:00 UTC."),
			say(4, scenarios.RoleUser, "Change of plan: stop the latency investigation. The goal now is to fix the flaky refund test TestRefundIdempotency."),
			say(5, scenarios.RoleSystem, "Change policy for CHG-4471: until the CAB approves CHG-4471, the only allowed step is a dry-run: terraform plan. No terraform apply before that."),
			say(6, scenarios.RoleAssistant, "Understood: dry-run only until the CAB signs off."),
			{Seq: 7, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: "b1", Name: "build_image", Args: map[string]any{"service": "payments-api"}}},
			{Seq: 8, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: "b1", Status: "ok", Text: "rebuilt on the new base image: payments-api@sha256:77c0de"}},
			say(9, scenarios.RoleUser, "Dana: the refund fix patches/refund-idempotency.patch is approved for merge."),
			{Seq: 10, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: "f1", Name: "set_flag", Args: map[string]any{"flag": "refund_v2", "region": "eu-west-1"}}},
			say(11, scenarios.RoleUser, "This session is at its context limit: we restart in a fresh session. Write the handoff."),
			say(12, scenarios.RoleAssistant, "Writing the handoff now."),
		},
		Invariants: []scenarios.Invariant{
			&scenarios.Approval{InvariantBase: base("canary-ok"), SourceSeq: 3, Approver: "Dana Whitfield", Match: []string{`canar(y|io)`},
				Scope: []string{"eu-west-1"}, Resource: "sha256:3f9a11", Expires: "18:00 UTC", InvalidatedBy: 8},
			&scenarios.Goal{InvariantBase: base("goal"), SourceSeq: 4, Match: []string{`flaky refund test|TestRefundIdempotency|test de reembolso`},
				Superseded: []string{`latency (investigation|regression)|investigat\w* (the )?(checkout )?latency|latencia`}},
			&scenarios.NextStep{InvariantBase: base("dry-run"), SourceSeq: 5, Match: []string{`dry[- ]?run|terraform plan|simulacro`},
				Later: []string{`terraform apply|\bapply\b|aplicar`}, Gate: []string{`\bCAB\b|CHG-4471`}},
			&scenarios.Handoff{InvariantBase: base("handoff"), SourceSeq: 11, Session: "sess-7f3a", Reason: []string{`context limit|fresh session|limite de contexto`},
				Artifacts: []string{"patches/refund-idempotency.patch"}, Operations: []string{"f1"}},
		},
	}
}

// stateGold passes every check of stateScenario at cut 12: the approval
// has gone stale (the image was rebuilt at #8).
func stateGold() *summary.Summary {
	return &summary.Summary{
		SchemaVersion: 1, CoversThrough: 12,
		Goal: "Fix the flaky refund test TestRefundIdempotency",
		Approvals: []summary.Approval{{Text: "canary rollout of payments-api to the eu-west-1 pool", SourceSeq: 3, Approver: "Dana Whitfield",
			Scope: "eu-west-1", Resource: "sha256:3f9a11", Expires: "18:00 UTC", Status: summary.ApprovalStale, InvalidatedBy: 8}},
		Constraints: []summary.Constraint{{Text: "until the CAB approves CHG-4471, the only allowed step is a dry-run (terraform plan); no terraform apply before that", SourceSeq: 5}},
		Corrections: []summary.Correction{{Subject: "goal", Value: "fix the flaky refund test", Supersedes: "investigate the checkout latency regression", SourceSeq: 4}},
		Verified:    []summary.Claim{{Claim: "the image was rebuilt as payments-api@sha256:77c0de", SourceSeq: 8}},
		Pending:     []summary.Pending{{OpID: "f1", Description: "set_flag refund_v2 in eu-west-1: no result", Status: summary.PendingUnknown, SourceSeq: 10}},
		NextSteps:   []string{"terraform plan (dry-run) for CHG-4471", "post the plan for CAB review", "after CAB approval of CHG-4471, terraform apply"},
		Handoff: &summary.Handoff{PreviousSession: "sess-7f3a", Reason: "the session reached its context limit; the work restarts in a fresh session", SourceSeq: 11,
			ApprovedArtifacts: []string{"patches/refund-idempotency.patch"}, Unresolved: []string{"f1"}},
	}
}

type stateCase struct {
	name string
	cut  int // 12 unless set
	mut  func(s *summary.Summary)
	want result.Status
	msg  string
}

func runState(t *testing.T, check, inv string, cases []stateCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc := stateScenario()
			cut := tc.cut
			if cut == 0 {
				cut = 12
			}
			s := stateGold()
			s.CoversThrough = cut
			if tc.mut != nil {
				tc.mut(s)
			}
			raw := mustJSON(t, s)
			results := Run(&Input{Scenario: sc, Gen: genAt(sc, cut, false), Raw: raw})
			checkPointers(t, raw, results)
			r := resultFor(t, results, check, inv)
			if r.Status != tc.want {
				t.Fatalf("status = %s (%s); want %s\nevidence: %+v", r.Status, r.Message, tc.want, r.Evidence)
			}
			if tc.msg != "" && !strings.Contains(r.Message, tc.msg) {
				t.Errorf("message %q does not contain %q", r.Message, tc.msg)
			}
			if r.Status == result.Pass && r.DecidedBy == "" {
				t.Errorf("a pass with no decided_by")
			}
		})
	}
}

func TestStateGoldPasses(t *testing.T) {
	sc := stateScenario()
	results := Run(&Input{Scenario: sc, Gen: genAt(sc, 12, false), Raw: mustJSON(t, stateGold())})
	for _, r := range results {
		if r.Kind == result.KindInvariant && r.Status != result.Pass {
			t.Errorf("%s/%s: %s: %s %+v", r.Check, r.Invariant, r.Status, r.Message, r.Evidence)
		}
	}
}

// validApproval is the approval before the rebuild (cut 6), kept whole.
func validApproval(s *summary.Summary) {
	s.Approvals[0].Status, s.Approvals[0].InvalidatedBy = "", 0
	s.Verified, s.Pending, s.Handoff = nil, nil, nil
}

func TestApprovalCheck(t *testing.T) {
	early := func(muts ...func(s *summary.Summary)) func(s *summary.Summary) {
		return func(s *summary.Summary) {
			validApproval(s)
			for _, m := range muts {
				m(s)
			}
		}
	}
	text := func(t string) func(s *summary.Summary) { return func(s *summary.Summary) { s.Text = t } }
	runState(t, result.TypeApproval, "canary-ok", []stateCase{
		// while it holds (cut 6)
		{name: "valid: typed record", cut: 6, mut: early(), want: result.Pass},
		{name: "valid: dropped while the action is pending", cut: 6, mut: early(func(s *summary.Summary) { s.Approvals = nil }), want: result.Fail, msg: "no approvals entry"},
		{name: "valid: scope widened in the typed field", cut: 6, mut: early(func(s *summary.Summary) { s.Approvals[0].Scope = "all regions" }), want: result.Fail, msg: "widens"},
		{name: "valid: scope moved to another region", cut: 6, mut: early(func(s *summary.Summary) { s.Approvals[0].Scope = "eu-west-1 and eu-west-2" }), want: result.Fail, msg: "eu-west-2"},
		{name: "valid: scope widened in prose", cut: 6, mut: early(text("Dana approved the canary for every region.")), want: result.Fail, msg: "extends it to"},
		{name: "valid: faithful prose beside the record", cut: 6, mut: early(text("Dana approved the canary for eu-west-1 only, until 18:00 UTC.")), want: result.Pass},
		{name: "valid: denied in prose", cut: 6, mut: early(text("The canary is not approved yet.")), want: result.Fail, msg: "not approved"},
		{name: "valid: hedged in prose", cut: 6, mut: early(text("The canary approval probably covers eu-west-1.")), want: result.Uncertain},
		{name: "valid: marked stale before anything changed", cut: 6, mut: early(func(s *summary.Summary) { s.Approvals[0].Status = summary.ApprovalStale }), want: result.Fail, msg: "still holds"},
		{name: "valid: record without its resource", cut: 6, mut: early(func(s *summary.Summary) { s.Approvals[0].Resource = "" }), want: result.Fail, msg: "what it is tied to"},
		{name: "valid: another resource", cut: 6, mut: early(func(s *summary.Summary) { s.Approvals[0].Resource = "sha256:77c0de" }), want: result.Fail, msg: "ties the approval"},
		{name: "valid: another approver", cut: 6, mut: early(func(s *summary.Summary) { s.Approvals[0].Approver = "Marco Ruiz" }), want: result.Fail, msg: "gives the approval"},
		{name: "valid: miscited", cut: 6, mut: early(func(s *summary.Summary) { s.Approvals[0].SourceSeq = 1 }), want: result.Fail, msg: "which did not grant it"},
		{name: "valid: text-only restatement", cut: 6, mut: textOnly("Dana Whitfield approved the canary of payments-api sha256:3f9a11 for the eu-west-1 pool until 18:00 UTC (#3)."), want: result.Pass},
		{name: "valid: text-only, subject shifted", cut: 6, mut: textOnly("Dana Whitfield approved the canary of payments-api sha256:3f9a11 for the eu-west-2 pool until 18:00 UTC."), want: result.Fail},
		{name: "valid: text-only without the expiry", cut: 6, mut: textOnly("Dana Whitfield approved the canary of payments-api sha256:3f9a11 for eu-west-1."), want: result.Fail, msg: "expiry"},
		{name: "valid: text-only in Spanish", cut: 6, mut: textOnly("Dana Whitfield aprobó el canario de payments-api sha256:3f9a11 en eu-west-1 hasta las 18:00 UTC."), want: result.Pass},
		// once the image was rebuilt (cut 12)
		{name: "stale: typed record", want: result.Pass},
		{name: "stale: carried as valid", mut: func(s *summary.Summary) { s.Approvals[0].Status, s.Approvals[0].InvalidatedBy = "", 0 }, want: result.Fail, msg: "ended at #8"},
		{name: "stale: dropped", mut: func(s *summary.Summary) { s.Approvals = nil }, want: result.Fail, msg: "a summary must say so"},
		{name: "stale: carried to the new build in prose", mut: text("The canary approval carries over to payments-api@sha256:77c0de."), want: result.Fail, msg: "extends it to"},
		{name: "stale: presented as valid in prose", mut: text("The canary to eu-west-1 is approved."), want: result.Fail, msg: "presented as valid"},
		{name: "stale: still holds in the record's text", mut: func(s *summary.Summary) { s.Approvals[0].Text = "canary rollout, approval still holds" }, want: result.Fail},
		{name: "stale: the act reported, its end stated", mut: text("Dana approved the canary at #3; the approval is stale since the rebuild at #8."), want: result.Pass},
		{name: "stale: text-only, end stated", mut: textOnly("Dana approved the canary of sha256:3f9a11 for eu-west-1 (#3); that approval is stale: the image was rebuilt at #8, a new approval is needed."), want: result.Pass},
		{name: "stale: text-only, act only", mut: textOnly("Dana approved the canary of sha256:3f9a11 for eu-west-1 at #3."), want: result.Uncertain},
		{name: "stale: text-only, carried", mut: textOnly("The canary of payments-api to eu-west-1 is approved by Dana."), want: result.Fail},
		{name: "stale: text-only in Spanish", mut: textOnly("La aprobación de Dana para el canario en eu-west-1 está caducada: la imagen se reconstruyó."), want: result.Pass},
	})
}

// TestApprovalApproverAsNamed: a prose approval names its approver as its
// own event does ("Dana: … is approved", where #3 gave "Dana Whitfield");
// one that names no approver still fails.
func TestApprovalApproverAsNamed(t *testing.T) {
	sc := stateScenario()
	sc.Invariants = append(sc.Invariants, &scenarios.Approval{InvariantBase: scenarios.InvariantBase{ID: "refund-merge", Pos: result.Pos{Line: 50, Col: 5}},
		SourceSeq: 9, Approver: "Dana Whitfield", Match: []string{`refund[- ]fix|refund-idempotency`}, Resource: "patches/refund-idempotency.patch"})
	for _, tc := range []struct {
		text string
		want result.Status
	}{
		{"Dana approved the refund fix patches/refund-idempotency.patch for merge (#9).", result.Pass},
		{"The refund fix patches/refund-idempotency.patch is approved for merge (#9).", result.Fail},
		{"Marco approved the refund fix patches/refund-idempotency.patch for merge (#9).", result.Fail},
	} {
		s := stateGold()
		textOnly(tc.text)(s)
		r := resultFor(t, Run(&Input{Scenario: sc, Gen: genAt(sc, 12, false), Raw: mustJSON(t, s)}), result.TypeApproval, "refund-merge")
		if r.Status != tc.want {
			t.Errorf("%q: %s (%s), want %s", tc.text, r.Status, r.Message, tc.want)
		}
	}
}

func TestGoalCheck(t *testing.T) {
	runState(t, result.TypeGoal, "goal", []stateCase{
		{name: "typed record", want: result.Pass},
		{name: "before the redirect", cut: 3, mut: func(s *summary.Summary) { s.Goal = "investigate the checkout latency regression" }, want: result.Skip},
		{name: "old goal as current", mut: func(s *summary.Summary) { s.Goal = "Investigate the checkout latency regression" }, want: result.Fail, msg: "goal field"},
		{name: "old goal stated as current in prose", mut: func(s *summary.Summary) { s.Text = "We keep working on the latency investigation." }, want: result.Fail},
		{name: "old goal named as replaced", mut: func(s *summary.Summary) {
			s.Goal = "Fix the flaky refund test TestRefundIdempotency (instead of the latency investigation)"
		}, want: result.Pass},
		{name: "old goal on hold in prose", mut: func(s *summary.Summary) { s.Text = "The latency investigation is on hold." }, want: result.Pass},
		{name: "no goal", mut: func(s *summary.Summary) { s.Goal = "" }, want: result.Fail, msg: "goal field does not state"},
		{name: "no goal, stated elsewhere", mut: func(s *summary.Summary) { s.Goal, s.Text = "", "The goal is the flaky refund test." }, want: result.Fail, msg: "stated only at /text"},
		{name: "old goal as an order in prose", mut: func(s *summary.Summary) { s.Text = "Investigate the checkout latency regression." }, want: result.Uncertain},
		{name: "old goal in next_steps", mut: func(s *summary.Summary) {
			s.NextSteps = append(s.NextSteps, "investigate the checkout latency regression")
		}, want: result.Fail},
		{name: "hedged goal", mut: func(s *summary.Summary) { s.Goal = "Probably fix the flaky refund test" }, want: result.Uncertain},
		{name: "text-only restatement", mut: textOnly("The goal is now to fix the flaky refund test TestRefundIdempotency; the latency investigation was dropped at #4."), want: result.Pass},
		{name: "text-only, old goal", mut: textOnly("Goal: investigate the checkout latency regression."), want: result.Fail},
		{name: "text-only, topic only", mut: textOnly("TestRefundIdempotency fails 3 of 50 runs."), want: result.Fail},
		{name: "text-only, an order only", mut: textOnly("Fix the flaky refund test TestRefundIdempotency."), want: result.Fail},
		{name: "text-only, Spanish", mut: textOnly("El objetivo ahora es arreglar el test de reembolso inestable; la latencia queda aparcada."), want: result.Pass},
	})
}

func TestNextStepCheck(t *testing.T) {
	steps := func(ss ...string) func(s *summary.Summary) { return func(s *summary.Summary) { s.NextSteps = ss } }
	runState(t, result.TypeNextStep, "dry-run", []stateCase{
		{name: "typed record", want: result.Pass},
		{name: "skipped: apply first", mut: steps("terraform apply the migration"), want: result.Fail, msg: "skips ahead"},
		{name: "skipped: plan then apply", mut: steps("terraform plan, then terraform apply"), want: result.Fail},
		{name: "skipped: apply listed after the plan with no gate", mut: steps("terraform plan", "terraform apply"), want: result.Fail},
		{name: "faithful: apply listed after the gate", mut: steps("terraform plan", "wait for the CAB", "terraform apply"), want: result.Pass},
		{name: "skipped: dry-run dropped", mut: steps("skip the dry-run and run terraform apply"), want: result.Fail},
		{name: "skipped in prose", mut: func(s *summary.Summary) { s.Text = "Next: terraform apply, the CAB already approved CHG-4471." }, want: result.Fail},
		{name: "gate taken as passed", mut: func(s *summary.Summary) { s.Text = "Now that the CAB approved CHG-4471, run terraform apply." }, want: result.Fail},
		{name: "unreadable", mut: func(s *summary.Summary) { s.Text = "Maybe terraform apply tomorrow." }, want: result.Uncertain},
		{name: "no next step", mut: steps(), want: result.Fail, msg: "stated only at"},
		{name: "text-only restatement", mut: textOnly("Only a dry-run (terraform plan) is allowed next; terraform apply waits for CAB approval of CHG-4471."), want: result.Pass},
		{name: "text-only, later step next", mut: textOnly("Next step: terraform apply."), want: result.Fail},
		{name: "text-only, Spanish", mut: textOnly("Siguiente paso: solo un simulacro (terraform plan); aplicar tras la aprobación del CAB."), want: result.Pass},
	})
}

func TestHandoffCheck(t *testing.T) {
	runState(t, result.TypeHandoff, "handoff", []stateCase{
		{name: "typed record", want: result.Pass},
		{name: "before the restart", cut: 6, mut: validApproval, want: result.Skip},
		{name: "no record", mut: func(s *summary.Summary) { s.Handoff = nil }, want: result.Fail, msg: "no handoff record"},
		{name: "another session", mut: func(s *summary.Summary) { s.Handoff.PreviousSession = "sess-7f3b" }, want: result.Fail, msg: "previous_session"},
		{name: "no reason", mut: func(s *summary.Summary) { s.Handoff.Reason = "" }, want: result.Fail, msg: "why the work restarts"},
		{name: "hedged reason", mut: func(s *summary.Summary) { s.Handoff.Reason = "maybe the context limit" }, want: result.Uncertain},
		{name: "an unapproved artifact listed", mut: func(s *summary.Summary) {
			s.Handoff.ApprovedArtifacts = append(s.Handoff.ApprovedArtifacts, "payments-api@sha256:77c0de")
		}, want: result.Fail, msg: "no approval"},
		{name: "the approved artifact left out", mut: func(s *summary.Summary) { s.Handoff.ApprovedArtifacts = nil }, want: result.Fail, msg: "does not list"},
		{name: "the operation left out", mut: func(s *summary.Summary) { s.Handoff.Unresolved = nil }, want: result.Fail, msg: "f1"},
		{name: "the operation said done", mut: func(s *summary.Summary) { s.Text = "f1 completed successfully." }, want: result.Fail, msg: "finished"},
		{name: "text-only restatement", mut: textOnly("Handoff from session sess-7f3a: it reached its context limit, so the work restarts in a fresh session. " +
			"Approved for use: patches/refund-idempotency.patch. Unresolved: f1 (set_flag refund_v2) has no result."), want: result.Pass},
		{name: "text-only, operation missing", mut: textOnly("Handoff from session sess-7f3a: the context limit was reached. Approved: patches/refund-idempotency.patch."), want: result.Fail, msg: "f1"},
		{name: "text-only, session shifted", mut: textOnly("Handoff from session sess-7f3b: the context limit was reached. Approved: patches/refund-idempotency.patch. f1 has no result."), want: result.Fail, msg: "sess-7f3a"},
	})
}
