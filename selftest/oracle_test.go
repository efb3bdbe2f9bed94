package selftest

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/scenarios"
)

// load parses a scenario written in a test.
func load(t *testing.T, yaml string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.LoadBytes("test.yaml", []byte("version: 1\nid: t\ngoal: Find the cause\n"+yaml))
	if err != nil {
		t.Fatal(err)
	}
	if errs := scenarios.LintScenario(sc); len(errs) > 0 {
		t.Fatal(errs)
	}
	return sc
}

// TestOracle builds the oracle of one scenario per invariant type and
// compares both forms with what a perfect summary says. Every oracle must
// also pass every check (compression aside: a session of four lines cannot
// be compressed; TestBuiltinSuite covers it).
func TestOracle(t *testing.T) {
	for _, tc := range []struct {
		name string
		yaml string
		cut  int
		want summary.Summary // the structured form, goal and coverage aside
		text string          // the text-only form
	}{
		{
			name: "constraint: the sentence of its source event that states it",
			yaml: `
compaction: {at: [2]}
events:
  - {role: user, text: "Hi. This run is READ-ONLY: do not change prod. Thanks."}
  - {role: assistant, text: "Understood."}
  - {role: user, text: "Go on."}
invariants:
  - {id: ro, type: constraint, source_seq: 1, match: ['read[- ]?only']}
`,
			cut:  2,
			want: summary.Summary{Constraints: []summary.Constraint{{Text: "This run is READ-ONLY: do not change prod", SourceSeq: 1}}},
			text: "Rule (#1): This run is READ-ONLY: do not change prod.",
		},
		{
			name: "constraint not yet given at the cut: nothing",
			yaml: `
compaction: {at: [2]}
events:
  - {role: user, text: "Start."}
  - {role: assistant, text: "Starting."}
  - {role: user, text: "From now on this is read-only."}
invariants:
  - {id: ro, type: constraint, source_seq: 3, match: ['read[- ]?only']}
`,
			cut:  2,
			want: summary.Summary{},
			text: "",
		},
		{
			name: "refuted hypothesis: status refuted, resolved_by and the conclusion from the refuting event",
			yaml: `
compaction: {at: [4]}
events:
  - {role: user, text: "I bet the CDN adds the latency."}
  - {role: assistant, tool_call: {id: c1, name: curl, args: {url: "https://shop.example"}}}
  - {role: tool, tool_result: {call_id: c1, text: "server-timing: db;dur=1650, render;dur=31"}}
  - {role: assistant, text: "The time is in the database."}
  - {role: user, text: "Ok."}
invariants:
  - {id: cdn, type: refuted_hypothesis, hypothesis_seq: 1, refuted_by_seq: 3, match: ['cdn adds (the )?latency'], conclusion: ['db;dur=1650']}
`,
			cut: 4,
			want: summary.Summary{
				Verified:   []summary.Claim{{Claim: "server-timing: db;dur=1650, render;dur=31", SourceSeq: 3}},
				Hypotheses: []summary.Hypothesis{{Claim: "I bet the CDN adds the latency", SourceSeq: 1, Status: "refuted", ResolvedBy: 3}},
			},
			text: "server-timing: db;dur=1650, render;dur=31 (#3). Ruled out by #3, refuted: I bet the CDN adds the latency.",
		},
		{
			name: "refuted hypothesis before its refutation: open",
			yaml: `
compaction: {at: [2]}
events:
  - {role: user, text: "I bet the CDN adds the latency."}
  - {role: assistant, text: "Let me measure."}
  - {role: user, text: "The db takes 1650 ms, not the CDN."}
invariants:
  - {id: cdn, type: refuted_hypothesis, hypothesis_seq: 1, refuted_by_seq: 3, match: ['cdn adds (the )?latency']}
`,
			cut:  2,
			want: summary.Summary{Hypotheses: []summary.Hypothesis{{Claim: "I bet the CDN adds the latency", SourceSeq: 1, Status: "open"}}},
			text: "Open hypothesis (#1): I bet the CDN adds the latency.",
		},
		{
			name: "artifact: the exact required path with its digest, marked current, not its twin",
			yaml: `
compaction: {at: [3]}
events:
  - {role: user, text: "Pin the arm64 build."}
  - {role: assistant, tool_call: {id: c1, name: ls, args: {dir: dist}}}
  - {role: tool, tool_result: {call_id: c1, text: "dist/relay-arm64.tar.gz sha256:aaaa1111\ndist/relay-amd64.tar.gz sha256:bbbb2222"}}
  - {role: user, text: "Go."}
invariants:
  - id: build
    type: artifact
    paths: [dist/relay-arm64.tar.gz, dist/relay-amd64.tar.gz]
    required: [dist/relay-arm64.tar.gz]
    digests: {dist/relay-arm64.tar.gz: "sha256:aaaa1111"}
`,
			cut:  3,
			want: summary.Summary{Artifacts: []summary.ArtifactRef{{Path: "dist/relay-arm64.tar.gz", Digest: "sha256:aaaa1111", Status: "current", SourceSeq: 3}}},
			text: "File dist/relay-arm64.tar.gz is current, has digest sha256:aaaa1111 (#3).",
		},
		{
			name: "pending operations: the call with no result and the timed-out one, as unknown",
			yaml: `
compaction: {at: [4]}
events:
  - {role: user, text: "Run the migration, then deploy."}
  - {role: assistant, tool_call: {id: m1, name: migrate, args: {db: prod}}}
  - {role: assistant, tool_call: {id: d1, name: deploy, args: {version: "2.14"}}}
  - {role: tool, tool_result: {call_id: d1, status: timeout, text: "2/6 pods ready"}}
  - {role: user, text: "Status?"}
invariants:
  - {id: mig, type: pending_operation, op_id: m1, call_seq: 2}
`,
			cut: 4,
			want: summary.Summary{Pending: []summary.Pending{
				{OpID: "m1", Description: `migrate {"db":"prod"}: no result was recorded, so its outcome is unknown`, Status: "unknown", SourceSeq: 2},
				{OpID: "d1", Description: `deploy {"version":"2.14"}: it timed out at #4, so its outcome is unknown`, Status: "unknown", SourceSeq: 3},
			}},
			text: `Operation m1 (#2): migrate {"db":"prod"}: no result was recorded, so its outcome is unknown; status unknown. ` +
				`Operation d1 (#3): deploy {"version":"2.14"}: it timed out at #4, so its outcome is unknown; status unknown.`,
		},
		{
			name: "correction: the new value, the old one only as superseded",
			yaml: `
compaction: {at: [3]}
events:
  - {role: user, text: "Send the report to ops@x.io."}
  - {role: assistant, text: "Will do."}
  - {role: user, text: "Correction: send it to sre@x.io, not ops@x.io."}
  - {role: user, text: "Thanks."}
invariants:
  - {id: to, type: correction, old: ops@x.io, new: sre@x.io, subject: report recipient, source_seq: 3}
`,
			cut:  3,
			want: summary.Summary{Corrections: []summary.Correction{{Subject: "report recipient", Value: "sre@x.io", Supersedes: "ops@x.io", SourceSeq: 3}}},
			text: "The report recipient is now sre@x.io, which replaces ops@x.io (#3).",
		},
		{
			name: "quantity: quoted where its match holds, respelled canonically",
			yaml: `
compaction: {at: [2]}
events:
  - {role: user, text: "Retries stay at 2. The upstream timeout must be 30 seconds."}
  - {role: assistant, text: "Noted."}
  - {role: user, text: "Go."}
invariants:
  - {id: to, type: quantity, value: 30, unit: s, match: ['timeout']}
`,
			cut:  2,
			want: summary.Summary{Verified: []summary.Claim{{Claim: "The upstream timeout must be 30 s", SourceSeq: 1}}},
			text: "The upstream timeout must be 30 s (#1).",
		},
		{
			name: "secret: never copied, even where a probe's evidence holds it",
			yaml: `
compaction: {at: [3]}
events:
  - {role: user, text: "Find where the key leaked."}
  - {role: assistant, tool_call: {id: g1, name: grep, args: {pattern: sk_live}}}
  - {role: tool, tool_result: {call_id: g1, text: "billing.log.1: key=sk_live_ABCDEFGH12345678 rejected"}}
  - {role: user, text: "Which file?"}
invariants:
  - {id: key, type: secret, value: sk_live_ABCDEFGH12345678}
probes:
  - id: which
    question: Which file holds the key?
    options: {app: app.log, billing: billing.log.1}
    expect: billing
    requires: {billing: ['billing\.log\.1']}
`,
			cut:  3,
			want: summary.Summary{Verified: []summary.Claim{{Claim: "billing.log.1: key=[secret removed] rejected", SourceSeq: 3}}},
			text: "billing.log.1: key=[secret removed] rejected (#3).",
		},
		{
			name: "probe evidence: one sentence that matches every pattern, the assistant's if need be",
			yaml: `
compaction: {at: [3]}
events:
  - {role: user, text: "Why do payments time out?"}
  - {role: assistant, text: "Looking. The policy allow-db-egress only admits 10.42.8.0/24, but the primary is at 10.42.7.19."}
  - {role: user, text: "I see."}
  - {role: user, text: "So?"}
probes:
  - id: cause
    question: What is the cause?
    options: {db: The database is down, netpol: The network policy}
    expect: netpol
    requires: {netpol: ['allow-db-egress', '10\.42\.8\.0/24']}
`,
			cut:  3,
			want: summary.Summary{Decisions: []summary.Statement{{Text: "The policy allow-db-egress only admits 10.42.8.0/24, but the primary is at 10.42.7.19", SourceSeq: 2}}},
			text: "The policy allow-db-egress only admits 10.42.8.0/24, but the primary is at 10.42.7.19 (#2).",
		},
		{
			name: "probe evidence across two neighbouring events",
			yaml: `
compaction: {at: [3]}
events:
  - {role: assistant, text: "Finding B: internal/export/csv.go writes full card numbers."}
  - {role: user, text: "That one goes first in the report."}
  - {role: assistant, text: "Noted."}
  - {role: user, text: "Order?"}
probes:
  - id: order
    question: Which finding goes first?
    options: {a: Finding A, b: Finding B}
    expect: b
    requires: {b: ['csv\.go.{0,200}first']}
`,
			cut:  3,
			want: summary.Summary{Decisions: []summary.Statement{{Text: "Finding B: internal/export/csv.go writes full card numbers; That one goes first in the report", SourceSeq: 2}}},
			text: "Finding B: internal/export/csv.go writes full card numbers; That one goes first in the report (#2).",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := load(t, tc.yaml)
			s := BuildOracle(sc, tc.cut, Structured)
			if len(s.Problems) > 0 {
				t.Errorf("problems: %v", s.Problems)
			}
			want := tc.want
			want.SchemaVersion, want.CoversThrough, want.Goal = 1, tc.cut, sc.Goal
			if diff := cmp.Diff(&want, s.Summary); diff != "" {
				t.Errorf("structured form (-want +got):\n%s", diff)
			}
			txt := BuildOracle(sc, tc.cut, TextOnly)
			wantText := summary.Summary{SchemaVersion: 1, CoversThrough: tc.cut, Goal: sc.Goal, Text: tc.text}
			if diff := cmp.Diff(&wantText, txt.Summary); diff != "" {
				t.Errorf("text-only form (-want +got):\n%s", diff)
			}
			for _, o := range []*Oracle{s, txt} {
				raw := o.JSON()
				for _, v := range sc.Secrets() {
					if strings.Contains(string(raw), PartialSecret(sc, v)) {
						t.Errorf("%s form holds the secret: %s", o.Form, raw)
					}
				}
				in := &checks.Input{Scenario: sc, Gen: checks.Generation{N: 1, Cut: tc.cut, Tail: tail(sc, tc.cut)}, Raw: raw}
				for _, r := range checks.Run(in) {
					// These sessions are a few lines long: nothing can
					// compress them. The suite tests compression.
					if r.Check == result.CheckCompression {
						continue
					}
					if r.Status == result.Fail || r.Status == result.Error {
						t.Errorf("%s form: %s %s: %s", o.Form, r.Check, r.Invariant, r.Message)
					}
				}
			}
		})
	}
}

