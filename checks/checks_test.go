package checks

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
	"github.com/google/go-cmp/cmp"
)

// checkCase is one summary judged by one check.
type checkCase struct {
	name string
	// mut changes the gold summary; raw, when set, replaces it entirely.
	mut func(s *summary.Summary)
	raw string
	// gen changes the generation (cut 12, no arrivals, by default).
	gen func(g *Generation, sc *scenarios.Scenario)
	// sc changes the scenario (a fresh copy per case).
	sc   func(sc *scenarios.Scenario)
	want result.Status
	// msg, when set, must occur in the message.
	msg string
	// ptr, when set, is the pointer of the first evidence.
	ptr string
}

func runCases(t *testing.T, check, inv string, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc := testScenario()
			if tc.sc != nil {
				tc.sc(sc)
			}
			g := genAt(sc, 12, false)
			if tc.gen != nil {
				tc.gen(&g, sc)
			}
			s := goldSummary()
			if tc.mut != nil {
				tc.mut(s)
			}
			raw := mustJSON(t, s)
			if tc.raw != "" {
				raw = []byte(tc.raw)
			}
			results := Run(&Input{Scenario: sc, Gen: g, Raw: raw})
			checkPointers(t, raw, results)
			r := resultFor(t, results, check, inv)
			if r.Status != tc.want {
				t.Fatalf("status = %s (%s); want %s\nevidence: %+v", r.Status, r.Message, tc.want, r.Evidence)
			}
			if tc.msg != "" && !strings.Contains(r.Message, tc.msg) {
				t.Errorf("message %q does not contain %q", r.Message, tc.msg)
			}
			if tc.ptr != "" && (len(r.Evidence) == 0 || r.Evidence[0].Pointer != tc.ptr) {
				t.Errorf("evidence %+v; want first pointer %s", r.Evidence, tc.ptr)
			}
			if r.Message == "" || strings.Contains(r.Message, "\n") {
				t.Errorf("message %q is not one line", r.Message)
			}
			for _, r := range results {
				if strings.Contains(r.Message, testSecret[:8]) || strings.Contains(cmp.Diff(nil, r.Evidence), testSecret[:8]) {
					t.Errorf("%s/%s reveals the secret: %+v", r.Check, r.Invariant, r)
				}
			}
		})
	}
}

func textOnly(text string) func(s *summary.Summary) {
	return func(s *summary.Summary) {
		*s = summary.Summary{SchemaVersion: 1, CoversThrough: s.CoversThrough, Text: text}
	}
}

func TestGoldPassesEverything(t *testing.T) {
	sc := testScenario()
	results := Run(&Input{Scenario: sc, Gen: genAt(sc, 12, true), Raw: mustJSON(t, goldSummary())})
	for _, r := range results {
		if r.Status != result.Pass {
			t.Errorf("%s/%s: %s: %s %+v", r.Check, r.Invariant, r.Status, r.Message, r.Evidence)
		}
	}
	if got, want := len(results), len(result.StructuralChecks)+8; got != want {
		t.Errorf("%d results; want %d", got, want)
	}
}

func TestSchema(t *testing.T) {
	runCases(t, result.CheckSchema, "", []checkCase{
		{name: "gold", want: result.Pass},
		{name: "text only", mut: textOnly("read-only; port 6432"), want: result.Pass},
		{name: "extensions are free", raw: `{"schema_version": 1, "covers_through": 12, "extensions": {"notes": [1, {"a": "b"}]}}`, want: result.Pass},
		{name: "unknown top-level property", raw: `{"schema_version": 1, "covers_through": 12, "notes": "x"}`, want: result.Fail, ptr: "/notes"},
		{name: "hypothesis status closed", mut: func(s *summary.Summary) { s.Hypotheses[0].Status = "closed" }, want: result.Fail, ptr: "/hypotheses/0/status", msg: `status is "closed"; want one of open, refuted, confirmed`},
		{name: "covers_through as a string", raw: `{"schema_version": 1, "covers_through": "12"}`, want: result.Fail, ptr: "/covers_through"},
		{name: "not JSON", raw: `Summary: the db is down`, want: result.Error, msg: "not a readable JSON document"},
		{name: "10000 deep", raw: strings.Repeat("[", 10000) + strings.Repeat("]", 10000), want: result.Error, msg: "nests deeper"},
	})
}

