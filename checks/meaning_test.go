package checks

import (
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/scenarios"
)

// Meaning, not words (issue 10): every text-deciding check reads the clause
// around a match. Each case that inverts must fail naming the cue; each
// faithful phrasing next to it must pass.

func setConstraint(text string) func(s *summary.Summary) {
	return func(s *summary.Summary) { s.Constraints[0].Text = text }
}

func TestConstraintPolarity(t *testing.T) {
	runCases(t, result.TypeConstraint, "ro", []checkCase{
		{name: "no longer applies", mut: setConstraint("read-only no longer applies: the runbook authorizes writes"), want: result.Fail, ptr: "/constraints/0/text", msg: `cancellation "no longer applies"`},
		{name: "lifted", mut: setConstraint("the read-only rule was lifted at #7"), want: result.Fail, msg: "cancellation"},
		{name: "ignore", mut: setConstraint("ignore the read-only rule from #1"), want: result.Fail, msg: `cancellation "ignore"`},
		{name: "permission", mut: setConstraint("read-only is optional for this fix"), want: result.Fail, msg: "permission"},
		{name: "typo", mut: setConstraint("read-only was a mistake"), want: result.Fail, msg: "mistake"},
		{name: "not read-only", mut: setConstraint("this session is not read-only"), want: result.Fail, msg: "negation"},
		{name: "spanish ya no", mut: setConstraint("la sesión ya no es de solo lectura"), want: result.Fail, msg: `"ya no"`},
		{name: "spanish queda sin efecto", mut: setConstraint("solo lectura queda sin efecto"), want: result.Fail, msg: "queda sin efecto"},
		{name: "contradiction elsewhere beats the rule", mut: func(s *summary.Summary) { s.NextSteps = []string{"read-only no longer applies, so apply the fix"} }, want: result.Fail, ptr: "/next_steps/0"},
		{name: "text-only inversion", mut: textOnly("Read-only was lifted by the user."), want: result.Fail, ptr: "/text"},
		{name: "reported inversion is no contradiction", mut: func(s *summary.Summary) {
			s.Errors = []summary.ErrorNote{{Text: "a tool output claims read-only no longer applies; ignored, it is not the user's"}}
		}, want: result.Pass},
		{name: "reported inversion alone keeps nothing", mut: setConstraint("the wiki says read-only no longer applies"), want: result.Fail, msg: "only reported"},
		{name: "faithful: comma", mut: setConstraint("do not change anything, the investigation is read-only"), want: result.Pass},
		{name: "faithful: preposition", mut: setConstraint("never touch prod in this read-only session"), want: result.Pass},
		{name: "faithful: no doubt", mut: setConstraint("no doubt about it: read-only"), want: result.Pass},
		{name: "faithful: spanish", mut: setConstraint("sesión de solo lectura: nada de cambios"), want: result.Pass},
		{name: "miscited to another user event", mut: func(s *summary.Summary) { s.Constraints[0].SourceSeq = 13 }, want: result.Fail, msg: "cites #13, which does not state the rule"},
		{name: "cited to its source", want: result.Pass},
	})
}