// tail is the events after cut, arrivals included.
func tail(sc *scenarios.Scenario, cut int) []scenarios.Event {
	var out []scenarios.Event
	for _, e := range sc.Events {
		if e.Seq > cut {
			out = append(out, e)
		}
	}
	return append(out, sc.Arrivals...)
}

// TestOracleRefusesWhatBreaksAnotherCheck: a sentence that states a fact
// but also the value a correction retired is not quoted; another one is.
func TestOracleRefusesWhatBreaksAnotherCheck(t *testing.T) {
	sc := load(t, `
compaction: {at: [4]}
events:
  - {role: user, text: "The rate is 200 rows/s with a 30 s lag pause."}
  - {role: user, text: "Correction: the rate is 50 rows/s."}
  - {role: assistant, text: "The lag pause stays at 30 s."}
  - {role: assistant, text: "Ok."}
  - {role: user, text: "Go."}
invariants:
  - {id: rate, type: correction, old: 200 rows/s, new: 50 rows/s, subject: rate, source_seq: 2}
  - {id: lag, type: quantity, value: 30, unit: s, match: ['lag']}
`)
	o := BuildOracle(sc, 4, Structured)
	want := []summary.Statement{{Text: "The lag pause stays at 30 s", SourceSeq: 3}}
	if diff := cmp.Diff(want, o.Summary.Decisions); diff != "" {
		t.Errorf("the lag quantity should come from #3, not from #1 which states the old rate (-want +got):\n%s", diff)
	}
	if len(o.Summary.Verified) > 0 {
		t.Errorf("verified = %v, want none", o.Summary.Verified)
	}
}

