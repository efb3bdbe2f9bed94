package importer

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/compact-eval/compact-eval/importer/suggest"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"gopkg.in/yaml.v3"
)

// maxPending bounds the pending operations suggested.
const maxPending = 20

// suggestion is one suggested invariant: why (a comment) and the node.
type suggestion struct {
	why  string
	node *yaml.Node // nil for a note
	// repairs are the patterns to try, in order, when selftest finds that
	// no summary can pass node (nil when the kind has none); with, given
	// one of them, builds the repaired node.
	repairs []string
	with    func(pattern string) *yaml.Node
	// fate is what the satisfiability check did with it.
	fate fate
}

// fate is what the satisfiability check did with a suggestion.
type fate uint8

const (
	unchecked fate = iota
	kept
	repaired
	leftOut
)

func (b *builder) suggestions() []suggestion {
	s := b.scan
	var out []suggestion
	seqOf := func(idx int) int { return idx + 1 }
	for i, c := range s.Constraints() {
		id := fmt.Sprintf("constraint-%d", i+1)
		with := func(p string) *yaml.Node {
			return mapping("id", str(id), "type", str(result.TypeConstraint),
				"source_seq", intNode(seqOf(c.Idx)), "match", flowSeq(str(p)))
		}
		out = append(out, suggestion{
			why:  fmt.Sprintf("constraint: %s at seq %d said %q", b.metas[c.Idx].role, seqOf(c.Idx), shorten(c.Sentence, 100)),
			node: with(c.Pattern), with: with, repairs: suggest.RepairPatterns(c.Pattern),
		})
	}
	// Pending operations: unresolved calls up to the cut, in order. A call
	// after the cut stays in the tail, where no summary can lose it.
	idxs := make([]int, 0, len(b.callID))
	tail := 0
	for idx, id := range b.callID {
		if id == b.spawnCall {
			// the parent's call that spawned this subagent: answered in
			// the parent's log, pending for no one here
			out = append(out, suggestion{why: fmt.Sprintf("the call at seq %d spawned this subagent (its session's spawn_call_id): its output is in the parent's log, so it is not suggested as pending", seqOf(idx))})
			continue
		}
		if seqOf(idx) > b.cut {
			tail++
			continue
		}
		idxs = append(idxs, idx)
	}
	sort.Ints(idxs)
	for i, idx := range idxs {
		if i == maxPending {
			b.pendingOver = len(idxs) - maxPending
			out = append(out, suggestion{why: fmt.Sprintf("%d more unresolved calls not listed", len(idxs)-maxPending)})
			break
		}
		op := b.callID[idx]
		out = append(out, suggestion{
			why: fmt.Sprintf("pending operation: the call at seq %d never got a result", seqOf(idx)),
			node: mapping("id", str(fmt.Sprintf("pending-%d", i+1)), "type", str(result.TypePendingOperation),
				"op_id", str(op), "call_seq", intNode(seqOf(idx))),
		})
	}
	if tail > 0 {
		out = append(out, suggestion{why: fmt.Sprintf("%d unresolved calls after the cut are not suggested: they stay in the tail", tail)})
	}
	for i, g := range s.ArtifactGroups() {
		req, reqIdx, edited := s.Required(g)
		req = s.Spelled(req)
		paths := make([]*yaml.Node, len(g))
		for k, p := range g {
			paths[k] = str(s.Spelled(p))
		}
		why := fmt.Sprintf("artifact: near-twin paths the session touched; required is the one it edited (seq %d): check it", seqOf(reqIdx))
		if !edited {
			why = fmt.Sprintf("artifact: near-twin paths the session touched; none was edited, required is the one named last (seq %d): check it", seqOf(reqIdx))
		}
		if s.Moved(g) {
			why = fmt.Sprintf("artifact: a file the session moved, under its old and new name; required is the new name (seq %d)", seqOf(reqIdx))
		}
		out = append(out, suggestion{
			why: why,
			node: mapping("id", str(fmt.Sprintf("artifact-%d", i+1)), "type", str(result.TypeArtifact),
				"paths", flowSeq(paths...), "required", flowSeq(str(req))),
		})
	}
	groups := len(s.ArtifactGroups())
	for i, sib := range s.Siblings() {
		paths := make([]*yaml.Node, len(sib.Paths))
		var status []string
		for k, p := range sib.Paths {
			paths[k] = str(s.Spelled(p))
			status = append(status, s.Spelled(p)+" "+sib.Status[k])
		}
		out = append(out, suggestion{
			why: fmt.Sprintf("artifact: same-named files in other folders; required is the one edited at seq %d: %s", seqOf(sib.Idx), strings.Join(status, ", ")),
			node: mapping("id", str(fmt.Sprintf("artifact-%d", groups+i+1)), "type", str(result.TypeArtifact),
				"paths", flowSeq(paths...), "required", flowSeq(str(s.Spelled(sib.Paths[0])))),
		})
	}
	if s.PathsFull() {
		out = append(out, suggestion{why: fmt.Sprintf("only the first %d distinct paths were compared", suggest.MaxPaths)})
	}
	for i, h := range s.Refuted() {
		id := fmt.Sprintf("refuted-%d", i+1)
		with := func(p string) *yaml.Node {
			return mapping("id", str(id), "type", str(result.TypeRefutedHypothesis),
				"hypothesis_seq", intNode(seqOf(h.ClaimIdx)), "refuted_by_seq", intNode(seqOf(h.ByIdx)),
				"match", flowSeq(str(p)))
		}
		why := fmt.Sprintf("refuted hypothesis: the assistant at seq %d said %q; the user at seq %d answered %q", seqOf(h.ClaimIdx), shorten(h.Claim, 80), seqOf(h.ByIdx), shorten(h.By, 80))
		if h.SelfIdx >= 0 {
			why = fmt.Sprintf("refuted hypothesis: the assistant at seq %d said %q; after the tool output at seq %d it ruled it out at seq %d: %q", seqOf(h.ClaimIdx), shorten(h.Claim, 80), seqOf(h.ByIdx), seqOf(h.SelfIdx), shorten(h.By, 80))
		}
		out = append(out, suggestion{
			why:  why,
			node: with(h.Pattern), with: with, repairs: suggest.RepairPatterns(h.Pattern),
		})
	}
	for i, a := range s.Attempts() {
		if seqOf(a.ErrIdx) > b.cut {
			continue // its failure is in the tail: no summary covers it
		}
		id := fmt.Sprintf("attempt-%d", i+1)
		with := func(p string) *yaml.Node {
			return mapping("id", str(id), "type", str(result.TypeRefutedHypothesis),
				"hypothesis_seq", intNode(seqOf(a.CallIdx)), "refuted_by_seq", intNode(seqOf(a.ErrIdx)),
				"match", flowSeq(str(p)))
		}
		out = append(out, suggestion{
			why: fmt.Sprintf("refuted attempt: the call at seq %d (%q) failed %d times, first at seq %d; then %q worked (seq %d): a summary must not report the attempt as done",
				seqOf(a.CallIdx), shorten(a.Signature, 60), a.Fails, seqOf(a.ErrIdx), shorten(a.Fix, 60), seqOf(a.FixIdx)),
			node: with(a.Pattern), with: with, repairs: suggest.RepairPatterns(a.Pattern),
		})
	}
	for i, u := range s.Unfinished() {
		if seqOf(u.Idx) > b.cut {
			continue // asked in the tail: no summary covers it
		}
		why := fmt.Sprintf("unfinished: the user at seq %d asked to %q and no successful call after it did (%d calls worked after it)", seqOf(u.Idx), shorten(u.Phrase, 60), u.CallsAfter)
		if len(u.Left) > 0 {
			why = fmt.Sprintf("unfinished: the user at seq %d asked to %q, every one of a set a tool listed; the calls after it passed some of the set and never %s", seqOf(u.Idx), shorten(u.Phrase, 60), strings.Join(u.Left, ", "))
		} else if u.ReportIdx >= 0 {
			why = fmt.Sprintf("unfinished: the user at seq %d asked to %q; the assistant at seq %d reported it done (%q) and no successful call did it", seqOf(u.Idx), shorten(u.Phrase, 60), seqOf(u.ReportIdx), shorten(u.Report, 60))
		}
		out = append(out, suggestion{
			why: why + ": a summary must keep it as still to do, never as done",
			node: mapping("id", str(fmt.Sprintf("unfinished-%d", i+1)), "type", str(result.TypeNextStep),
				"source_seq", intNode(seqOf(u.Idx)), "match", flowSeq(strs(u.Patterns)...), "later", flowSeq(str(u.Later))),
		})
	}
	n := 0
	corrected := map[string]bool{}
	for _, c := range s.AllCorrections() {
		corrected[c.Old], corrected[c.New] = true, true
	}
	for _, a := range s.Attempts() {
		for _, v := range a.Values {
			corrected[v] = true // a value tried and refuted: no id the task depends on
		}
	}
	for _, v := range s.IDs() {
		if seqOf(v.Idx) > b.cut || corrected[v.Value] {
			continue // first shown in the tail, a corrected value the correction keeps, or one an attempt tried
		}
		n++
		out = append(out, suggestion{
			why: fmt.Sprintf("id the task depends on: %s, shown at seq %d (%s), is passed to the call at seq %d", v.Value, seqOf(v.Idx), b.metas[v.Idx].role, seqOf(v.UseIdx)),
			node: mapping("id", str(fmt.Sprintf("id-%d", n)), "type", str(result.TypeArtifact),
				"paths", flowSeq(str(v.Value)), "required", flowSeq(str(v.Value))),
		})
	}
	for i, c := range s.Corrections() {
		why := fmt.Sprintf("correction: user at seq %d said %q", seqOf(c.Idx), shorten(c.Text, 100))
		if c.ByTool {
			why = fmt.Sprintf("correction: the tool failed at seq %d (%q) and the agent retried with %q for %q", seqOf(c.Idx), shorten(c.Text, 80), c.New, c.Old)
		}
		src := seqOf(c.Idx)
		if c.Subject != "" {
			if c.ByTool {
				// A structured retry's Idx is the call that tried the new
				// value, an assistant event; the correction's source is a
				// tool's: that call's result, else the old value's error.
				src = seqOf(c.ErrIdx)
				if m := b.metas[c.Idx]; m.kind == kindCall && m.result >= 0 {
					src = seqOf(int(m.result))
				}
			}
			if seqOf(c.Idx) > b.cut || src > b.cut {
				continue // the value was replaced in the tail: no summary covers it
			}
			why = fmt.Sprintf("correction: %s %q failed at seq %d (%q); the call at seq %d tried %q, the value the session settled on (its last successful call's)", c.Subject, c.Old, seqOf(c.ErrIdx), shorten(c.Text, 60), seqOf(c.Idx), c.New)
			if !c.ByTool {
				why = fmt.Sprintf("correction: user at seq %d said %q; the calls after it replaced %s %q with %q, the value the session settled on (its last successful call's)", seqOf(c.Idx), shorten(c.Text, 80), c.Subject, c.Old, c.New)
			}
			if c.Named != "" {
				why = fmt.Sprintf("correction: user at seq %d said %q, naming a value by a part of it (%s); the call at seq %d passed it, %s %q, where the tool's last call passed %q: the summary must give the user's value as the one now", seqOf(c.Idx), shorten(c.Text, 80), c.New, seqOf(c.NamedIdx), c.Subject, c.Named, c.Old)
				if strings.HasPrefix(c.Old, scenarios.Placeholder) {
					why = fmt.Sprintf("correction: user at seq %d said %q, naming a value by a part of it (%s); the call at seq %d passed it, %s %q, after the tool's calls with other values failed (the failures' suggestions name those): the summary must give the user's value as the one now", seqOf(c.Idx), shorten(c.Text, 80), c.New, seqOf(c.NamedIdx), c.Subject, c.Named)
				}
			}
		}
		subject := scenarios.Placeholder + ": what was corrected"
		if c.Subject != "" {
			subject = c.Subject
		}
		out = append(out, suggestion{
			why: why,
			node: mapping("id", str(fmt.Sprintf("correction-%d", i+1)), "type", str(result.TypeCorrection),
				"subject", str(subject), "old", str(c.Old), "new", str(c.New),
				"source_seq", intNode(src)),
		})
	}
	for i, v := range s.Secrets() {
		out = append(out, suggestion{
			why: fmt.Sprintf("secret: a key-like token first seen at seq %d", seqOf(v.Idx)),
			node: mapping("id", str(fmt.Sprintf("secret-%d", i+1)), "type", str(result.TypeSecret),
				"value", str(v.Value)),
		})
	}
	for i, q := range s.Quantities() {
		node := mapping("id", str(fmt.Sprintf("quantity-%d", i+1)), "type", str(result.TypeQuantity),
			"value", floatNode(q.Value), "unit", str(q.Unit))
		if q.Subject != "" {
			// The figure with what it measures: 0.5 % of the error budget,
			// not any 0.5 %.
			node = mapping("id", str(fmt.Sprintf("quantity-%d", i+1)), "type", str(result.TypeQuantity),
				"value", floatNode(q.Value), "unit", str(q.Unit), "match", flowSeq(str(q.Subject)))
		}
		out = append(out, suggestion{why: fmt.Sprintf("quantity: %q at seq %d", q.Raw, seqOf(q.Idx)), node: node})
	}
	return out
}