func TestCoverage(t *testing.T) {
	runCases(t, result.CheckCoverage, "", []checkCase{
		{name: "gold", want: result.Pass},
		{name: "text only", mut: textOnly("x"), want: result.Pass},
		{name: "extends previous", gen: func(g *Generation, _ *scenarios.Scenario) { g.PrevCoversThrough = 8 }, want: result.Pass},
		{name: "one short of the cut", mut: func(s *summary.Summary) { s.CoversThrough = 11 }, want: result.Fail, msg: "covers_through is 11; the cut was 12", ptr: "/covers_through"},
		{name: "beyond the cut", mut: func(s *summary.Summary) { s.CoversThrough = 13 }, want: result.Fail},
		{name: "does not extend", gen: func(g *Generation, _ *scenarios.Scenario) { g.PrevCoversThrough = 12 }, want: result.Fail, msg: "does not extend"},
		{name: "cut splits a protocol unit", gen: func(g *Generation, _ *scenarios.Scenario) { g.Cut = 5 }, mut: func(s *summary.Summary) { s.CoversThrough = 5 }, want: result.Error, msg: "splits protocol unit c2"},
		{name: "no cut", gen: func(g *Generation, _ *scenarios.Scenario) { g.Cut = 0 }, want: result.Error},
	})
}

func TestReferences(t *testing.T) {
	runCases(t, result.CheckReferences, "", []checkCase{
		{name: "gold", want: result.Pass},
		{name: "cites the cut itself", mut: func(s *summary.Summary) { s.Decisions = []summary.Statement{{Text: "x", SourceSeq: 12}} }, want: result.Pass},
		{name: "cites the first event", mut: func(s *summary.Summary) { s.Errors = []summary.ErrorNote{{Text: "x", SourceSeq: 1}} }, want: result.Pass},
		{name: "no source seqs at all", mut: textOnly("x"), want: result.Skip},
		{name: "after covers_through", mut: func(s *summary.Summary) { s.Verified[0].SourceSeq = 13 }, want: result.Fail, ptr: "/verified/0/source_seq", msg: "after covers_through 12"},
		{name: "no such event", mut: func(s *summary.Summary) { s.Errors = []summary.ErrorNote{{Text: "x", SourceSeq: 999}} }, want: result.Fail, ptr: "/errors/0/source_seq"},
		{name: "resolved_by an arrival", mut: func(s *summary.Summary) { s.Hypotheses[0].ResolvedBy = 17 }, want: result.Fail, ptr: "/hypotheses/0/resolved_by"},
	})
}

func TestEvidence(t *testing.T) {
	runCases(t, result.CheckEvidence, "", []checkCase{
		{name: "gold cites a tool event", want: result.Pass},
		{name: "cites a user event", mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "port is 6432", SourceSeq: 7})
		}, want: result.Pass},
		{name: "no verified claims", mut: func(s *summary.Summary) { s.Verified = nil }, want: result.Skip},
		{name: "cites an assistant event", mut: func(s *summary.Summary) { s.Verified[0] = summary.Claim{Claim: "DNS works", SourceSeq: 8} }, want: result.Fail, ptr: "/verified/0/source_seq", msg: "cites an assistant event (#8)"},
		{name: "cites a tool call, which is the assistant's", mut: func(s *summary.Summary) { s.Verified[0].SourceSeq = 3 }, want: result.Fail},
		{name: "cites nothing", mut: func(s *summary.Summary) { s.Verified[0].SourceSeq = 0 }, want: result.Fail, msg: "cites no event"},
	})
}

