package reports_test

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// TestGateNeedsJudgedEvidence: the baseline gate passes only on judged
// outcomes. The fooling input is the summarizer a pull request swaps for
// builtin:none under the same stable name: every summary check skips,
// only the decisions stay judged, and nothing regresses. The honest one is
// a summarizer that moves from a structured summary to plain text, where
// the field-level checks skip: most of the evidence stands.
func TestGateNeedsJudgedEvidence(t *testing.T) {
	lines := func(g reports.GateReport) string { return strings.Join(g.Lines, "\n") }
	structured := map[string]result.Status{"constraint/ro": pass, "correction/port": pass, "schema": pass, "references": pass, "paths": pass}
	base := handResult(
		unitSpec{scenario: "a", summarizer: "ours", checks: structured, probes: map[string]string{"p": result.Kept}},
		unitSpec{scenario: "b", summarizer: "ours", checks: structured, probes: map[string]string{"p": result.Kept}})
	none := map[string]result.Status{"constraint/ro": skip, "correction/port": skip, "schema": skip, "references": skip, "paths": skip}
	swapped := handResult(
		unitSpec{scenario: "a", summarizer: "ours", spec: "builtin:none", checks: none, probes: map[string]string{"p": result.Kept}},
		unitSpec{scenario: "b", summarizer: "ours", spec: "builtin:none", checks: none, probes: map[string]string{"p": result.Kept}})
	g := reports.Gate(swapped, reports.GateOptions{Baseline: base})
	want := "FAIL baseline: summarizer ours: no evidence to pass on: 2 of the 12 outcomes the baseline judged are still judged (17%, below 50%); " +
		"none of its 4 invariants judged in the baseline is judged now; none of its 6 structural checks judged in the baseline is judged now (--allow-unjudged accepts this)"
	if !g.Failed || !strings.Contains(lines(g), want) || strings.Contains(lines(g), "ok   baseline") {
		t.Errorf("a swap to builtin:none held the gate:\n%s\nwant the line\n%s", lines(g), want)
	}
	if !strings.HasPrefix(g.Reason(), "baseline: summarizer ours: no evidence to pass on") {
		t.Errorf("reason %q", g.Reason())
	}
	// --allow-unjudged says so, and the gate holds on what is left.
	g = reports.Gate(swapped, reports.GateOptions{Baseline: base, AllowUnjudged: true})
	if g.Failed || !strings.Contains(lines(g), "note baseline: summarizer ours: no evidence to pass on: 2 of the 12") || !strings.Contains(lines(g), "(allowed by --allow-unjudged)") {
		t.Errorf("--allow-unjudged:\n%s", lines(g))
	}

	text := map[string]result.Status{"constraint/ro": pass, "correction/port": pass, "schema": pass, "references": skip, "paths": skip}
	honest := handResult(
		unitSpec{scenario: "a", summarizer: "ours", checks: text, probes: map[string]string{"p": result.Kept}},
		unitSpec{scenario: "b", summarizer: "ours", checks: text, probes: map[string]string{"p": result.Kept}})
	if g := reports.Gate(honest, reports.GateOptions{Baseline: base}); g.Failed {
		t.Errorf("a summarizer now writing text (8 of 12 still judged) failed the gate:\n%s", lines(g))
	}

	// An opaque summary keeps the structure but no invariant: a kind
	// the baseline judged is gone, whatever the share.
	opaque := map[string]result.Status{"constraint/ro": skip, "correction/port": skip, "schema": pass, "references": pass, "paths": pass}
	r := handResult(
		unitSpec{scenario: "a", summarizer: "ours", checks: opaque, probes: map[string]string{"p": result.Kept}},
		unitSpec{scenario: "b", summarizer: "ours", checks: opaque, probes: map[string]string{"p": result.Kept}})
	if g := reports.Gate(r, reports.GateOptions{Baseline: base}); !g.Failed || !strings.Contains(lines(g), "none of its 4 invariants judged in the baseline is judged now") || strings.Contains(lines(g), "below 50%") {
		t.Errorf("an opaque summary (8 of 12 judged, no invariant):\n%s", lines(g))
	}
	// A stricter share is an option of the library.
	if g := reports.Gate(honest, reports.GateOptions{Baseline: base, MinJudgedShare: 0.9}); !g.Failed || !strings.Contains(lines(g), "8 of the 12 outcomes the baseline judged are still judged (67%, below 90%)") {
		t.Errorf("share 0.9:\n%s", lines(g))
	}
	// Outcomes missing from the run (their units errored) are regressions,
	// not evidence the run judged: two of three units lost leave 6 of 18.
	three := handResult(
		unitSpec{scenario: "a", summarizer: "ours", checks: structured, probes: map[string]string{"p": result.Kept}},
		unitSpec{scenario: "b", summarizer: "ours", checks: structured, probes: map[string]string{"p": result.Kept}},
		unitSpec{scenario: "c", summarizer: "ours", checks: structured, probes: map[string]string{"p": result.Kept}})
	lost := handResult(
		unitSpec{scenario: "a", summarizer: "ours", checks: structured, probes: map[string]string{"p": result.Kept}},
		unitSpec{scenario: "b", summarizer: "ours", err: "summarizer crashed"},
		unitSpec{scenario: "c", summarizer: "ours", err: "summarizer crashed"})
	if g := reports.Gate(lost, reports.GateOptions{Baseline: three}); !strings.Contains(lines(g), "6 of the 18 outcomes the baseline judged are still judged (33%, below 50%)") {
		t.Errorf("outcomes of errored units counted as judged:\n%s", lines(g))
	}
	// The control arm against itself judges what it judged: it holds.
	ctl := handResult(unitSpec{scenario: "a", summarizer: "builtin:none", checks: none, probes: map[string]string{"p": result.Kept}})
	if g := reports.Gate(ctl, reports.GateOptions{Baseline: ctl}); g.Failed {
		t.Errorf("builtin:none against itself failed:\n%s", lines(g))
	}
}
