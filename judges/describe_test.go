package judges_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/scenarios"
)

func builtin(t *testing.T, id string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.LoadBuiltin("builtin/" + id + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func invariant(t *testing.T, s *scenarios.Scenario, id string) scenarios.Invariant {
	t.Helper()
	for _, inv := range s.Invariants {
		if inv.InvariantID() == id {
			return inv
		}
	}
	t.Fatalf("%s has no invariant %q", s.ID, id)
	return nil
}

// TestDescribe checks that each invariant type is put in plain words with
// what the issue asks for (the rule with its source event's text, the
// corrected value and the old one, the refuted idea and its refutation, the
// op id and its last known state, the path and its digest), quotes the
// right events, and never carries the check's patterns.
func TestDescribe(t *testing.T) {
	tests := []struct {
		scenario, invariant string
		seqs                []int    // events quoted
		has                 []string // in the statement or the quoted events
	}{
		{"readonly-netpol-freeze", "readonly-freeze", []int{1}, []string{"At event #1 the user set a rule", "READ-ONLY", "constraints"}},
		{"refuted-cdn-latency", "cdn-refuted", []int{14, 31}, []string{"At event #14 an explanation", "at event #31", "refuted", "resolved_by 31"}},
		{"correction-values-file-path", "values-file", []int{7}, []string{"production values file",
			`"charts/notification-service/values-production.yaml", no longer "charts/notification-service/values-prod.yaml"`, "supersedes"}},
		{"unresolved-migration-no-result", "prod-migration", []int{8}, []string{`call id "call_migrate_0193"`, "No result ever came back", "pending"}},
		{"unresolved-canary-timeout", "canary-rollout", []int{2, 3}, []string{`call id "deploy_cgw_214"`, "At event #3 it timed out", "deadline exceeded", "other than \"done\""}},
		{"similar-names-release-digest", "release-archives", nil, []string{"easy to confuse", "dist/relay-v1.9.0-linux-arm64.tar.gz.sig",
			`The digest of "dist/relay-v1.9.0-linux-amd64.tar.gz" is "sha256:dce8528d4b13342401d33222cfce991b3f82e88c0d11906e96c1273202a09d77"`}},
		{"quantities-llm-gateway-limits", "context-cap", nil, []string{"the quantity 128000 tokens"}},
	}
	for _, tc := range tests {
		t.Run(tc.scenario+"/"+tc.invariant, func(t *testing.T) {
			s := builtin(t, tc.scenario)
			inv := invariant(t, s, tc.invariant)
			f, ok := judges.Describe(s, inv)
			if !ok {
				t.Fatal("not described")
			}
			if f.ID != tc.invariant || f.Type != inv.Type() {
				t.Errorf("id, type = %q, %q", f.ID, f.Type)
			}
			b, _ := json.Marshal(f)
			all := string(b)
			for _, want := range tc.has {
				if !strings.Contains(f.Statement, want) && !strings.Contains(all, jsonText(want)) {
					t.Errorf("%q is missing from %s", want, all)
				}
			}
			var seqs []int
			for _, e := range f.Events {
				seqs = append(seqs, e.Seq)
				ev, _ := s.EventBySeq(e.Seq)
				if ev.Filler {
					t.Errorf("quotes filler event #%d", e.Seq)
				}
				if e.Text == "" {
					t.Errorf("event #%d quoted without text", e.Seq)
				}
			}
			if tc.seqs != nil && !equalInts(seqs, tc.seqs) {
				t.Errorf("quoted events %v, want %v", seqs, tc.seqs)
			}
			if len(f.Events) == 0 {
				t.Error("no event quoted")
			}
			// Patterns that are plain words may be quoted with their
			// event; none may be in the statement.
			for _, p := range patterns(inv) {
				if strings.Contains(f.Statement, p) {
					t.Errorf("the check's pattern %q is in the statement", p)
				}
			}
		})
	}
}

func TestDescribeNeverJudgesSecrets(t *testing.T) {
	s := builtin(t, "secret-in-tool-output")
	if f, ok := judges.Describe(s, invariant(t, s, "stripe-key")); ok {
		t.Errorf("a secret is described for a judge: %+v", f)
	}
}

// TestDescribeEveryBuiltin describes every invariant of the built-in suite
// that is not a secret and requires a statement and a quoted event for
// each.
func TestDescribeEveryBuiltin(t *testing.T) {
	list, err := scenarios.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range list {
		secrets := s.Secrets()
		for _, inv := range s.Invariants {
			f, ok := judges.Describe(s, inv)
			if inv.Type() == result.TypeSecret {
				if ok {
					t.Errorf("%s/%s: a secret is described", s.ID, inv.InvariantID())
				}
				continue
			}
			n++
			if !ok || f.Statement == "" || len(f.Events) == 0 {
				t.Errorf("%s/%s: no statement or no event: %+v", s.ID, inv.InvariantID(), f)
				continue
			}
			req := judges.NewInvariantRequest(s.ID, 1, f, nil)
			judges.Redact(checks.SecretRedactor(s), req)
			b, _ := json.Marshal(req)
			for id, v := range secrets {
				if strings.Contains(string(b), v[:8]) {
					t.Errorf("%s/%s: secret %s reaches the judge", s.ID, inv.InvariantID(), id)
				}
			}
		}
	}
	if n < 30 {
		t.Errorf("only %d invariants described", n)
	}
}

func patterns(inv scenarios.Invariant) []string {
	switch v := scenarios.Pointer(inv).(type) {
	case *scenarios.Constraint:
		return v.Match
	case *scenarios.RefutedHypothesis:
		return append(append([]string(nil), v.Match...), v.Conclusion...)
	case *scenarios.Quantity:
		return v.Match
	}
	return nil
}

func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