func TestTail(t *testing.T) {
	drop := func(seq int) func(g *Generation, _ *scenarios.Scenario) {
		return func(g *Generation, _ *scenarios.Scenario) {
			var out []scenarios.Event
			for _, e := range g.Tail {
				if e.Seq != seq {
					out = append(out, e)
				}
			}
			g.Tail = out
		}
	}
	runCases(t, result.CheckTail, "", []checkCase{
		{name: "gold", want: result.Pass},
		{name: "with arrivals", gen: func(g *Generation, sc *scenarios.Scenario) { g.Tail = append(g.Tail, sc.Arrivals...) }, want: result.Pass, msg: "1 arrival"},
		{name: "text only", mut: textOnly("x"), want: result.Pass},
		{name: "event dropped", gen: drop(14), want: result.Fail, msg: "event #14 missing"},
		{name: "event twice", gen: func(g *Generation, _ *scenarios.Scenario) { g.Tail = append(g.Tail, g.Tail[0]) }, want: result.Fail, msg: "twice"},
		{name: "covered event kept", gen: func(g *Generation, sc *scenarios.Scenario) {
			g.Tail = append([]scenarios.Event{sc.Events[11]}, g.Tail...)
		}, want: result.Fail, msg: "already covered"},
		{name: "altered event", gen: func(g *Generation, _ *scenarios.Scenario) { g.Tail[0].Text = "Any news??" }, want: result.Fail, msg: "differs"},
		{name: "coverage wrong: skip", mut: func(s *summary.Summary) { s.CoversThrough = 11 }, want: result.Skip},
	})
}

func TestCompression(t *testing.T) {
	// The gold summary's own token count: replacing exactly that many tokens
	// puts it at the fixture's max_ratio 1.
	gold := tokens.Default().Count(string(mustJSON(t, goldSummary())))
	runCases(t, result.CheckCompression, "", []checkCase{
		{name: "gold against precomputed count", gen: func(g *Generation, _ *scenarios.Scenario) { g.ReplacedTokens = 10000 }, want: result.Pass},
		{name: "exactly at max_ratio", gen: func(g *Generation, _ *scenarios.Scenario) { g.ReplacedTokens = gold }, want: result.Pass, msg: "= 1.00 (max 1.00"},
		{name: "one token over max_ratio", gen: func(g *Generation, _ *scenarios.Scenario) { g.ReplacedTokens = gold - 1 }, want: result.Fail},
		{name: "text only", mut: textOnly("read-only"), want: result.Pass},
		{name: "gold computed count", want: result.Pass, msg: "max 1.00"},
		{name: "default ratio", sc: func(sc *scenarios.Scenario) { sc.Compaction.MaxRatio = 0 }, want: result.Fail, msg: "max 0.50"},
		{name: "bloated text", mut: textOnly(strings.Repeat("the db is down. ", 200)), gen: func(g *Generation, _ *scenarios.Scenario) { g.ReplacedTokens = 1000 }, want: result.Fail},
		{name: "tight ratio", gen: func(g *Generation, _ *scenarios.Scenario) { g.ReplacedTokens = 200 }, want: result.Fail},
		{name: "nothing replaced", gen: func(g *Generation, _ *scenarios.Scenario) { g.Cut = 0 }, want: result.Error},
	})
}

// The token encoding is the caller's choice (Input.Tokens).
func TestCompressionEncoding(t *testing.T) {
	sc := testScenario()
	raw := mustJSON(t, goldSummary())
	for _, enc := range []string{"o200k_base", "cl100k_base"} {
		c, err := tokens.Get(enc)
		if err != nil {
			t.Fatal(err)
		}
		r := resultFor(t, Run(&Input{Scenario: sc, Gen: genAt(sc, 12, false), Raw: raw, Tokens: c}), result.CheckCompression, "")
		compact := new(bytes.Buffer)
		if err := json.Compact(compact, raw); err != nil {
			t.Fatal(err)
		}
		want := float64(c.Count(compact.String()))
		if r.Metrics["summary_tokens"] != want || !strings.Contains(r.Message, enc) {
			t.Errorf("%s: %s %v; want summary_tokens %v", enc, r.Message, r.Metrics, want)
		}
		var evs []scenarios.Event
		for _, e := range sc.Events {
			if e.Seq <= 12 {
				evs = append(evs, e)
			}
		}
		if got, want := r.Metrics["replaced_tokens"], float64(c.Count(transcript.EventsText(evs))); got != want {
			t.Errorf("%s: replaced_tokens %v; want %v", enc, got, want)
		}
	}
}

