package guard

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteText writes the verdict for a person: the verdict on the first
// line, then the invariants lost, uncertain, kept and not applicable, each
// with where it comes from and why, then the structural checks that
// failed and the compression. The warnings are not written: a caller
// prints them apart (the command, on standard error).
func WriteText(w io.Writer, v *Verdict) error {
	var b strings.Builder
	fmt.Fprintf(&b, "guard: %s: %s\n", strings.ToUpper(string(v.Status)), v.Reason)
	sections := []struct {
		st    Status
		title string
	}{{Lost, "lost"}, {Uncertain, "uncertain"}, {Kept, "kept"}, {NotApplicable, "not applicable (the history before the boundary does not state them)"}}
	for _, sec := range sections {
		first := true
		for _, f := range v.Findings {
			if f.Status != sec.st || f.Origin == OriginStructural {
				continue
			}
			if first {
				b.WriteString(sec.title + ":\n")
				first = false
			}
			b.WriteString("  " + findingLine(f) + "\n")
			if f.Source != "" && f.Status != Kept {
				fmt.Fprintf(&b, "      %s at seq %d: %q\n", f.Role, f.SourceSeq, f.Source)
			}
		}
	}
	first := true
	for _, f := range v.Findings {
		if f.Origin != OriginStructural {
			continue
		}
		if first {
			b.WriteString("structural:\n")
			first = false
		}
		word := map[Status]string{Lost: "failed", Uncertain: "cannot tell"}[f.Status]
		fmt.Fprintf(&b, "  %s %s: %s\n", f.Check, word, f.Message)
	}
	if c := v.Compression; c != nil {
		of := "before the compaction (the log's count)"
		if c.Excerpt {
			of = "in the history's events before the boundary (an excerpt of the context the agent held)"
		}
		fmt.Fprintf(&b, "compression: %d summary tokens / %d %s = %.3f\n", c.SummaryTokens, c.ReplacedTokens, of, c.Ratio)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// findingLine is "constraint-1 · constraint · suggested (confidence 0.74)
// · seq 1 · the check's message".
func findingLine(f Finding) string {
	parts := []string{f.Invariant, f.Check, originText(f)}
	if f.SourceSeq > 0 {
		parts = append(parts, fmt.Sprintf("seq %d", f.SourceSeq))
	}
	msg := f.Message
	if f.DecidedBy != "" && f.Status != NotApplicable {
		msg += " (decided by " + f.DecidedBy + ")"
	}
	return strings.Join(append(parts, msg), " · ")
}

func originText(f Finding) string {
	if f.Confidence != nil {
		return fmt.Sprintf("%s (confidence %.2f)", f.Origin, *f.Confidence)
	}
	return f.Origin
}

// WriteJSON writes the verdict as one indented JSON document
// (docs/guard.md, "The verdict as JSON").
func WriteJSON(w io.Writer, v *Verdict) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Restatement is the text an agent reads back after its compaction: the
// verdict, then every lost invariant and every uncertain one restated
// from the session's own events. "" when nothing is lost or uncertain.
func Restatement(v *Verdict) string {
	var lost, unsure []string
	seen := map[string]bool{}
	for _, f := range v.Findings {
		if f.Restatement == "" || seen[f.Restatement] {
			continue
		}
		seen[f.Restatement] = true
		switch f.Status {
		case Lost:
			lost = append(lost, f.Restatement)
		case Uncertain:
			unsure = append(unsure, f.Restatement)
		}
	}
	var structural []string
	for _, f := range v.Findings {
		if f.Origin == OriginStructural && f.Status == Lost {
			structural = append(structural, f.Check+": "+f.Message)
		}
	}
	if len(lost)+len(unsure)+len(structural) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "compact-eval guard checked the summary of this session's compaction (after seq %d) against the history it replaced. ", v.Boundary)
	n := 1
	if len(lost) > 0 {
		b.WriteString("The summary lost what follows, which still holds, as the session's own events say:\n")
		for _, s := range lost {
			fmt.Fprintf(&b, "%d. %s\n", n, s)
			n++
		}
	}
	if len(unsure) > 0 {
		b.WriteString("The summary may not keep these (the checks cannot tell), restated in case:\n")
		for _, s := range unsure {
			fmt.Fprintf(&b, "%d. %s\n", n, s)
			n++
		}
	}
	if len(structural) > 0 {
		b.WriteString("The summary also says what the history does not:\n")
		for _, s := range structural {
			fmt.Fprintf(&b, "- %s\n", s)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