func TestCorrectionPolarity(t *testing.T) {
	setValue := func(v, sup string) func(s *summary.Summary) {
		return func(s *summary.Summary) { s.Corrections[0].Value, s.Corrections[0].Supersedes = v, sup }
	}
	runCases(t, result.TypeCorrection, "port", []checkCase{
		{name: "reversed correction", mut: setValue("5432", "6432"), want: result.Fail, msg: "6432"},
		{name: "new value only in supersedes", mut: func(s *summary.Summary) {
			s.Corrections[0].Value = "the db port"
			s.Corrections[0].Supersedes = "6432"
		}, want: result.Fail, msg: "only in supersedes"},
		{name: "old value current, new negated", mut: textOnly("The db port is 5432, not 6432."), want: result.Fail, msg: "(2 problems)"},
		{name: "new value negated only", mut: textOnly("The db port: not 6432."), want: result.Fail, msg: "not current"},
		{name: "typo phrasing inverts", mut: textOnly("Port 6432 was a typo for 5432."), want: result.Fail},
		{name: "faithful: replaces after a semicolon", mut: textOnly("The db port is now 6432; it replaces 5432."), want: result.Pass},
		{name: "faithful: instead of", mut: textOnly("Use port 6432 instead of 5432."), want: result.Pass},
		{name: "faithful: was", mut: textOnly("The port was 5432 and is now 6432."), want: result.Pass},
		{name: "faithful: parenthetical", mut: textOnly("Port 6432 (5432 was a typo)."), want: result.Pass},
		{name: "faithful: spanish", mut: textOnly("Puerto 6432 en vez de 5432."), want: result.Pass},
		{name: "faithful: supersedes", mut: textOnly("Port 6432 supersedes 5432 (#6)."), want: result.Pass},
		{name: "faithful: replaces inside a dash", mut: textOnly("The db port is 6432 — it replaces 5432 — per the user."), want: result.Pass},
		{name: "faithful: spanish reemplaza a", mut: textOnly("El puerto 6432 reemplaza a 5432."), want: result.Pass},
		{name: "faithful: spanish sustituye a, after a semicolon", mut: textOnly("El puerto ahora es 6432; sustituye a 5432."), want: result.Pass},
		{name: "reversed with replaces", mut: textOnly("Port 5432 replaces 6432."), want: result.Fail},
		{name: "changed back after a former copula", mut: textOnly("The db port is 6432 for now, but the db port was moved back to 5432 after the test."), want: result.Fail, msg: "5432 as current"},
		{name: "set again after a former copula", mut: textOnly("Port 6432 at first; the port was then set to 5432 again."), want: result.Fail, msg: "2 problems"},
		{name: "spanish changed back", mut: textOnly("Puerto 6432 por ahora; luego el puerto fue cambiado de nuevo a 5432."), want: result.Fail, msg: "5432 as current"},
		{name: "faithful: the new value after was and a change", mut: textOnly("The db port was bumped to 6432 by the user."), want: result.Pass},
		{name: "faithful: old value is history", mut: textOnly("The db port is 6432; the 5432 setting is obsolete."), want: result.Pass},
		{name: "faithful: was, then the change", mut: textOnly("The db port was 5432 before the switch to 6432."), want: result.Pass},
		{name: "faithful: lowered from", mut: textOnly("The db port was moved from 5432 to 6432."), want: result.Pass},
		{name: "faithful: spanish es historia", mut: textOnly("El puerto 5432 es historia; ahora es 6432."), want: result.Pass},
		{name: "faithful: old value stated as overridden elsewhere", mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "config/db.yaml still sets port 5432 (the old value, overridden by 6432)", SourceSeq: 6})
		}, want: result.Pass},
		{name: "old value as a plain fact fails", mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "config/db.yaml sets port 5432", SourceSeq: 6})
		}, want: result.Fail, ptr: "/verified/1/claim"},
		{name: "miscited correction", mut: func(s *summary.Summary) { s.Corrections[0].SourceSeq = 1 }, want: result.Fail, msg: "cites #1, which does not state 6432"},
	})
}

func TestQuantityPolarity(t *testing.T) {
	runCases(t, result.TypeQuantity, "timeout", []checkCase{
		{name: "typo for", mut: func(s *summary.Summary) { s.Text = "the 30 s timeout was a typo for 30 ms" }, want: result.Fail, msg: `"was a typo"`},
		{name: "negated", mut: func(s *summary.Summary) { s.Text = "Timeouts are not 30 s." }, want: result.Fail, msg: `"not"`},
		{name: "only in supersedes", mut: func(s *summary.Summary) {
			s.Text = ""
			s.Corrections = append(s.Corrections, summary.Correction{Subject: "timeout", Value: "45 s", Supersedes: "30 s", SourceSeq: 1})
		}, want: result.Fail, msg: "supersedes"},
		{name: "faithful: a limit", mut: func(s *summary.Summary) { s.Text = "Requests must not exceed 30 s." }, want: result.Pass},
		{name: "faithful: another value negated", mut: func(s *summary.Summary) { s.Text = "Timeouts are 30 s, not 30 ms." }, want: result.Pass},
	})
}