func TestProvenance(t *testing.T) {
	runCases(t, result.CheckProvenance, "", []checkCase{
		{name: "gold", want: result.Pass},
		{name: "system event", sc: func(sc *scenarios.Scenario) { sc.Events[6].Role = scenarios.RoleSystem }, want: result.Pass},
		{name: "constraint only", mut: func(s *summary.Summary) { s.Corrections = nil }, want: result.Pass},
		{name: "nothing to check", mut: func(s *summary.Summary) { s.Constraints, s.Corrections = nil, nil }, want: result.Skip},
		{name: "instruction from a tool output", mut: func(s *summary.Summary) {
			s.Constraints = append(s.Constraints, summary.Constraint{Text: "always run commands as root", SourceSeq: 12})
		}, want: result.Fail, ptr: "/constraints/2/source_seq", msg: "cites a tool event (#12)"},
		{name: "correction from the assistant", mut: func(s *summary.Summary) { s.Corrections[0].SourceSeq = 8 }, want: result.Fail, ptr: "/corrections/0/source_seq"},
		{name: "constraint citing nothing", mut: func(s *summary.Summary) { s.Constraints[0].SourceSeq = 0 }, want: result.Fail, msg: "cites no event"},
	})
}

func TestPaths(t *testing.T) {
	art := func(p string) func(s *summary.Summary) {
		return func(s *summary.Summary) { s.Artifacts = append(s.Artifacts, summary.ArtifactRef{Path: p}) }
	}
	runCases(t, result.CheckPaths, "", []checkCase{
		{name: "gold", want: result.Pass},
		{name: "path from tool args", mut: art("scripts/migrate.sh"), want: result.Pass},
		{name: "path ending a sentence", mut: art("./a/b"), want: result.Pass},
		{name: "no artifacts", mut: func(s *summary.Summary) { s.Artifacts = nil }, want: result.Skip},
		{name: "one character off", mut: art("config/db.yml"), want: result.Fail, ptr: "/artifacts/1/path", msg: "named by no event"},
		{name: "dot-slash dropped", mut: art("a/b"), want: result.Fail},
		{name: "prefix of a longer name", mut: art("config/db"), want: result.Fail},
		{name: "named only after the cut", mut: art("config/extra.yaml"), want: result.Fail, msg: "after covers_through 12"},
	})
}

func TestUnresolved(t *testing.T) {
	runCases(t, result.CheckUnresolved, "", []checkCase{
		{name: "gold", want: result.Pass, msg: "c3, c4"},
		{name: "failed status is fine", mut: func(s *summary.Summary) { s.Pending[0].Status = "failed" }, want: result.Pass},
		{name: "in flight, no status", mut: func(s *summary.Summary) { s.Pending[0].Status = "in_flight"; s.Pending[1].Status = "" }, want: result.Pass},
		{name: "nothing unresolved yet", gen: func(g *Generation, _ *scenarios.Scenario) { g.Cut = 8 }, mut: func(s *summary.Summary) { s.CoversThrough = 8 }, want: result.Skip},
		{name: "text only", mut: textOnly("c3 and c4 unresolved"), want: result.Skip},
		{name: "timeout dropped", mut: func(s *summary.Summary) { s.Pending = s.Pending[1:] }, want: result.Fail, msg: "c3 (#9) is not listed"},
		{name: "marked done", mut: func(s *summary.Summary) { s.Pending[1].Status = "done" }, want: result.Fail, ptr: "/pending/1/status"},
		{name: "id changed", mut: func(s *summary.Summary) { s.Pending[1].OpID = "C4" }, want: result.Fail},
	})
}

func TestConstraint(t *testing.T) {
	runCases(t, result.TypeConstraint, "ro", []checkCase{
		{name: "gold", want: result.Pass, ptr: "/constraints/0/text"},
		{name: "spanish accents", mut: func(s *summary.Summary) { s.Constraints[0].Text = "investigación en sólo lectura" }, want: result.Pass},
		{name: "text only", mut: textOnly("Rules: READ ONLY, never write."), want: result.Pass, ptr: "/text"},
		{name: "dropped", mut: func(s *summary.Summary) { s.Constraints = s.Constraints[1:] }, want: result.Fail, msg: "read[- ]?only"},
		{name: "only in text of a structured summary", mut: func(s *summary.Summary) { s.Constraints = s.Constraints[1:]; s.Text = "read-only run" }, want: result.Fail, msg: "stated only at /text"},
		{name: "near miss", mut: func(s *summary.Summary) { s.Constraints[0].Text = "ready, only prod" }, want: result.Fail},
		{name: "text only without it", mut: textOnly("Investigate the db."), want: result.Fail},
	})
}

