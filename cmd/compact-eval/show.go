package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/runner"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
	"github.com/compact-eval/compact-eval/summarizers"
)

// showSummarizer places the cuts that --show prints. Explicit cuts (at:)
// and the first token-triggered cut do not depend on the summarizer; later
// token-triggered cuts depend on the size of the summary installed before
// them, so --show says which summarizer placed them.
const showSummarizer = "builtin:extractive"

// showScenario writes the expanded timeline of sc for an author: every
// event with its seq, role, call id, tokens and a filler mark, the cuts
// where a run places them, and the anchors of each invariant and probe
// (the seqs that hold their evidence), marked in the timeline and listed
// after it.
func showScenario(ctx context.Context, w io.Writer, sc *scenarios.Scenario, tokenizer string) error {
	pr, err := runner.Prepare(sc, tokenizer)
	if err != nil {
		return err
	}
	tok := pr.EventTokens()
	total := pr.HeaderTokens()
	for _, t := range tok {
		total += t
	}
	sum, err := summarizers.NewBuiltin(strings.TrimPrefix(showSummarizer, "builtin:"))
	if err != nil {
		return err
	}
	u := pr.Unit(ctx, runner.Summarizer{Name: showSummarizer, Summarizer: sum}, agents.Reference{}, 0,
		func(*checks.Input) []result.CheckResult { return nil })
	red := checks.SecretRedactor(sc)

	fmt.Fprintf(w, "%s (%s): %s, %s tokens (header %d)\n", sc.ID, sc.File, validateCount(len(sc.Events), "event"), thousands(total), pr.HeaderTokens())
	fmt.Fprintf(w, "compaction: %s\n", describeCompaction(sc))

	lastCut := 0
	for _, g := range u.Generations {
		lastCut = max(lastCut, g.Cut)
	}
	anchors, list := showAnchors(sc, lastCut)

	cutAfter := map[int]result.Generation{}
	for _, g := range u.Generations {
		cutAfter[g.Cut] = g
	}
	seqW, callW := len("seq"), len("call")
	for _, e := range append(slices.Clone(sc.Events), sc.Arrivals...) {
		seqW = max(seqW, len(fmt.Sprint(e.Seq)))
		callW = max(callW, len([]rune(callMark(e))))
	}
	row := func(seq, role, call, tokens, text string) {
		fmt.Fprintf(w, "%*s  %-9s  %-*s  %6s  %s\n", seqW, seq, role, callW, call, tokens, text)
	}
	row("seq", "role", "call", "tokens", "text")
	for i, e := range sc.Events {
		text := red.String(eventPreview(e))
		if e.Filler {
			text = "[filler] " + text
		}
		if a := anchors[e.Seq]; len(a) > 0 {
			text += "   ◂ " + strings.Join(a, ", ")
		}
		row(fmt.Sprint(e.Seq), string(e.Role), callMark(e), fmt.Sprint(tok[i]), text)
		if g, ok := cutAfter[e.Seq]; ok {
			fmt.Fprintf(w, "──── cut g%d after seq %d (%s): the summary covers seq 1–%d (%s tokens), sent seq %d–%d ────\n",
				g.N, g.Cut, g.Trigger, g.Cut, thousands(g.ReplacedTokens), g.From, g.Cut)
		}
	}
	for _, e := range sc.Arrivals {
		text := "[arrives during the last compaction] " + red.String(eventPreview(e))
		if a := anchors[e.Seq]; len(a) > 0 {
			text += "   ◂ " + strings.Join(a, ", ")
		}
		row(fmt.Sprint(e.Seq), string(e.Role), callMark(e), "", text)
	}
	switch {
	case len(u.Generations) == 0:
		fmt.Fprintln(w, "cuts: none: no compaction happens in this scenario")
	case len(sc.Compaction.At) == 0 && len(u.Generations) > 1:
		fmt.Fprintf(w, "cuts: %d, token-triggered; after the first they depend on the summary's size (placed here with %s)\n", len(u.Generations), showSummarizer)
	default:
		fmt.Fprintf(w, "cuts: %s\n", validateCount(len(u.Generations), "cut"))
	}
	for _, warn := range u.Warnings {
		if len(u.Generations) == 0 && strings.HasPrefix(warn, "no compaction happened") {
			continue
		}
		fmt.Fprintf(w, "  warning: %s\n", warn)
	}
	if u.Status == result.UnitError && len(u.Generations) == 0 {
		fmt.Fprintf(w, "  (placing the cuts failed: %s)\n", firstLineOf(u.Error))
	}
	if len(list) > 0 {
		fmt.Fprintln(w, "anchors:")
		for _, l := range list {
			fmt.Fprintf(w, "  %s\n", red.String(l))
		}
	}
	return nil
}

