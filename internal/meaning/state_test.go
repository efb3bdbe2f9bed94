package meaning

import (
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// The rows of the typed state's classes: every alternative of a row is
// found, as its class, in the row's example.
func TestStateRows(t *testing.T) {
	classes := map[Class]bool{Approve: true, Invalid: true, Unapproved: true, Universal: true, GoalNoun: true, Shelved: true, Resume: true, Next: true, Skip: true}
	n := 0
	for _, e := range Entries() {
		if !classes[e.Class] {
			continue
		}
		alts, err := Expand(e.Phrase)
		if err != nil {
			t.Fatalf("line %d: %v", e.Line, err)
		}
		if !strings.Contains(e.Example, "{C}") {
			t.Errorf("line %d: the example %q has no {C}", e.Line, e.Example)
		}
		for _, a := range alts {
			n++
			text := New(textmatch.Fold(strings.ReplaceAll(e.Example, "{C}", a)))
			found := false
			for ci := range text.clauses {
				for _, h := range text.hitsOf(ci, e.Class) {
					found = found || text.words(h.T0, h.T1) == strings.Join(Words(a), " ") && h.Sense == e.Sense
				}
			}
			if !found {
				t.Errorf("line %d: %q is not found as %s in %q", e.Line, a, e.Class, text.String())
			}
		}
	}
	if n == 0 {
		t.Fatal("no rows of the typed state's classes")
	}
}

func res(patterns ...string) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, p := range patterns {
		re, err := textmatch.Compile(p)
		if err != nil {
			panic(err)
		}
		out = append(out, re)
	}
	return out
}

// stateVerdictOf joins the verdicts of a text's readings: "restates",
// "contradicts unclear", "" for none.
func stateVerdictOf[R any](rs []R, v func(R) Verdict) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, v(r).String())
	}
	return strings.Join(parts, " ")
}

func TestReadApproval(t *testing.T) {
	src := "Dana Whitfield (release manager): approved: roll the canary of payments-api sha256:3f9a11 to the eu-west-1 pool, until 18:00 UTC."
	s := StateSubject(Approval, res(`canar(y|io)`), textmatch.Fold(src), []string{"Dana Whitfield", "eu-west-1", "sha256:3f9a11"},
		Kin("sha256:3f9a11", "rebuilt: payments-api@sha256:77c0de")...)
	for _, tc := range []struct {
		text  string
		stale bool
		want  string
	}{
		{"Dana approved the canary of sha256:3f9a11 for eu-west-1.", false, "restates"},
		{"The canary to eu-west-1 is approved by Dana until 18:00 UTC.", false, "restates"},
		{"Canary: approved for eu-west-1 only.", false, "restates"},
		{"El canario de eu-west-1 está aprobado por Dana.", false, "restates"},
		{"El canario de eu-west-2 no. Aprobado por Dana el canario de eu-west-1.", false, "restates"},
		{"The canary is approved for all regions.", false, "contradicts"},
		{"Dana approved the canary for eu-west-2 as well.", false, "contradicts"},
		{"The canary is not approved.", false, "contradicts"},
		{"The canary still needs approval.", false, "contradicts"},
		{"The canary approval probably covers eu-west-1.", false, "unclear"},
		{"If the error rate holds, the canary is approved.", false, "unclear"},
		{"Approved for eu-west-1; eu-west-2 still needs approval.", false, "restates"},
		{"The canary in eu-west-1 shows 0.4% errors.", false, ""},
		// stale
		{"The approval for the canary of sha256:3f9a11 is stale: the image was rebuilt.", true, "restates"},
		{"Dana's canary approval no longer covers the new build; it needs re-approval.", true, "restates restates"},
		{"La aprobación del canario está caducada.", true, "restates"},
		{"The canary is approved for eu-west-1.", true, "contradicts"},
		{"The canary approval still holds.", true, "contradicts"},
		{"The canary approval carries over to sha256:77c0de.", true, "contradicts"},
		{"Dana approved the canary of sha256:3f9a11 at #14.", true, "unclear"},
		{"The canary is approved until 18:00 UTC.", true, "unclear"},
		{"The canary approval is not expired.", true, "contradicts"},
		{"Ask Dana to approve the canary of sha256:77c0de.", true, "restates"},
		{"Ask Dana to approve the canary again.", false, "contradicts"},
	} {
		rs := New(textmatch.Fold(tc.text)).ReadApproval(s, tc.stale)
		if got := stateVerdictOf(rs, func(r ApprovalReading) Verdict { return r.Verdict }); got != tc.want {
			t.Errorf("%q (stale %v): %q; want %q", tc.text, tc.stale, got, tc.want)
			for _, r := range rs {
				t.Logf("  %s: %s", r.Verdict, r.Why)
			}
		}
	}
}