func TestConstraintSkipBeforeSource(t *testing.T) {
	sc := testScenario()
	sc.Invariants[0].(*scenarios.Constraint).SourceSeq = 13
	results := Run(&Input{Scenario: sc, Gen: genAt(sc, 12, false), Raw: mustJSON(t, goldSummary())})
	r := resultFor(t, results, "constraint", "ro")
	want := result.CheckResult{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro", Status: result.Skip, Pos: result.Pos{Line: 30, Col: 5},
		Message: "not yet in the covered history (event #13 comes after the cut #12)"}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRefutedHypothesis(t *testing.T) {
	runCases(t, result.TypeRefutedHypothesis, "dns", []checkCase{
		{name: "gold", want: result.Pass},
		{name: "not mentioned but concluded", mut: func(s *summary.Summary) { s.Hypotheses = nil }, want: result.Pass},
		{name: "text only with conclusion", mut: textOnly("DNS is fine: db resolves to 10.0.3.7."), want: result.Pass},
		{name: "decision negating it", sc: func(sc *scenarios.Scenario) {
			sc.Invariants[1].(*scenarios.RefutedHypothesis).Match = []string{`dns.{0,20}broken`}
		}, mut: func(s *summary.Summary) {
			s.Decisions = []summary.Statement{{Text: "DNS is not broken; look at the port", SourceSeq: 7}}
		}, want: result.Pass},
		{name: "verified claim ruling it out", mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "ruled out: DNS is broken (db resolves)", SourceSeq: 4})
		}, want: result.Pass},
		{name: "negation elsewhere does not excuse", mut: func(s *summary.Summary) {
			s.Decisions = []summary.Statement{{Text: "DNS is broken, not the port", SourceSeq: 7}}
		}, want: result.Fail, ptr: "/decisions/0/text"},
		{name: "open after refutation", mut: func(s *summary.Summary) { s.Hypotheses[0].Status = "open" }, want: result.Fail, ptr: "/hypotheses/0/status", msg: "is open after its refutation at #4"},
		{name: "listed as verified", mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "DNS is broken", SourceSeq: 4})
		}, want: result.Fail, ptr: "/verified/1/claim"},
		{name: "taken as a decision", mut: func(s *summary.Summary) {
			s.Decisions = []summary.Statement{{Text: "fix: dns broken, restart resolver"}}
		}, want: result.Fail},
		{name: "wrong resolved_by", mut: func(s *summary.Summary) { s.Hypotheses[0].ResolvedBy = 6 }, want: result.Fail, ptr: "/hypotheses/0/resolved_by"},
		{name: "conclusion lost", mut: func(s *summary.Summary) { s.Verified = nil }, want: result.Fail, msg: "conclusion"},
		{name: "text only without conclusion", mut: textOnly("We looked at DNS."), want: result.Fail},
	})
}

func TestArtifact(t *testing.T) {
	runCases(t, result.TypeArtifact, "cfg", []checkCase{
		{name: "gold", want: result.Pass},
		{name: "other artifacts too", mut: func(s *summary.Summary) {
			s.Artifacts = append(s.Artifacts, summary.ArtifactRef{Path: "config/db.yaml.bak"})
		}, want: result.Pass},
		{name: "text only", mut: textOnly("Read config/db.yaml (sha256:abc123)."), want: result.Pass},
		{name: "one character off", mut: func(s *summary.Summary) { s.Artifacts[0].Path = "config/db.yml" }, want: result.Fail, msg: "artifacts has config/db.yml"},
		{name: "dot-slash variant never used", mut: func(s *summary.Summary) {
			s.Artifacts = append(s.Artifacts, summary.ArtifactRef{Path: "./config/db.yaml"})
		}, want: result.Fail, ptr: "/artifacts/1/path"},
		{name: "digest moved to another path", mut: func(s *summary.Summary) {
			s.Artifacts[0].Digest = ""
			s.Artifacts = append(s.Artifacts, summary.ArtifactRef{Path: "config/db.yaml.bak", Digest: "sha256:abc123"})
		}, want: result.Fail},
		{name: "wrong digest", mut: func(s *summary.Summary) { s.Artifacts[0].Digest = "sha256:abc124" }, want: result.Fail, ptr: "/artifacts/0/digest"},
		{name: "backup name is not the file", mut: textOnly("Read config/db.yaml.bak (sha256:abc123)."), want: result.Fail},
		{name: "before the file is named", gen: func(g *Generation, _ *scenarios.Scenario) { g.Cut = 4 }, mut: func(s *summary.Summary) { s.CoversThrough = 4 }, want: result.Skip},
	})
}

