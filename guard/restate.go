package guard

import (
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/quantity"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// maxQuote bounds a quote of the history, in characters.
const maxQuote = 300

// quote is what the event says of the invariant: the sentence its
// patterns find, else the event's text, cut to maxQuote.
func quote(inv scenarios.Invariant, ev scenarios.Event) string {
	return clip.String(sentenceOf(ev, patternsOf(inv)), maxQuote)
}

// patternsOf is the patterns that find an invariant in text.
func patternsOf(inv scenarios.Invariant) []string {
	switch v := scenarios.Pointer(inv).(type) {
	case *scenarios.Constraint:
		return v.Match
	case *scenarios.RefutedHypothesis:
		return v.Match
	case *scenarios.Quantity:
		return v.Match
	}
	return nil
}

// sentenceOf is the first sentence of the event that one of patterns
// finds, or its whole text when none does (or there are none).
func sentenceOf(ev scenarios.Event, patterns []string) string {
	text := ev.Text
	if c := ev.ToolCall; c != nil {
		text = strings.TrimSpace(text + "\n" + c.Name + " " + transcript.Args(c.Args))
	}
	if r := ev.ToolResult; r != nil {
		text = strings.TrimSpace(text + "\n" + r.Text)
	}
	for _, s := range sentences(text) {
		folded := strings.ToLower(textmatch.Fold(s))
		if _, _, ok := textmatch.FindAny(patterns, folded); ok {
			return strings.TrimSpace(s)
		}
	}
	return strings.Join(strings.Fields(text), " ")
}

// sentences splits text after each ".", "!" or "?" followed by a space,
// and at line breaks.
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := c == '\n' || (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ')
		if end {
			if s := strings.TrimSpace(text[start : i+1]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// restate says an invariant again, from its source events, in words an
// agent reads after its compaction: what holds, and where the history
// says so. A type this function does not know is restated by quoting
// the events its evidence is in (scenarios.EvidenceSeqs).
func restate(sc *scenarios.Scenario, inv scenarios.Invariant) string {
	at := func(seq int, pats []string) string {
		ev, ok := eventAt(sc, seq)
		if !ok {
			return fmt.Sprintf("(seq %d)", seq)
		}
		return fmt.Sprintf("(the %s, seq %d): %q", ev.Role, seq, clip.String(sentenceOf(ev, pats), maxQuote))
	}
	switch v := scenarios.Pointer(inv).(type) {
	case *scenarios.Constraint:
		s := "A rule still in force " + at(v.SourceSeq, v.Match)
		if len(v.Target) > 0 {
			s += "; it applies to " + strings.Join(v.Target, ", ")
		}
		return s
	case *scenarios.RefutedHypothesis:
		return "Ruled out, do not pursue it again: the idea " + at(v.HypothesisSeq, v.Match) + " was refuted " + at(v.RefutedBySeq, v.Conclusion)
	case *scenarios.PendingOperation:
		what := v.OpID
		if ev, ok := eventAt(sc, v.CallSeq); ok && ev.ToolCall != nil {
			what = fmt.Sprintf("%s (%s %s)", v.OpID, ev.ToolCall.Name, clip.String(transcript.Args(ev.ToolCall.Args), 160))
		}
		return fmt.Sprintf("The operation %s, called at seq %d, has no result: it is unfinished. Do not report it done; check its real state before running it again.", what, v.CallSeq)
	case *scenarios.Correction:
		return fmt.Sprintf("Corrected by the %s at seq %d: %s is %s, not %s.", roleAt(sc, v.SourceSeq), v.SourceSeq, v.Subject, v.New, v.Old)
	case *scenarios.Artifact:
		var others []string
		for _, p := range v.Paths {
			if !contains(v.Required, p) {
				others = append(others, p)
			}
		}
		s := "The file to act on is " + strings.Join(v.Required, " and ") + "."
		if len(others) > 0 {
			s += " " + strings.Join(others, ", ") + " " + map[bool]string{true: "is a lookalike", false: "are lookalikes"}[len(others) == 1] + ", not the live file."
		}
		return s
	case *scenarios.Quantity:
		s := "The figure " + quantity.Format(v.Value, v.Unit) + " still holds"
		if len(v.Match) > 0 {
			s += " (" + strings.Join(v.Match, ", ") + ")"
		}
		return s + "."
	case *scenarios.Secret:
		return fmt.Sprintf("The summary copied the secret %s: never repeat it, in a reply, a command or a file.", v.ID)
	}
	var parts []string
	for _, seq := range scenarios.EvidenceSeqs(inv) {
		parts = append(parts, at(seq, nil))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("The %s %s still holds.", inv.Type(), inv.InvariantID())
	}
	return fmt.Sprintf("The %s %s still holds, as %s says.", inv.Type(), inv.InvariantID(), strings.Join(parts, " and "))
}

func roleAt(sc *scenarios.Scenario, seq int) string {
	if ev, ok := eventAt(sc, seq); ok {
		return string(ev.Role)
	}
	return "event"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
