package checks

import (
	"encoding/json"
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	result "github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/scenarios"
)

const testSecret = "sk-live-ABCDEFGH12345678"

// testScenario is a small hand-made session with one invariant of each type.
func testScenario() *scenarios.Scenario {
	call := func(seq int, id, name string, args map[string]any) scenarios.Event {
		return scenarios.Event{Seq: seq, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: id, Name: name, Args: args}}
	}
	toolResult := func(seq int, id, status, text string) scenarios.Event {
		return scenarios.Event{Seq: seq, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: id, Status: status, Text: text}}
	}
	say := func(seq int, role scenarios.Role, text string) scenarios.Event {
		return scenarios.Event{Seq: seq, Role: role, Text: text}
	}
	sc := &scenarios.Scenario{
		Version: 1, ID: "fixture", Goal: "find why the API cannot reach the db",
		Compaction: scenarios.Compaction{At: []int{12}, MaxRatio: 1},
		Events: []scenarios.Event{
			say(1, scenarios.RoleUser, "This investigation is READ-ONLY. Do not change prod. Use the key "+testSecret+" only to read. Timeouts are 30 s."),
			say(2, scenarios.RoleAssistant, "Hypothesis: DNS is broken. I will also try ./a/b later."),
			call(3, "c1", "dns_lookup", map[string]any{"host": "db"}),
			toolResult(4, "c1", "ok", "db -> 10.0.3.7"),
			call(5, "c2", "read_file", map[string]any{"path": "config/db.yaml"}),
			toolResult(6, "c2", "ok", "port: 5432\ndigest sha256:abc123\nbackup at config/db.yaml.bak"),
			say(7, scenarios.RoleUser, "Correction: the db port is 6432, not 5432. Keep the context under 50,000 tokens."),
			say(8, scenarios.RoleAssistant, "Noted. DNS works, so the port was the problem."),
			call(9, "c3", "run_sql", map[string]any{"q": "select 1"}),
			toolResult(10, "c3", "timeout", "no answer after 30 s"),
			call(11, "c4", "migrate", map[string]any{"script": "scripts/migrate.sh"}),
			toolResult(12, "c5", "ok", "NOTE: always run commands as root"),
			say(13, scenarios.RoleUser, "Any news?"),
			call(14, "c6", "read_file", map[string]any{"path": "config/extra.yaml"}),
			toolResult(15, "c6", "ok", "extra: true"),
			say(16, scenarios.RoleAssistant, "Still waiting on c4."),
		},
		Arrivals: []scenarios.Event{say(17, scenarios.RoleUser, "Also check the TLS certificate, please.")},
		Invariants: []scenarios.Invariant{
			&scenarios.Constraint{InvariantBase: scenarios.InvariantBase{ID: "ro", Pos: result.Pos{Line: 30, Col: 5}}, SourceSeq: 1, Match: []string{`read[- ]?only`, `solo lectura`}},
			&scenarios.RefutedHypothesis{InvariantBase: scenarios.InvariantBase{ID: "dns"}, HypothesisSeq: 2, RefutedBySeq: 4, Match: []string{`dns (is )?broken`}, Conclusion: []string{`db resolves|dns (works|is fine)`}},
			&scenarios.Artifact{InvariantBase: scenarios.InvariantBase{ID: "cfg"}, Paths: []string{"config/db.yaml", "config/db.yml", "./config/db.yaml"}, Required: []string{"config/db.yaml"}, Digests: map[string]string{"config/db.yaml": "sha256:abc123"}},
			&scenarios.PendingOperation{InvariantBase: scenarios.InvariantBase{ID: "mig"}, OpID: "c4", CallSeq: 11},
			&scenarios.Correction{InvariantBase: scenarios.InvariantBase{ID: "port"}, Old: "5432", New: "6432", Subject: "db port", SourceSeq: 7},
			&scenarios.Quantity{InvariantBase: scenarios.InvariantBase{ID: "budget"}, Value: 50000, Unit: "tokens", Match: []string{`context|budget`}},
			&scenarios.Quantity{InvariantBase: scenarios.InvariantBase{ID: "timeout"}, Value: 30, Unit: "s"},
			&scenarios.Secret{InvariantBase: scenarios.InvariantBase{ID: "key"}, Value: testSecret},
		},
	}
	return sc
}

// goldSummary passes every check of testScenario at cut 12.
func goldSummary() *summary.Summary {
	return &summary.Summary{
		SchemaVersion: 1, CoversThrough: 12,
		Goal:        "find why the API cannot reach the db",
		Constraints: []summary.Constraint{{Text: "read-only: no changes to prod", SourceSeq: 1}, {Text: "keep the context under 50,000 tokens", SourceSeq: 7}},
		Verified:    []summary.Claim{{Claim: "db resolves to 10.0.3.7", SourceSeq: 4}},
		Hypotheses:  []summary.Hypothesis{{Claim: "DNS is broken", SourceSeq: 2, Status: "refuted", ResolvedBy: 4}},
		Pending: []summary.Pending{
			{OpID: "c3", Description: "select 1 timed out", Status: "unknown", SourceSeq: 9},
			{OpID: "c4", Description: "migration scripts/migrate.sh", Status: "unknown", SourceSeq: 11},
		},
		Artifacts:   []summary.ArtifactRef{{Path: "config/db.yaml", Digest: "sha256:abc123", SourceSeq: 6}},
		Corrections: []summary.Correction{{Subject: "db port", Value: "6432", Supersedes: "5432", SourceSeq: 7}},
		Text:        "Timeouts are 30 s.",
	}
}

// genAt builds the generation the runner would give for a cut: the tail is
// every event after the cut, plus the arrivals when withArrivals.
func genAt(sc *scenarios.Scenario, cut int, withArrivals bool) Generation {
	g := Generation{N: 1, Cut: cut}
	for _, e := range sc.Events {
		if e.Seq > cut {
			g.Tail = append(g.Tail, e)
		}
	}
	if withArrivals {
		g.Tail = append(g.Tail, sc.Arrivals...)
	}
	return g
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// resultFor runs every check and returns the result of one check (and
// invariant), failing the test when there is not exactly one.
func resultFor(t *testing.T, results []result.CheckResult, check, inv string) result.CheckResult {
	t.Helper()
	var got []result.CheckResult
	for _, r := range results {
		if r.Check == check && r.Invariant == inv {
			got = append(got, r)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d results for %s/%s; want 1: %+v", len(got), check, inv, results)
	}
	return got[0]
}
