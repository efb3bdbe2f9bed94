package selftest

import (
	"context"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// checkOn runs the check of sc's invariant id on the structured form of d.
func checkOn(t *testing.T, sc *scenarios.Scenario, id string, d doc) result.CheckResult {
	t.Helper()
	for _, inv := range sc.Invariants {
		if inv.InvariantID() != id {
			continue
		}
		in := &checks.Input{Scenario: sc, Gen: checks.Generation{Cut: d.cut}, Summary: d.summary(Structured)}
		res := checks.ForInvariant(inv).Check(in)
		if len(res) != 1 {
			t.Fatalf("%s: %d results", id, len(res))
		}
		return res[0]
	}
	t.Fatalf("no invariant %s", id)
	return result.CheckResult{}
}

// plantedFor returns the variants of sc's last generation for a target and
// class.
func plantedFor(t *testing.T, sc *scenarios.Scenario, cut int, id string, c Class) []planted {
	t.Helper()
	ev := eventsOf(sc)
	d, problems := buildDoc(sc, ev, cut)
	if len(problems) > 0 {
		t.Fatalf("oracle problems: %+v", problems)
	}
	all, _, _ := plantAll(sc, ev, d)
	var out []planted
	for _, p := range all {
		if p.target.ID == id && p.class == c {
			out = append(out, p)
		}
	}
	return out
}

// TestPlantedDefectsAreReal: a planted variant is a loss or a lie, never a
// faithful paraphrase. Where a class could be planted in a faithful form,
// the test shows that form passes the check (so planting it would count a
// correct summary as a survivor) and that the planted one says something
// false or loses something.
func TestPlantedDefectsAreReal(t *testing.T) {
	sc := load(t, `
compaction: {at: [6]}
events:
  - {role: user, text: "This run is read-only. Backfill at 200 rows/s."}
  - {role: user, text: "Correction: the backfill rate is 50 rows/s, not 200 rows/s."}
  - {role: user, text: "I think the replica lag comes from the network."}
  - {role: assistant, tool_call: {id: x, name: probe, args: {host: db}}}
  - {role: tool, tool_result: {call_id: x, text: "network rtt 0.4 ms; replica lag is caused by the vacuum on orders"}}
  - {role: assistant, text: "Next step: tune the vacuum on orders."}
  - {role: user, text: "Go."}
invariants:
  - {id: ro, type: constraint, source_seq: 1, match: ['read-only']}
  - {id: rate, type: correction, old: 200 rows/s, new: 50 rows/s, subject: backfill rate, source_seq: 2}
  - id: net
    type: refuted_hypothesis
    hypothesis_seq: 3
    refuted_by_seq: 5
    match: ['lag comes from the network']
    conclusion: ['vacuum on orders']
probes:
  - id: lag
    question: What do you tune?
    options: {vacuum: The vacuum, net: The network}
    expect: vacuum
    requires: {vacuum: ['tune the vacuum']}
`)
	t.Run("correction in text: the variant loses which value is current", func(t *testing.T) {
		vs := plantedFor(t, sc, 6, "rate", MoveToText)
		if len(vs) != 1 {
			t.Fatalf("%d move-to-text variants of the correction, want 1", len(vs))
		}
		v := vs[0]
		text := strings.Join(v.d.text, " ")
		if strings.Contains(text, "now") || strings.Contains(text, "instead of") || strings.Contains(text, "replaces") {
			t.Errorf("the variant still says which value is current: %q", text)
		}
		if r := checkOn(t, sc, "rate", v.d); r.Status != result.Fail {
			t.Errorf("correction check on %q = %s (%s); want fail", text, r.Status, r.Message)
		}
		// The faithful way to state it in text is not a defect: the check
		// passes it, so selftest must not plant it.
		faithful := without(v.d, nil)
		faithful.text = []string{"The backfill rate is now 50 rows/s instead of 200 rows/s (#2)."}
		if r := checkOn(t, sc, "rate", faithful); r.Status != result.Pass {
			t.Errorf("correction check on the faithful text = %s (%s); want pass", r.Status, r.Message)
		}
		if strings.Contains(text, faithful.text[0]) {
			t.Errorf("the faithful statement was planted as a defect")
		}
	})
	t.Run("refuted hypothesis left out: every statement of its conclusion goes", func(t *testing.T) {
		d, _ := buildDoc(sc, eventsOf(sc), 6)
		stating := 0
		for _, f := range d.facts {
			if (f.field == fVerified || f.field == fDecision) && matchesAny([]string{"vacuum on orders"})(textmatch.Fold(f.leafText())) {
				stating++
			}
		}
		if stating < 2 {
			t.Fatalf("the oracle states the conclusion %d times; the test needs a second statement quoted for the probe", stating)
		}
		vs := plantedFor(t, sc, 6, "net", Omit)
		if len(vs) != 1 {
			t.Fatalf("%d omit variants, want 1", len(vs))
		}
		for _, f := range vs[0].d.facts {
			if matchesAny([]string{"vacuum on orders"})(textmatch.Fold(f.leafText())) {
				t.Errorf("the omit variant still states the conclusion: %s", describe(f))
			}
		}
		if r := checkOn(t, sc, "net", vs[0].d); r.Status != result.Fail {
			t.Errorf("refuted_hypothesis check = %s (%s); want fail", r.Status, r.Message)
		}
	})
	t.Run("every variant of the rule says something false or loses it", func(t *testing.T) {
		for _, c := range []Class{Omit, Invert, MoveToText, MoveToSupersedes, MoveToExtensions} {
			for _, v := range plantedFor(t, sc, 6, "ro", c) {
				for _, f := range v.d.facts {
					if f.field == fConstraint && f.text == "This run is read-only" {
						t.Errorf("%s: the rule is still a constraint, as the session said it", c)
					}
				}
			}
		}
	})
}

// TestProbeEvidenceAcrossEvents: a probe whose pattern spans a call and its
// timed-out result matches no single event, but the oracle carries it (the
// pending entry), so a summary can lose it: its variants are planted, not
// skipped as resting on the tail.
func TestProbeEvidenceAcrossEvents(t *testing.T) {
	sc := load(t, `
compaction: {at: [3]}
events:
  - {role: user, text: "Roll out the canary."}
  - {role: assistant, tool_call: {id: deploy_7, name: deploy, args: {version: "2.14"}}}
  - {role: tool, tool_result: {call_id: deploy_7, status: timeout, text: "deadline exceeded"}}
  - {role: user, text: "Post that the canary is live."}
invariants:
  - {id: rollout, type: pending_operation, op_id: deploy_7, call_seq: 2}
probes:
  - id: announce
    question: Do you post that the canary is live?
    options: {post: Post it, verify: Verify the rollout first}
    expect: verify
    requires: {verify: ['deploy_7.{0,300}(timeout|timed out|unknown)']}
`)
	ev := eventsOf(sc)
	if i := ev.firstMatch(`deploy_7.{0,300}(timeout|timed out|unknown)`); i >= 0 {
		t.Fatalf("event #%d matches alone; the test needs a pattern only the call and its result state together", ev.list[i].Seq)
	}
	for _, c := range []Class{Omit, MoveToExtensions} {
		if vs := plantedFor(t, sc, 3, "announce", c); len(vs) != 1 {
			t.Errorf("%s variants of probe announce: %d, want 1", c, len(vs))
		}
	}
	r := runOne(t, sc, Options{})
	for _, v := range r.Variants {
		if v.Target.ID == "announce" && v.Outcome != Caught {
			t.Errorf("%s: %s (%s)", v.ID(), v.Outcome, v.Why)
		}
	}
}

// TestDigestProbeReadsTheBinding: the built-in probe eu-west-digest chooses
// the arm64 digest on summaries that bind it to the arm64 archive, in the
// oracle's words and in others, and not on a listing that names both
// archives and both digests without saying which is which.
func TestDigestProbeReadsTheBinding(t *testing.T) {
	sc := builtin(t, "similar-names-release-digest")
	var probe scenarios.Probe
	for _, p := range sc.Probes {
		if p.ID == "eu-west-digest" {
			probe = p
		}
	}
	const (
		arm = "dist/relay-v1.9.0-linux-arm64.tar.gz"
		amd = "dist/relay-v1.9.0-linux-amd64.tar.gz"
		a   = "sha256:e167667ba9d67ee343a685be6c46e4a6ac002a436badb4c3608f853384dd7861"
		d   = "sha256:dce8528d4b13342401d33222cfce991b3f82e88c0d11906e96c1273202a09d77"
	)
	fleets := "eu-west is all Graviton, so it takes the arm64 archive. "
	for _, tc := range []struct {
		name, text string
		want       string
	}{
		{"the text-form oracle", fleets + "File " + arm + " is current, has digest " + a + " (#5). File " + amd + " is current, has digest " + d + " (#5).", "arm64-digest"},
		{"sha256sum output", fleets + "e167667ba9d67ee343a685be6c46e4a6ac002a436badb4c3608f853384dd7861  relay-v1.9.0-linux-arm64.tar.gz", "arm64-digest"},
		{"path: digest", fleets + arm + ": " + a + "; " + amd + ": " + d + ".", "arm64-digest"},
		{"both listed, no binding", fleets + "Built " + arm + " and the amd64 one: " + a + ", " + d + ".", ""},
		{"digests swapped", fleets + arm + ": " + d + "; " + amd + ": " + a + ".", "amd64-digest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			summary := marshal(map[string]any{"schema_version": 1, "covers_through": 53, "text": tc.text})
			c := agents.Context{Rules: sc.Rules, Goal: sc.Goal, Summary: summary}
			dec, err := agents.Reference{}.Decide(context.Background(), agents.ProbeRequest(sc, probe, "compacted", c))
			got := ""
			if err == nil {
				got = dec.Choice
			}
			if got != tc.want && !(tc.want == "" && got == "rehash") {
				t.Errorf("chose %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}