// showAnchors returns the anchors of sc's invariants and probes: the labels
// to mark on each seq, and one line per invariant and probe saying where its
// evidence is (lastCut: the last cut of the timeline, 0 when none).
func showAnchors(sc *scenarios.Scenario, lastCut int) (anchors map[int][]string, list []string) {
	anchors = map[int][]string{} // seq → labels
	for _, inv := range sc.Invariants {
		label := inv.Type() + " " + inv.InvariantID()
		seqs, what := invariantAnchors(sc, inv)
		for _, s := range seqs {
			if !slices.Contains(anchors[s], label) {
				anchors[s] = append(anchors[s], label)
			}
		}
		for _, s := range seqs {
			if _, ok := sc.EventBySeq(s); !ok {
				what += fmt.Sprintf(" (no event has seq %d)", s)
			}
		}
		list = append(list, fmt.Sprintf("%s (line %d): %s", label, inv.Position().Line, what))
	}
	for _, p := range sc.Probes {
		label := "probe " + p.ID
		var parts []string
		for _, req := range p.Requires {
			for _, pat := range req.Patterns {
				seqs := matchingSeqs(sc, pat)
				for _, s := range seqs {
					if l := fmt.Sprintf("%s (%s)", label, req.Option); !slices.Contains(anchors[s], l) {
						anchors[s] = append(anchors[s], l)
					}
				}
				where := "found in no event"
				if len(seqs) > 0 {
					where = "at seq " + joinInts(seqs)
					if lastCut > 0 && slices.Min(seqs) > lastCut {
						where += " (all after the last cut: no summary can lose it)"
					}
				}
				parts = append(parts, fmt.Sprintf("%s needs /%s/ %s", req.Option, pat, where))
			}
		}
		if len(parts) == 0 {
			parts = append(parts, "no requires")
		}
		list = append(list, fmt.Sprintf("%s (line %d, expect %s): %s", label, p.Pos.Line, p.Expect, strings.Join(parts, "; ")))
	}
	return anchors, list
}

func describeCompaction(sc *scenarios.Scenario) string {
	c := sc.Compaction
	var parts []string
	switch {
	case c.FromRecorded:
		parts = append(parts, "at the recorded compactions' boundaries "+joinInts(c.At))
	case len(c.At) > 0:
		parts = append(parts, "at "+joinInts(c.At))
	default:
		t := fmt.Sprintf("when the context reaches %s tokens", thousands(runner.Threshold(sc)))
		if c.ReserveTokens > 0 {
			t += fmt.Sprintf(" (with %d reserved)", c.ReserveTokens)
		}
		parts = append(parts, t)
	}
	parts = append(parts, fmt.Sprintf("keep_recent %d", c.KeepRecent), "rebuild "+c.EffectiveRebuild(), fmt.Sprintf("max_ratio %g", c.EffectiveMaxRatio()))
	return strings.Join(parts, ", ")
}

