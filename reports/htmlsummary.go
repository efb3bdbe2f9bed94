package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/summary"
)

// UnitAnchor is the id of a unit's drill-down in the HTML report (and of
// its row when it has none): stable across renderings and runs, so that a
// link from another page (compact-eval view's diff) opens the same unit of
// another run. It is a digest: scenario ids and summarizer names may hold
// any character.
func UnitAnchor(scenario, summarizer string, trial int) string {
	h := sha256.Sum256([]byte(scenario + "\x00" + summarizer + "\x00" + strconv.Itoa(trial)))
	return "u-" + hex.EncodeToString(h[:6])
}

// checkAnchor is the id of the j-th check of generation n in a unit's
// drill-down; probeAnchor of its k-th probe.
func checkAnchor(unit string, n, j int) string { return fmt.Sprintf("%s-g%d-c%d", unit, n, j) }
func probeAnchor(unit string, k int) string    { return fmt.Sprintf("%s-p%d", unit, k) }

// findingAnchor is where a failure's link leads: its check or probe in the
// unit's drill-down, or the unit (its error, or a unit shown as a row).
func findingAnchor(u *result.Unit, f Finding, drill bool) string {
	unit := UnitAnchor(u.Scenario.ID, u.Summarizer, u.Trial)
	if !drill {
		return unit
	}
	if f.Check == result.CheckDecisions {
		for k, p := range u.Probes {
			if p.ID == f.Name {
				return probeAnchor(unit, k)
			}
		}
		return unit
	}
	for _, g := range u.Generations {
		if g.N != f.Generation {
			continue
		}
		for j, c := range g.Checks {
			if c.Check == f.Check && c.Invariant == f.Name && (c.Status == result.Fail || c.Status == result.Error) {
				return checkAnchor(unit, g.N, j)
			}
		}
	}
	return unit
}

// SummarySection is one part of a summary as a reader sees it: the
// constraints, the verified facts, … each item with what the checks said
// of it.
type SummarySection struct {
	Title string
	Items []SummaryItem
	// Pre keeps the text's line breaks (the free text of the summary).
	Pre bool
}

// SummaryItem is one entry of a SummarySection: its text (escaped, the
// evidence texts in <mark>), the class of the checks whose evidence points
// at it (fail, else pass; "" for none) and their labels and statuses as
// its title.
type SummaryItem struct {
	Class, Title string
	HTML         template.HTML
	// Meta is what the item says besides its text: status, source event.
	Meta string
	// Pointer is the item's JSON pointer in the summary (/constraints/0).
	Pointer string
}

// SummarySections renders a summary document as sections (nil when it is
// not a summary document: the raw JSON is shown alone). Items that a
// check's evidence points at are marked as SummaryLines marks lines.
func SummarySections(raw json.RawMessage, cs []result.CheckResult) []SummarySection {
	if len(raw) == 0 {
		return nil
	}
	var s summary.Summary
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil
	}
	var out []SummarySection
	item := func(ptr, text, meta string) SummaryItem {
		it := SummaryItem{Meta: meta, Pointer: ptr}
		it.Class, it.Title, it.HTML = markEvidence(ptr, text, cs)
		return it
	}
	seq := func(n int) string {
		if n == 0 {
			return ""
		}
		return "#" + strconv.Itoa(n)
	}
	meta := func(parts ...string) string {
		var keep []string
		for _, p := range parts {
			if p != "" {
				keep = append(keep, p)
			}
		}
		return strings.Join(keep, " · ")
	}
	add := func(title string, items []SummaryItem) {
		if len(items) > 0 {
			out = append(out, SummarySection{Title: title, Items: items})
		}
	}
	if s.Goal != "" {
		add("Goal", []SummaryItem{item("/goal", s.Goal, "")})
	}
	statements := func(name, title string, xs []summary.Statement) {
		var items []SummaryItem
		for i, x := range xs {
			items = append(items, item(fmt.Sprintf("/%s/%d", name, i), x.Text, seq(x.SourceSeq)))
		}
		add(title, items)
	}
	var items []SummaryItem
	for i, x := range s.Constraints {
		fields := []string{x.Status}
		for _, f := range [][2]string{{"target", x.Target}, {"scope", x.Scope}, {"condition", x.Condition}, {"expires", x.Expires}} {
			if f[1] != "" {
				fields = append(fields, f[0]+" "+f[1])
			}
		}
		items = append(items, item(fmt.Sprintf("/constraints/%d", i), x.Text, meta(append(fields, seq(x.SourceSeq))...)))
	}
	add("Constraints", items)
	for _, sec := range approvalSections(&s, item, meta, seq) {
		add(sec.Title, sec.Items)
	}
	items = nil
	for i, x := range s.Verified {
		items = append(items, item(fmt.Sprintf("/verified/%d", i), x.Claim, seq(x.SourceSeq)))
	}
	add("Verified facts", items)
	statements("decisions", "Decisions", s.Decisions)
	items = nil
	for i, x := range s.Hypotheses {
		resolved := ""
		if x.ResolvedBy != 0 {
			resolved = "resolved by #" + strconv.Itoa(x.ResolvedBy)
		}
		items = append(items, item(fmt.Sprintf("/hypotheses/%d", i), x.Claim, meta(orDefault(x.Status, "status not said"), resolved, seq(x.SourceSeq))))
	}
	add("Hypotheses", items)
	items = nil
	for i, x := range s.Pending {
		text := x.Description
		if x.OpID != "" {
			text = x.OpID + ": " + text
		}
		items = append(items, item(fmt.Sprintf("/pending/%d", i), text, meta(orDefault(x.Status, "status not said"), seq(x.SourceSeq))))
	}
	add("Pending operations", items)
	items = nil
	for i, x := range s.Artifacts {
		items = append(items, item(fmt.Sprintf("/artifacts/%d", i), x.Path, meta(orDefault(x.Status, "status not said"), x.Digest, seq(x.SourceSeq))))
	}
	add("Artifacts", items)
	items = nil
	for i, x := range s.Corrections {
		text := x.Value
		if x.Subject != "" {
			text = x.Subject + ": " + text
		}
		was := ""
		if x.Supersedes != "" {
			was = "replaces " + strconv.Quote(x.Supersedes)
		}
		items = append(items, item(fmt.Sprintf("/corrections/%d", i), text, meta(was, seq(x.SourceSeq))))
	}
	add("Corrections", items)
	items = nil
	for i, x := range s.Errors {
		res := ""
		if x.Resolution != "" {
			res = "resolution: " + x.Resolution
		}
		items = append(items, item(fmt.Sprintf("/errors/%d", i), x.Text, meta(res, seq(x.SourceSeq))))
	}
	add("Errors", items)
	items = nil
	for i, x := range s.NextSteps {
		items = append(items, item(fmt.Sprintf("/next_steps/%d", i), x, ""))
	}
	add("Next steps", items)
	if s.Text != "" {
		out = append(out, SummarySection{Title: "Text", Pre: true, Items: []SummaryItem{item("/text", s.Text, "")}})
	}
	if len(s.Extensions) > 0 {
		items = nil
		for k, v := range s.Extensions {
			items = append(items, item("/extensions/"+pointerEscape(k), k+": "+string(v), ""))
		}
		sortItems(items)
		add("Extensions (the summarizer's own; the agent never sees them)", items)
	}
	return out
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func sortItems(items []SummaryItem) {
	for i := 1; i < len(items); i++ {
		for j := i; j > 0 && items[j].HTML < items[j-1].HTML; j-- {
			items[j], items[j-1] = items[j-1], items[j]
		}
	}
}