func TestReadGoal(t *testing.T) {
	src := "Change of plan: stop the latency investigation. The goal now is to fix the flaky refund test TestRefundIdempotency."
	now := StateSubject(Goal, res(`flaky refund test|TestRefundIdempotency|test de reembolso`), textmatch.Fold(src), nil)
	old := StateSubject(Goal, res(`latency investigation|investigat\w* (the )?(checkout )?latency|latencia`), textmatch.Fold(src), nil)
	for _, tc := range []struct {
		text    string
		field   bool
		wantNow string
		wantOld string
	}{
		{"Fix the flaky refund test TestRefundIdempotency", true, "restates", ""},
		{"Goal: fix the flaky refund test (replaces the latency investigation).", false, "restates", "restates"},
		{"The task was switched to fixing the flaky refund test; the latency investigation is on hold.", false, "restates", "restates"},
		{"El objetivo ahora es arreglar el test de reembolso inestable, en vez de la latencia.", false, "restates", "restates"},
		{"Goal: continue the latency investigation of checkout.", false, "", "contradicts"},
		{"Investigate the checkout latency", true, "", "contradicts"},
		{"We are back to the latency investigation.", false, "", "contradicts"},
		{"The flaky refund test is on hold; keep working on the latency investigation.", false, "contradicts", "contradicts"},
		{"The goal might be the flaky refund test.", false, "unclear", ""},
		{"The flaky refund test fails 3 of 50 runs.", false, "", ""},
	} {
		tx := New(textmatch.Fold(tc.text))
		v := func(r Reading) Verdict { return r.Verdict }
		if got := stateVerdictOf(tx.ReadGoal(now, Now, tc.field), v); got != tc.wantNow {
			t.Errorf("%q: current goal %q; want %q", tc.text, got, tc.wantNow)
		}
		if got := stateVerdictOf(tx.ReadGoal(old, Replaced, tc.field), v); got != tc.wantOld {
			t.Errorf("%q: replaced goal %q; want %q", tc.text, got, tc.wantOld)
		}
	}
}

func TestReadStep(t *testing.T) {
	src := "Until the CAB approves CHG-4471, the only allowed step is a dry-run: terraform plan. No terraform apply before that."
	w := &Workflow{
		Allowed: StateSubject(Step, res(`dry[- ]?run|terraform plan|simulacro`), textmatch.Fold(src), nil),
		Later:   StateSubject(Step, res(`terraform apply|\bapply\b|aplicar`), "", nil),
		Gate:    StateSubject(Step, res(`\bCAB\b|CHG-4471|change (advisory )?board`), "", nil),
	}
	for _, tc := range []struct {
		text        string
		list, gated bool
		want        string
	}{
		{"terraform plan for the migration", true, false, "restates"},
		{"Next: a dry-run (terraform plan) only; apply waits for CAB approval.", false, false, "restates restates"},
		{"Do not run terraform apply before CAB approval of CHG-4471.", false, false, "restates"},
		{"terraform apply after CAB approves CHG-4471", true, false, "restates"},
		{"terraform apply", true, true, "restates"},
		{"Solo un simulacro (terraform plan); aplicar tras la aprobación del CAB.", false, false, "restates restates"},
		{"terraform apply", true, false, "contradicts"},
		{"Next: terraform apply the migration.", false, false, "contradicts"},
		{"Run terraform plan, then terraform apply.", false, false, "contradicts"},
		{"We may run terraform apply now.", false, false, "contradicts"},
		{"Skip the dry-run and go straight to terraform apply.", false, false, "contradicts"},
		{"Now that the CAB approved CHG-4471, run terraform apply.", false, false, "contradicts"},
		{"terraform apply without CAB approval", true, false, "contradicts"},
		{"terraform apply was run at 14:02.", false, false, "contradicts"},
		{"Maybe terraform apply tomorrow.", false, false, "unclear"},
		{"terraform apply queda para después de ese visto bueno", false, false, "restates"},
		{"Then terraform apply, after that sign-off.", false, false, "restates"},
		{"Then terraform apply, no sign-off needed.", false, false, "contradicts"},
		{"terraform apply without approval", true, false, "contradicts"},
		{"terraform apply needs approval first", true, false, "restates"},
		{"Aplicar terraform apply sin aprobación.", false, false, "contradicts"},
		{"The dry-run was done.", false, false, "unclear"},
	} {
		rs, _ := New(textmatch.Fold(tc.text)).ReadStep(w, tc.list, tc.gated)
		if got := stateVerdictOf(rs, func(r StepReading) Verdict { return r.Verdict }); got != tc.want {
			t.Errorf("%q (list %v, gated %v): %q; want %q", tc.text, tc.list, tc.gated, got, tc.want)
			for _, r := range rs {
				t.Logf("  %s: %s", r.Verdict, r.Why)
			}
		}
	}
}
