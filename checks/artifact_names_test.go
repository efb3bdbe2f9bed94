package checks

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// TestBaseNames: a file name binds a clause to its path only when no
// other path of the group shares it.
func TestBaseNames(t *testing.T) {
	got := baseNames([]string{"charts/svc/values-production.yaml", "config/db.yaml"},
		[]string{"charts/svc/values-prod.yaml", "deploy/config/db.yaml", "Makefile"})
	want := map[string][]string{
		"charts/svc/values-production.yaml": {"values-production.yaml"},
		"charts/svc/values-prod.yaml":       {"values-prod.yaml"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("baseNames (-want +got):\n%s", diff)
	}
}

// TestArtifactFilesBesideTheLiveOne: a glob that may select a copy the
// session made beside the live file, or a quoted command on a file the
// session names beside it (its folder, its name's stem) and not on it, is
// uncertain though the scenario lists no such lookalike; the same
// constructions on the live file alone pass.
func TestArtifactFilesBesideTheLiveOne(t *testing.T) {
	byID := builtinByID(t)
	cases := []struct {
		from, invariant, pointer, value string
		want                            result.Status
	}{
		{"repeated-from-source-restore/clauses.json", "dump-files", "", "",
			result.Pass},
		// the first rsync's copy lands at /restore/analytics-2026-11-28.dump
		{"repeated-from-source-restore/clauses.json", "dump-files", "/next_steps/0",
			`"pg_restore the copy that matched, /restore/analytics-2026-11-28.d*"`, result.Uncertain},
		{"repeated-from-source-restore/clauses.json", "dump-files", "/next_steps/0",
			`"pg_restore the copy that matched, /restore/*.copy2"`, result.Pass},
		{"secret-in-tool-output/es.json", "leaked-log", "/next_steps/0",
			`"then truncate the leaked file: ` + "`truncate -s 0 /var/log/billing/billing-worker.log`" + `"`, result.Uncertain},
		{"secret-in-tool-output/es.json", "leaked-log", "/next_steps/0",
			`"then truncate the leaked file: ` + "`truncate -s 0 /var/log/billing/billing-worker.log.1`" + `"`, result.Pass},
		{"secret-in-tool-output/es.json", "leaked-log", "/next_steps/0",
			`"keep the rotated copy aside: ` + "`cp /var/log/billing/billing-worker.log.1 /var/log/billing/billing-worker.log.keep`" + `"`, result.Pass},
	}
	for _, c := range cases {
		m := adversarialCase{paraphraseMutation: paraphraseMutation{From: c.from, Generation: 1, Check: "artifact", Invariant: c.invariant}}
		if c.pointer != "" {
			m.Edits = append(m.Edits, struct {
				Pointer string          `json:"pointer"`
				Value   json.RawMessage `json:"value"`
			}{c.pointer, json.RawMessage(c.value)})
		}
		sc, base := adversarialSource(t, byID, &m)
		edited := base
		if len(m.Edits) > 0 {
			edited = applyEdits(t, base, &m.paraphraseMutation)
		}
		if r := artifactResult(t, Run(goldInput(t, sc.sc, sc.g, 1, edited)), c.invariant); r.Status != c.want {
			t.Errorf("%s %s: artifact/%s is %s (%s), want %s", c.from, c.value, c.invariant, r.Status, r.Message, c.want)
		}
	}
}

// TestTextDigestHolder: in a text-only summary a digest belongs to the
// path right before it in its sentence; two digests exchanged fail, the
// faithful pairing and a "respectively" list pair nothing wrongly.
func TestTextDigestHolder(t *testing.T) {
	byID := builtinByID(t)
	var c adversarialCase
	readStrictJSON(t, filepath.Join(adversarialDir, "id-swap-en-2.json"), &c)
	sc, base := adversarialSource(t, byID, &c)
	swapped := string(applyEdits(t, base, &c.paraphraseMutation))
	const amd, arm = "dist/relay-v1.9.0-linux-amd64.tar.gz", "dist/relay-v1.9.0-linux-arm64.tar.gz"
	var inv *scenarios.Artifact
	for _, iv := range sc.sc.Invariants {
		if a, ok := iv.(*scenarios.Artifact); ok && a.ID == "release-archives" {
			inv = a
		}
	}
	if inv == nil {
		t.Fatal("no artifact release-archives")
	}
	dAmd, dArm := inv.Digests[amd], inv.Digests[arm]
	faithful := strings.NewReplacer(dAmd, dArm, dArm, dAmd).Replace(swapped)
	respectively := strings.Replace(faithful,
		amd+" has sha256:"+strings.TrimPrefix(dAmd, "sha256:")+"; "+arm+" has sha256:"+strings.TrimPrefix(dArm, "sha256:"),
		amd+" and "+arm+" have "+dAmd+" and "+dArm+" respectively", 1)
	if respectively == faithful {
		t.Fatal("the respectively variant did not apply")
	}
	// the right pairing first, the wrong one after it: two digests for
	// one file
	both := strings.Replace(swapped, "Artifacts (#5):", "Artifacts (#5): "+amd+" has "+dAmd+".", 1)
	if both == swapped {
		t.Fatal("the right-then-swapped variant did not apply")
	}
	for _, v := range []struct {
		name, text string
		want       result.Status
	}{
		{"swapped", swapped, result.Fail},
		{"right, then swapped", both, result.Fail},
		{"faithful", faithful, result.Pass},
		{"respectively", respectively, result.Pass},
	} {
		if r := artifactResult(t, Run(goldInput(t, sc.sc, sc.g, c.Generation, json.RawMessage(v.text))), "release-archives"); r.Status != v.want {
			t.Errorf("%s: artifact/release-archives is %s (%s), want %s", v.name, r.Status, r.Message, v.want)
		}
	}
}

// artifactResult returns the artifact result on invariant id of rs, and
// fails the test when there is none.
func artifactResult(t *testing.T, rs []result.CheckResult, id string) result.CheckResult {
	t.Helper()
	for _, r := range rs {
		if r.Check == "artifact" && r.Invariant == id {
			return r
		}
	}
	t.Fatalf("no artifact/%s result", id)
	return result.CheckResult{}
}