// markEvidence is the class (fail or pass), the title (the checks) and
// the escaped text, evidence marked, of the summary value at ptr.
func markEvidence(ptr, text string, cs []result.CheckResult) (class, title string, body template.HTML) {
	var titles []string
	marked := map[string]bool{}
	esc := template.HTMLEscapeString(text)
	for _, c := range cs {
		for _, e := range c.Evidence {
			if e.Pointer == "" || !(ptr == e.Pointer || strings.HasPrefix(ptr, e.Pointer+"/") || strings.HasPrefix(e.Pointer, ptr+"/")) {
				continue
			}
			label := c.Check
			if c.Invariant != "" {
				label += "/" + c.Invariant
			}
			titles = append(titles, label+": "+string(c.Status))
			switch {
			case c.Status == result.Fail:
				class = "fail"
			case class == "":
				class = "pass"
			}
			if e.Text != "" && !marked[e.Text] {
				marked[e.Text] = true
				t := template.HTMLEscapeString(e.Text)
				esc = strings.ReplaceAll(esc, t, "<mark>"+t+"</mark>")
			}
		}
	}
	return class, strings.Join(titles, "; "), template.HTML(esc)
}

// approvalSections renders contract 1.3's approvals and handoff, with the
// helpers of summarySections.
func approvalSections(s *summary.Summary, item func(ptr, text, meta string) SummaryItem, meta func(...string) string, seq func(int) string) []SummarySection {
	var out []SummarySection
	var items []SummaryItem
	for i, x := range s.Approvals {
		fields := []string{orDefault(x.Status, "valid")}
		for _, f := range [][2]string{{"by", x.Approver}, {"scope", x.Scope}, {"tied to", x.Resource}, {"expires", x.Expires}} {
			if f[1] != "" {
				fields = append(fields, f[0]+" "+f[1])
			}
		}
		if x.InvalidatedBy != 0 {
			fields = append(fields, "ended by #"+strconv.Itoa(x.InvalidatedBy))
		}
		items = append(items, item(fmt.Sprintf("/approvals/%d", i), x.Text, meta(append(fields, seq(x.SourceSeq))...)))
	}
	if len(items) > 0 {
		out = append(out, SummarySection{Title: "Approvals", Items: items})
	}
	if h := s.Handoff; h != nil {
		items = []SummaryItem{item("/handoff/previous_session", "continues session "+h.PreviousSession, seq(h.SourceSeq))}
		if h.Reason != "" {
			items = append(items, item("/handoff/reason", "why: "+h.Reason, ""))
		}
		for i, a := range h.ApprovedArtifacts {
			items = append(items, item(fmt.Sprintf("/handoff/approved_artifacts/%d", i), a, "approved"))
		}
		for i, u := range h.Unresolved {
			items = append(items, item(fmt.Sprintf("/handoff/unresolved/%d", i), u, "unresolved"))
		}
		out = append(out, SummarySection{Title: "Handoff", Items: items})
	}
	return out
}