func (b *builder) writeSuggestions(w *bufio.Writer, sugs []suggestion, invariants int) {
	w.WriteString("\n# Suggested invariants. None is active: a tool cannot know what matters.\n")
	w.WriteString("# Uncomment the \"invariants:\" line and each block you confirm, and fix every TODO.\n")
	if invariants == 0 {
		// Notes only: no "invariants:" line, which uncommented alone
		// would be a null list the loader refuses.
		w.WriteString("# (nothing found to suggest)\n")
		for _, s := range sugs {
			w.WriteString("# " + strings.ReplaceAll(s.why, "\n", " ") + "\n")
		}
		return
	}
	w.WriteString("# invariants:\n")
	var buf bytes.Buffer
	for _, s := range sugs {
		w.WriteString("# # " + strings.ReplaceAll(s.why, "\n", " ") + "\n")
		if s.node == nil {
			continue
		}
		buf.Reset()
		if err := encode(&buf, seq(s.node)); err != nil {
			continue
		}
		for _, line := range strings.SplitAfter(strings.TrimRight(buf.String(), "\n"), "\n") {
			w.WriteString("# " + strings.TrimRight(line, "\n") + "\n")
		}
	}
}

// capped names what the caps on the number of suggestions pushed out, one
// entry a kind. Call it after suggestions.
func (b *builder) capped() []string {
	var out []string
	for _, c := range b.scan.Capped() {
		e := plural(c.N, c.Kind)
		if len(c.Names) > 0 {
			q := make([]string, len(c.Names))
			for i, n := range c.Names {
				q[i] = fmt.Sprintf("%q", n)
			}
			more := ""
			if c.N > len(c.Names) {
				more = ", …"
			}
			e += " (" + strings.Join(q, ", ") + more + ")"
		}
		out = append(out, e)
	}
	if n := b.pendingOver; n > 0 {
		out = append(out, plural(n, "pending operation"))
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