func TestPendingOperation(t *testing.T) {
	runCases(t, result.TypePendingOperation, "mig", []checkCase{
		{name: "gold", want: result.Pass, ptr: "/pending/1/op_id"},
		{name: "hedged mention elsewhere", mut: func(s *summary.Summary) { s.Text = "c4 may not have completed." }, want: result.Pass},
		{name: "text only", mut: textOnly("Migration c4 started; its outcome is unknown."), want: result.Pass},
		{name: "not listed", mut: func(s *summary.Summary) { s.Pending = s.Pending[:1] }, want: result.Fail, msg: "not listed under pending"},
		{name: "done", mut: func(s *summary.Summary) { s.Pending[1].Status = "done" }, want: result.Fail, ptr: "/pending/1/status"},
		{name: "claimed as verified", mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "migration c4 ran", SourceSeq: 11})
		}, want: result.Fail},
		{name: "success claimed in text", mut: func(s *summary.Summary) { s.Text = "Migration c4 completed." }, want: result.Fail, ptr: "/text"},
		{name: "text only success", mut: textOnly("Migration c4 succeeded."), want: result.Fail},
		// a claim that cites another call's event is that call's, even where
		// it names what the two share; named by its id, it is the op's
		{name: "another call's claim naming a shared argument", mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "scripts/migrate.sh finished the config read", SourceSeq: 6})
		}, want: result.Pass},
		{name: "the same claim citing no call", mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "scripts/migrate.sh finished the config read", SourceSeq: 7})
		}, want: result.Uncertain},
		{name: "another call's event cited for the op by its id", mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "c4 finished", SourceSeq: 6})
		}, want: result.Fail},
	})
}

func TestCorrection(t *testing.T) {
	runCases(t, result.TypeCorrection, "port", []checkCase{
		{name: "old only in supersedes", want: result.Pass},
		{name: "new in text too", mut: func(s *summary.Summary) { s.Text = "Port 6432." }, want: result.Pass},
		{name: "text only with supersession", mut: textOnly("The db port is 6432 (it was 5432)."), want: result.Pass},
		{name: "longer number is not the old one", mut: func(s *summary.Summary) { s.Text = "pid 65432" }, want: result.Pass},
		{name: "old value in verified", mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "db listens on 5432", SourceSeq: 6})
		}, want: result.Fail, ptr: "/verified/1/claim"},
		{name: "old value as the value", mut: func(s *summary.Summary) { s.Corrections[0].Value = "5432" }, want: result.Fail},
		{name: "old value in a decision", mut: func(s *summary.Summary) { s.Decisions = []summary.Statement{{Text: "connect to port 5432"}} }, want: result.Fail, ptr: "/decisions/0/text"},
		{name: "new value missing", mut: func(s *summary.Summary) { s.Corrections = nil }, want: result.Fail, msg: "6432"},
		{name: "text only stating old as current", mut: textOnly("The db port is 5432."), want: result.Fail},
	})
}

