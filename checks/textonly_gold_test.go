package checks

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"
)

// textOnlyOf renders a structured gold summary as the text-only summary a
// faithful summarizer that writes prose would give: the same content, one
// sentence per entry, each saying what the entry's structure said (a rule
// as a rule, a correction as "now X; it replaces Y", a refuted hypothesis
// under "Ruled out", a pending operation with its unknown outcome, an
// artifact with its status).
func textOnlyOf(t *testing.T, raw json.RawMessage) json.RawMessage {
	t.Helper()
	var s summary.Summary
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	var b []string
	add := func(format string, args ...any) {
		line := strings.TrimRight(fmt.Sprintf(format, args...), ". ")
		b = append(b, line+".")
	}
	cite := func(seq int) string {
		if seq == 0 {
			return ""
		}
		return fmt.Sprintf(" (#%d)", seq)
	}
	if s.Goal != "" {
		add("Goal: %s", s.Goal)
	}
	for _, c := range s.Constraints {
		add("Rule from the user%s: %s", cite(c.SourceSeq), c.Text)
	}
	for _, c := range s.Corrections {
		if c.Supersedes != "" {
			add("Correction%s: the %s is now %s; it replaces %s", cite(c.SourceSeq), c.Subject, c.Value, c.Supersedes)
		} else {
			add("Correction%s: the %s is now %s", cite(c.SourceSeq), c.Subject, c.Value)
		}
	}
	for _, v := range s.Verified {
		add("Verified%s: %s", cite(v.SourceSeq), v.Claim)
	}
	for _, h := range s.Hypotheses {
		switch h.Status {
		case summary.HypothesisRefuted:
			add("Ruled out at #%d: %s", h.ResolvedBy, h.Claim)
		case summary.HypothesisConfirmed:
			add("Confirmed at #%d: %s", h.ResolvedBy, h.Claim)
		default:
			add("Open hypothesis: %s", h.Claim)
		}
	}
	for _, d := range s.Decisions {
		add("Decision%s: %s", cite(d.SourceSeq), d.Text)
	}
	for _, p := range s.Pending {
		add("Pending, outcome %s: %s%s: %s", p.Status, p.OpID, cite(p.SourceSeq), p.Description)
	}
	for _, a := range s.Artifacts {
		d := ""
		if a.Digest != "" {
			d = " (" + a.Digest + ")"
		}
		switch a.Status {
		case "":
			add("File: %s%s", a.Path, d)
		case "current":
			add("Live file, the one in use: %s%s", a.Path, d)
		default:
			add("File %s%s is %s", a.Path, d, a.Status)
		}
	}
	for _, e := range s.Errors {
		r := ""
		if e.Resolution != "" {
			r = " (" + e.Resolution + ")"
		}
		add("Error%s: %s%s", cite(e.SourceSeq), e.Text, r)
	}
	for _, n := range s.NextSteps {
		add("Next: %s", n)
	}
	for _, line := range typedStateLines(s, cite) {
		add("%s", line)
	}
	if s.Text != "" {
		b = append(b, s.Text)
	}
	out, err := json.Marshal(summary.Summary{SchemaVersion: s.SchemaVersion, CoversThrough: s.CoversThrough, Text: strings.Join(b, "\n")})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The gold summaries, each rendered as a faithful text-only summary, pass
// every check on every generation (issue 10: a faithful summary draws zero
// failures, structured or text-only).
func TestGoldTextOnlyPassesEveryCheck(t *testing.T) {
	byID := builtinByID(t)
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	found := 0
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			g, ok := readGold(t, id)
			if !ok {
				t.Skipf("no gold summary testdata/gold/%s.json yet", id)
			}
			found++
			for n := 1; n <= len(g.Generations); n++ {
				raw := textOnlyOf(t, g.Generations[n-1].Summary)
				in := goldInput(t, byID[id], g, n, raw)
				for _, r := range Run(in) {
					if r.Status != result.Pass && r.Status != result.Skip {
						t.Errorf("generation %d (cut %d): %s/%s: %s: %s %+v", n, in.Gen.Cut, r.Check, r.Invariant, r.Status, r.Message, r.Evidence)
					}
				}
			}
		})
	}
	if found == 0 {
		t.Error("no gold summaries found: nothing was checked")
	}
}

// typedStateLines renders contract 1.3's approvals and handoff as the
// sentences a faithful text-only summary writes.
func typedStateLines(s summary.Summary, cite func(int) string) []string {
	var out []string
	for _, a := range s.Approvals {
		var parts []string
		for _, p := range [][2]string{{"by ", a.Approver}, {"for ", a.Scope}, {"tied to ", a.Resource}, {"until ", a.Expires}} {
			if p[1] != "" {
				parts = append(parts, p[0]+p[1])
			}
		}
		what := strings.Join(parts, ", ")
		if a.Status != "" && a.Status != summary.ApprovalValid {
			out = append(out, fmt.Sprintf("The approval%s %s is %s since #%d: it no longer holds, a new approval is needed", cite(a.SourceSeq), what, a.Status, a.InvalidatedBy))
			continue
		}
		out = append(out, fmt.Sprintf("Approval%s, valid: %s. Approved %s", cite(a.SourceSeq), strings.TrimRight(a.Text, ". "), what))
	}
	if h := s.Handoff; h != nil {
		out = append(out, fmt.Sprintf("Handoff from session %s%s: %s", h.PreviousSession, cite(h.SourceSeq), h.Reason))
		if len(h.ApprovedArtifacts) > 0 {
			out = append(out, "Approved for use: "+strings.Join(h.ApprovedArtifacts, ", "))
		}
		if len(h.Unresolved) > 0 {
			out = append(out, "Unresolved, no result: "+strings.Join(h.Unresolved, ", "))
		}
	}
	return out
}
