package checks

import (
	"bytes"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"
)

// Bad summaries never panic: the schema check says why and every other
// check says error (or skip when there is nothing at all).
func TestBadInput(t *testing.T) {
	huge := append([]byte(`{"schema_version": 1, "covers_through": 12, "text": "`), bytes.Repeat([]byte("x"), 100<<20)...)
	huge = append(huge, `"}`...)
	tests := []struct {
		name       string
		raw        []byte
		wantSchema result.Status
		schemaMsg  string
		wantOthers result.Status
	}{
		{"not JSON", []byte("The summary: db is down."), result.Error, "not a readable JSON document", result.Error},
		{"wrong shape", []byte(`["schema_version", 1]`), result.Fail, "the document is an array; want an object", result.Error},
		{"100 MB", huge, result.Error, "the limit is 8388608", result.Error},
		{"10000-deep nesting", []byte(strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)), result.Error, "nests deeper than 64", result.Error},
		{"covers_through as a string", []byte(`{"schema_version": 1, "covers_through": "12", "text": "read-only"}`), result.Fail, "covers_through is a string; want an integer", result.Error},
		{"null", []byte(`null`), result.Fail, "the document is null; want an object", result.Error},
		{"empty: the none arm", nil, result.Skip, msgNoSummary, result.Skip},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := testScenario()
			results := Run(&Input{Scenario: sc, Gen: genAt(sc, 12, false), Raw: tc.raw})
			if len(results) != len(result.StructuralChecks)+len(sc.Invariants) {
				t.Fatalf("%d results; want %d", len(results), 9+len(sc.Invariants))
			}
			for _, r := range results {
				want := tc.wantOthers
				if r.Check == result.CheckSchema {
					want = tc.wantSchema
					if !strings.Contains(r.Message, tc.schemaMsg) {
						t.Errorf("schema message %q; want it to contain %q", r.Message, tc.schemaMsg)
					}
				}
				if r.Status != want {
					t.Errorf("%s/%s: %s (%s); want %s", r.Check, r.Invariant, r.Status, r.Message, want)
				}
				if r.Message == "" {
					t.Errorf("%s/%s: empty message", r.Check, r.Invariant)
				}
			}
		})
	}
}

func FuzzSummary(f *testing.F) {
	f.Add(mustJSON(f, goldSummary()))
	f.Add([]byte(`{"schema_version": 1, "covers_through": 12, "text": "read-only, port 6432 (was 5432), 30 s, 50k tokens"}`))
	f.Add([]byte(`{"schema_version": 1, "covers_through": "12"}`))
	f.Add([]byte(`{"schema_version":1,"covers_through":12,"hypotheses":[{"claim":"DNS is broken","status":"open"}],"artifacts":[{"path":"./a/b"}]}`))
	f.Add([]byte(`[[[[`))
	sc := testScenario()
	g := genAt(sc, 12, true)
	g.ReplacedTokens = 1000 // keep the fuzz loop on the summary, not the transcript
	f.Fuzz(func(t *testing.T, raw []byte) {
		results := Run(&Input{Scenario: sc, Gen: g, Raw: raw})
		if len(results) != len(result.StructuralChecks)+len(sc.Invariants) {
			t.Fatalf("%d results", len(results))
		}
		for _, r := range results {
			switch r.Status {
			case result.Pass, result.Fail, result.Error, result.Skip, result.Uncertain:
			default:
				t.Fatalf("%s: status %q", r.Check, r.Status)
			}
			if r.Message == "" {
				t.Fatalf("%s/%s: empty message", r.Check, r.Invariant)
			}
			if strings.Contains(r.Message, testSecret[:8]) {
				t.Fatalf("%s/%s leaks the secret: %s", r.Check, r.Invariant, r.Message)
			}
		}
	})
}