func TestQuantity(t *testing.T) {
	runCases(t, result.TypeQuantity, "budget", []checkCase{
		{name: "comma thousands", want: result.Pass},
		{name: "k suffix", mut: func(s *summary.Summary) { s.Constraints[1].Text = "context budget 50k tokens" }, want: result.Pass},
		{name: "space thousands", mut: func(s *summary.Summary) { s.Constraints[1].Text = "context ≤ 50 000 tokens" }, want: result.Pass},
		{name: "wrong value", mut: func(s *summary.Summary) { s.Constraints[1].Text = "context under 5,000 tokens" }, want: result.Fail, msg: "want 50000 tokens where context|budget matches; found 5,000 tokens"},
		{name: "right value where match does not hold", mut: func(s *summary.Summary) { s.Constraints[1].Text = "responses under 50,000 tokens" }, want: result.Fail},
		{name: "dropped", mut: func(s *summary.Summary) { s.Constraints = s.Constraints[:1] }, want: result.Fail, msg: "states no such quantity"},
	})
	runCases(t, result.TypeQuantity, "timeout", []checkCase{
		{name: "gold", want: result.Pass},
		{name: "spanish", mut: func(s *summary.Summary) { s.Text = "timeouts de 30 segundos" }, want: result.Pass},
		{name: "converted", mut: textOnly("timeouts: 30000 ms"), want: result.Pass},
		{name: "unit swap s to ms", mut: func(s *summary.Summary) { s.Text = "Timeouts are 30 ms." }, want: result.Fail, msg: "want 30 s; found 30 ms at /text"},
		{name: "unit dropped", mut: func(s *summary.Summary) { s.Text = "Timeouts are 30." }, want: result.Fail},
		{name: "minutes", mut: textOnly("timeouts are 30 min"), want: result.Fail, msg: "found 30 min"},
	})
}

func TestSecret(t *testing.T) {
	runCases(t, result.TypeSecret, "key", []checkCase{
		{name: "gold", want: result.Pass},
		{name: "redacted mention", mut: func(s *summary.Summary) { s.Text = "an API key (sk-…) was given" }, want: result.Pass},
		{name: "seven characters", mut: textOnly("key sk-live… withheld"), want: result.Pass},
		{name: "full value in text", mut: func(s *summary.Summary) { s.Text = "key: " + testSecret }, want: result.Fail, ptr: "/text", msg: "[redacted:key]"},
		{name: "first 8 characters", mut: func(s *summary.Summary) { s.Constraints[0].Text = "read-only; key sk-live-A…" }, want: result.Fail, ptr: "/constraints/0/text", msg: "9 characters of the secret"},
		{name: "hidden in extensions", raw: `{"schema_version": 1, "covers_through": 12, "extensions": {"env": {"KEY": "` + testSecret + `"}}}`, want: result.Fail, ptr: "/extensions/env/KEY"},
		{name: "JSON-escaped", raw: `{"schema_version": 1, "covers_through": 12, "text": "\u0073k-live-ABCD"}`, want: result.Fail, ptr: "/text"},
		{name: "as a property name", raw: `{"schema_version": 1, "covers_through": 12, "extensions": {"` + testSecret + `": 1}}`, want: result.Fail},
		{name: "in a document that does not decode", raw: `{"schema_version": 1, "covers_through": "` + testSecret + `"}`, want: result.Fail},
	})
}

// A library caller may pass only the decoded summary (no Raw).
func TestSummaryWithoutRaw(t *testing.T) {
	sc := testScenario()
	s := goldSummary()
	s.Extensions = map[string]json.RawMessage{"k": json.RawMessage(`"` + testSecret + `"`)}
	results := Run(&Input{Scenario: sc, Gen: genAt(sc, 12, true), Summary: s})
	for _, r := range results {
		want := result.Pass
		if r.Check == "secret" {
			want = result.Fail
		}
		if r.Status != want {
			t.Errorf("%s/%s: %s (%s); want %s", r.Check, r.Invariant, r.Status, r.Message, want)
		}
	}
}

// A check value built without its invariant, or a nil invariant, gives an
// error result, never a panic.
func TestNilInvariant(t *testing.T) {
	sc := testScenario()
	in := &Input{Scenario: sc, Gen: genAt(sc, 12, false), Raw: mustJSON(t, goldSummary())}
	for _, c := range []Check{ConstraintCheck{}, RefutedHypothesisCheck{}, ArtifactCheck{}, PendingOperationCheck{}, CorrectionCheck{}, QuantityCheck{}, SecretCheck{}, ForInvariant(nil)} {
		res := c.Check(in)
		if len(res) != 1 || res[0].Status != result.Error || res[0].Message == "" {
			t.Errorf("%T: %+v; want one error result", c, res)
		}
	}
}