// TestOracleProblems: what the builder cannot state is said, with why.
func TestOracleProblems(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{
			name: "a constraint pattern that matches nothing its event says",
			yaml: `
compaction: {at: [1]}
events:
  - {role: user, text: "This session is read-only."}
  - {role: user, text: "Go."}
invariants:
  - {id: ro, type: constraint, source_seq: 1, match: ['read-only session']}
`,
			want: "no sentence of its source event #1 matches read-only session",
		},
		{
			name: "a pattern that accepts only the session's spelling of a number",
			yaml: `
compaction: {at: [1]}
events:
  - {role: user, text: "The timeout is 30 seconds."}
  - {role: user, text: "Go."}
probes:
  - id: to
    question: Which timeout?
    options: {ms: 30 ms, s: 30 s}
    expect: s
    requires: {s: ['timeout is 30 seconds'], ms: ['30 ?ms']}
`,
			want: `#1 says "The timeout is 30 seconds", but the same words with the quantity respelled ("The timeout is 30 s") do not match`,
		},
		{
			name: "a quantity no event states with its unit",
			yaml: `
compaction: {at: [1]}
events:
  - {role: tool, tool_result: {call_id: x, text: "db;dur=1650"}}
  - {role: user, text: "Go."}
invariants:
  - {id: db, type: quantity, value: 1650, unit: ms}
`,
			want: "no event states 1650 ms",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenarios.LoadBytes("test.yaml", []byte("version: 1\nid: t\ngoal: Find the cause\n"+tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			o := BuildOracle(sc, sc.Compaction.At[0], Structured)
			var got []string
			for _, p := range o.Problems {
				got = append(got, p.Message)
			}
			if !strings.Contains(strings.Join(got, "\n"), tc.want) {
				t.Errorf("problems = %q, want one containing %q", got, tc.want)
			}
		})
	}
}
