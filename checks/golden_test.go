package checks

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// TestRunGolden locks the full output of Run (statuses, messages, evidence,
// metrics) on the fixture for the gold summary and for a summary with one
// defect per check. Rewrite with -update after a deliberate change.
func TestRunGolden(t *testing.T) {
	broken := goldSummary()
	broken.Constraints = broken.Constraints[1:]                                                     // constraint
	broken.Hypotheses[0].Status = "open"                                                            // refuted_hypothesis
	broken.Artifacts[0].Path = "config/db.yml"                                                      // artifact, paths
	broken.Pending[1].Status = "done"                                                               // pending_operation, unresolved
	broken.Verified = append(broken.Verified, summary.Claim{Claim: "port 5432 open", SourceSeq: 8}) // correction, evidence
	broken.Text = "Timeouts are 30 ms. Key " + testSecret[:10]                                      // quantity, secret
	tests := []struct {
		name string
		sum  *summary.Summary
	}{
		{"gold", goldSummary()},
		{"broken", broken},
		{"text-only", &summary.Summary{SchemaVersion: 1, CoversThrough: 12, Text: "Read-only session. DNS works: db resolves. Port 6432 (was 5432). Timeouts are 30 s; context under 50k tokens. c4 outcome unknown. Read config/db.yaml (sha256:abc123)."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := testScenario()
			results := Run(&Input{Scenario: sc, Gen: genAt(sc, 12, true), Raw: mustJSON(t, tc.sum)})
			got, err := json.MarshalIndent(results, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "run-"+tc.name+".golden.json")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("Run output differs from %s (-want +got):\n%s", path, diff)
			}
		})
	}
}

// Run is safe for concurrent use on one scenario (run with -race).
func TestRunConcurrent(t *testing.T) {
	sc := testScenario()
	raw := mustJSON(t, goldSummary())
	want := Run(&Input{Scenario: sc, Gen: genAt(sc, 12, true), Raw: raw})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := Run(&Input{Scenario: sc, Gen: genAt(sc, 12, true), Raw: raw})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("concurrent Run differs (-want +got):\n%s", diff)
			}
		}()
	}
	wg.Wait()
}