// invariantAnchors returns the seqs an invariant cites or whose text holds
// its evidence, and a sentence naming them.
func invariantAnchors(sc *scenarios.Scenario, inv scenarios.Invariant) ([]int, string) {
	switch v := scenarios.Pointer(inv).(type) {
	case *scenarios.Constraint:
		return []int{v.SourceSeq}, fmt.Sprintf("rule at seq %d", v.SourceSeq)
	case *scenarios.RefutedHypothesis:
		return []int{v.HypothesisSeq, v.RefutedBySeq}, fmt.Sprintf("hypothesis at seq %d, refuted at seq %d", v.HypothesisSeq, v.RefutedBySeq)
	case *scenarios.PendingOperation:
		return []int{v.CallSeq}, fmt.Sprintf("call %s at seq %d, no result", v.OpID, v.CallSeq)
	case *scenarios.Correction:
		return []int{v.SourceSeq}, fmt.Sprintf("%s corrected from %s to %s at seq %d", v.Subject, v.Old, v.New, v.SourceSeq)
	case *scenarios.Artifact:
		var seqs []int
		for _, e := range sc.Events {
			text := transcript.EventsText([]scenarios.Event{e})
			if slices.ContainsFunc(v.Paths, func(p string) bool { return strings.Contains(text, p) }) {
				seqs = append(seqs, e.Seq)
			}
		}
		return seqs, fmt.Sprintf("required %s, named at %s", strings.Join(v.Required, ", "), seqsOrNone(seqs))
	case *scenarios.Quantity:
		var seqs []int
		for _, p := range v.Match {
			seqs = append(seqs, matchingSeqs(sc, p)...)
		}
		slices.Sort(seqs)
		seqs = slices.Compact(seqs)
		if len(v.Match) == 0 {
			return nil, fmt.Sprintf("%g %s, anywhere in the summary", v.Value, v.Unit)
		}
		return seqs, fmt.Sprintf("%g %s, matched at %s", v.Value, v.Unit, seqsOrNone(seqs))
	case *scenarios.Secret:
		var seqs []int
		for _, e := range sc.Events {
			if strings.Contains(transcript.EventsText([]scenarios.Event{e}), v.Value) {
				seqs = append(seqs, e.Seq)
			}
		}
		return seqs, fmt.Sprintf("must never be copied; appears at %s", seqsOrNone(seqs))
	}
	return stateAnchors(inv)
}

// stateAnchors returns the seqs of a workflow's typed state (approval,
// goal, next_step, handoff) and a sentence naming them.
func stateAnchors(inv scenarios.Invariant) ([]int, string) {
	switch v := scenarios.Pointer(inv).(type) {
	case *scenarios.Approval:
		if v.InvalidatedBy > 0 {
			return []int{v.SourceSeq, v.InvalidatedBy}, fmt.Sprintf("approved by %s at seq %d, ended at seq %d", v.Approver, v.SourceSeq, v.InvalidatedBy)
		}
		return []int{v.SourceSeq}, fmt.Sprintf("approved by %s at seq %d", v.Approver, v.SourceSeq)
	case *scenarios.Goal:
		return []int{v.SourceSeq}, fmt.Sprintf("goal redirected at seq %d", v.SourceSeq)
	case *scenarios.NextStep:
		return []int{v.SourceSeq}, fmt.Sprintf("workflow set at seq %d", v.SourceSeq)
	case *scenarios.Handoff:
		return []int{v.SourceSeq}, fmt.Sprintf("restart from session %s at seq %d", v.Session, v.SourceSeq)
	}
	return nil, "no seq"
}

// matchingSeqs returns the seqs of the events whose text matches pattern,
// matched as the checks and the reference agent match (textmatch).
func matchingSeqs(sc *scenarios.Scenario, pattern string) []int {
	var seqs []int
	for _, e := range append(slices.Clone(sc.Events), sc.Arrivals...) {
		if _, ok := textmatch.Find(pattern, textmatch.Fold(transcript.EventsText([]scenarios.Event{e}))); ok {
			seqs = append(seqs, e.Seq)
		}
	}
	return seqs
}

func eventPreview(e scenarios.Event) string {
	var s string
	switch {
	case e.ToolCall != nil:
		// Args is JSON, which escapes & < > for HTML: an author reads them.
		s = e.ToolCall.Name + " " + strings.NewReplacer(`\u0026`, "&", `\u003c`, "<", `\u003e`, ">").Replace(transcript.Args(e.ToolCall.Args))
		if e.Text != "" {
			s = e.Text + " · " + s
		}
	case e.ToolResult != nil:
		s = e.ToolResult.Text
		if st := e.ToolResult.Status; st != "" && st != scenarios.StatusOK {
			s = "[" + st + "] " + s
		}
	default:
		s = e.Text
	}
	return clip.String(strings.Join(strings.Fields(s), " "), 72)
}

func callMark(e scenarios.Event) string {
	switch {
	case e.ToolCall != nil:
		return e.ToolCall.ID + " →"
	case e.ToolResult != nil:
		return "→ " + e.ToolResult.CallID
	}
	return ""
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

func seqsOrNone(seqs []int) string {
	if len(seqs) == 0 {
		return "no event"
	}
	return "seq " + joinInts(seqs)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