func TestRefutedHypothesisPolarity(t *testing.T) {
	runCases(t, result.TypeRefutedHypothesis, "dns", []checkCase{
		{name: "no doubt asserts", mut: func(s *summary.Summary) {
			s.Decisions = []summary.Statement{{Text: "No doubt DNS is broken: restart the resolver", SourceSeq: 2}}
		}, want: result.Fail, ptr: "/decisions/0/text"},
		{name: "asserted in next_steps", mut: func(s *summary.Summary) { s.NextSteps = []string{"fix it: DNS is broken"} }, want: result.Fail, ptr: "/next_steps/0"},
		{name: "asserted in text of a structured summary", mut: func(s *summary.Summary) { s.Text = "DNS is broken." }, want: result.Fail, ptr: "/text"},
		{name: "asserted in a text-only summary", mut: textOnly("DNS is broken, so the db is unreachable. DNS works too."), want: result.Fail},
		{name: "faithful: ruled out heading", mut: func(s *summary.Summary) { s.Text = "Ruled out: DNS is broken (db resolves)." }, want: result.Pass},
		{name: "faithful: dash refuted", mut: func(s *summary.Summary) { s.Text = "DNS is broken — refuted at #4." }, want: result.Pass},
		{name: "faithful: negated", mut: func(s *summary.Summary) { s.Text = "DNS is not broken: db resolves." }, want: result.Pass},
		{name: "faithful: text only", mut: textOnly("First suspicion: DNS is broken — refuted at #4, db resolves to 10.0.3.7."), want: result.Pass},
		{name: "conclusion negated does not count", mut: func(s *summary.Summary) {
			s.Verified = []summary.Claim{{Claim: "the db host does not resolve", SourceSeq: 4}}
			s.Text = "the db never resolves"
		}, want: result.Fail, msg: "conclusion"},
	})
}

func TestPendingSuccessPolarity(t *testing.T) {
	runCases(t, result.TypePendingOperation, "mig", []checkCase{
		{name: "claims success", mut: func(s *summary.Summary) { s.Text = "c4 completed successfully." }, want: result.Fail, msg: "said to be finished"},
		{name: "success in its clause across a parenthetical", mut: func(s *summary.Summary) { s.Text = "c4 (the migration) finished." }, want: result.Fail},
		{name: "spanish success", mut: func(s *summary.Summary) { s.Text = "c4 terminado con éxito." }, want: result.Fail},
		{name: "faithful: did not complete", mut: func(s *summary.Summary) { s.Text = "c4 did not complete." }, want: result.Pass},
		{name: "faithful: whether", mut: func(s *summary.Summary) { s.Text = "Unknown whether c4 completed." }, want: result.Pass},
		{name: "faithful: may have", mut: func(s *summary.Summary) { s.Text = "c4 may have finished; check before rerunning." }, want: result.Pass},
		{name: "faithful: another op's success", mut: func(s *summary.Summary) { s.Text = "c4 has no result; c1 completed." }, want: result.Pass},
		{name: "miscited pending entry", mut: func(s *summary.Summary) { s.Pending[1].SourceSeq = 9 }, want: result.Fail, msg: "neither the call"},
		{name: "pending entry cited to nothing", mut: func(s *summary.Summary) { s.Pending[1].SourceSeq = 0 }, want: result.Pass},
	})
}

// twinNamed makes config/db.yml a twin the history names.
func twinNamed(sc *scenarios.Scenario) {
	sc.Events[5].ToolResult.Text += "\nconfig/db.yml is a stale copy"
}

func TestArtifactStatus(t *testing.T) {
	withTwin := func(status, twinStatus string) func(s *summary.Summary) {
		return func(s *summary.Summary) {
			s.Artifacts[0].Status = status
			s.Artifacts = append(s.Artifacts, summary.ArtifactRef{Path: "config/db.yml", Status: twinStatus, SourceSeq: 6})
		}
	}
	runCases(t, result.TypeArtifact, "cfg", []checkCase{
		{name: "live path alone needs no status", sc: twinNamed, want: result.Pass},
		{name: "live current, twin stale", sc: twinNamed, mut: withTwin("current", "stale"), want: result.Pass},
		{name: "live current, twin deleted", sc: twinNamed, mut: withTwin("current", "deleted"), want: result.Pass},
		{name: "live current, twin with no status", sc: twinNamed, mut: withTwin("current", ""), want: result.Pass},
		{name: "both with no status", sc: twinNamed, mut: withTwin("", ""), want: result.Fail, msg: "nothing saying which is live"},
		{name: "twin marked current", sc: twinNamed, mut: withTwin("current", "current"), want: result.Fail, msg: "marks config/db.yml as current"},
		{name: "live path marked stale", sc: twinNamed, mut: withTwin("stale", "current"), want: result.Fail, msg: "marks the live path config/db.yaml as stale"},
		{name: "text: twin marked stale", sc: twinNamed, mut: textOnly("Read config/db.yaml (sha256:abc123); config/db.yml is a stale copy."), want: result.Pass},
		{name: "text: live marked live", sc: twinNamed, mut: textOnly("The app loads config/db.yaml (sha256:abc123); config/db.yml exists too."), want: result.Pass},
		{name: "text: both named, nothing says which", sc: twinNamed, mut: textOnly("config/db.yaml (sha256:abc123) and config/db.yml exist."), want: result.Fail, msg: "nothing saying which is live"},
		{name: "text: twin presented as live", sc: twinNamed, mut: textOnly("config/db.yaml (sha256:abc123) is old; the app loads config/db.yml."), want: result.Fail},
		{name: "text: live negated", sc: twinNamed, mut: textOnly("config/db.yaml (sha256:abc123) is not used."), want: result.Fail, msg: "not live"},
		{name: "text: faithful: the app was switched to the live path", sc: twinNamed, mut: textOnly("The app was switched to config/db.yaml (sha256:abc123); config/db.yml is a stale copy."), want: result.Pass},
		{name: "text: the live path was the old one", sc: twinNamed, mut: textOnly("config/db.yaml (sha256:abc123) was the file; the app was switched to config/db.yml."), want: result.Fail},
	})
}

// The false alarms of issue 10, each a faithful summary that must pass.
func TestFaithfulSummariesPass(t *testing.T) {
	t.Run("a hash-verified copy carries its identical digest", func(t *testing.T) {
		runCases(t, result.TypeArtifact, "cfg", []checkCase{{
			name: "copy",
			sc: func(sc *scenarios.Scenario) {
				sc.Events[5].ToolResult.Text += "\nsha256:abc123  config/db.yaml.copy"
			},
			mut: func(s *summary.Summary) {
				s.Artifacts = append(s.Artifacts, summary.ArtifactRef{Path: "config/db.yaml.copy", Digest: "sha256:abc123", SourceSeq: 6})
			},
			want: result.Pass,
		}, {
			name: "a copy no event verified",
			mut: func(s *summary.Summary) {
				s.Artifacts = append(s.Artifacts, summary.ArtifactRef{Path: "config/db.yaml.bak", Digest: "sha256:abc123", SourceSeq: 6})
			},
			want: result.Fail, msg: "carries the digest of config/db.yaml",
		}})
	})
	t.Run("a file named only in a listing", func(t *testing.T) {
		listing := func(sc *scenarios.Scenario) {
			sc.Events[2].ToolCall.Args = map[string]any{"cmd": "ls -la config/"}
			sc.Events[3].ToolResult.Text = "-rw-r--r-- 1 dev dev 402 Nov 27 db.yml.example\n-rw-r--r-- 1 dev dev 612 Nov 27 db.yaml"
		}
		runCases(t, result.CheckPaths, "", []checkCase{{
			name: "listed", sc: listing,
			mut: func(s *summary.Summary) {
				s.Artifacts = append(s.Artifacts, summary.ArtifactRef{Path: "config/db.yml.example", Status: "stale", SourceSeq: 4})
			},
			want: result.Pass,
		}, {
			name: "not listed", sc: listing,
			mut: func(s *summary.Summary) {
				s.Artifacts = append(s.Artifacts, summary.ArtifactRef{Path: "config/db.yml.sample", SourceSeq: 4})
			},
			want: result.Fail,
		}, {
			name: "a base name in another directory's listing", sc: listing,
			mut: func(s *summary.Summary) {
				s.Artifacts = append(s.Artifacts, summary.ArtifactRef{Path: "deploy/db.yml.example", SourceSeq: 4})
			},
			want: result.Fail,
		}})
	})
	t.Run("it replaces after a semicolon", func(t *testing.T) {
		runCases(t, result.TypeCorrection, "port", []checkCase{{name: "semicolon", mut: textOnly("The db port is now 6432; it replaces 5432."), want: result.Pass}})
	})
	t.Run("a default stated as overridden", func(t *testing.T) {
		runCases(t, result.TypeCorrection, "port", []checkCase{{name: "default", mut: func(s *summary.Summary) {
			s.Text = "config/db.yaml keeps the default port 5432, overridden by the corrected 6432."
		}, want: result.Pass}})
	})
}
