package checks

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/scenarios"
)

// GroundingCheck is the `grounding` check: an entry that cites an event is
// supported by that event, so a citation cannot be borrowed from a nearby
// event of the right role.
//
// Rule: for every verified[] claim, constraints[] entry, corrections[]
// value and pending[] entry with a source_seq, the salient tokens of its
// text must occur in the cited event: e-mail addresses, paths, quoted
// strings and, for a pending entry, its op_id. The cited event is read
// with its protocol partner (a tool result with the call that produced it,
// a call with its result), because a claim about a command's output
// names the command's arguments. Tokens compare after folding (case,
// accents, whitespace). Fail names the entry, the token and the event. An
// entry with no source_seq, or citing a seq that names no event, is left to
// evidence, provenance and references. Skip when the summary has no such
// entry with a source_seq (a text-only summary always skips).
type GroundingCheck struct{}

// grounded is one entry the grounding check judges.
type grounded struct {
	ptr  string // the entry's text field
	text string
	seq  int
	opID string // pending entries
}

// Check implements Check.
func (GroundingCheck) Check(in *Input) []Result {
	st, res := structural(in, CheckGrounding, true)
	if st == nil {
		return res
	}
	r := Result{Check: CheckGrounding, Kind: KindStructural}
	var items []grounded
	for i, c := range st.sum.Verified {
		items = append(items, grounded{ptr: ptrf("verified", i, "claim"), text: c.Claim, seq: c.SourceSeq})
	}
	for i, c := range st.sum.Constraints {
		items = append(items, grounded{ptr: ptrf("constraints", i, "text"), text: c.Text, seq: c.SourceSeq})
	}
	for i, c := range st.sum.Corrections {
		items = append(items, grounded{ptr: ptrf("corrections", i, "value"), text: c.Value, seq: c.SourceSeq})
	}
	for i, p := range st.sum.Pending {
		items = append(items, grounded{ptr: ptrf("pending", i, "description"), text: p.Description, seq: p.SourceSeq, opID: p.OpID})
	}
	judged := 0
	for _, it := range items {
		if it.seq == 0 {
			continue
		}
		hay, ok := st.sd.citedText(it.seq)
		if !ok {
			continue
		}
		judged++
		if it.opID != "" && findToken(hay, strings.ToLower(it.opID)) < 0 {
			ptr := strings.TrimSuffix(it.ptr, "/description") + "/op_id"
			r.Evidence = append(r.Evidence, Evidence{Pointer: ptr, Seq: it.seq, Text: it.opID, Note: "op id not in the cited event"})
			continue
		}
		if tok, ok := unsupported(it.text, hay); ok {
			r.Evidence = append(r.Evidence, Evidence{Pointer: it.ptr, Seq: it.seq, Text: clip.String(it.text, clipLen), Note: fmt.Sprintf("%q is not in the cited event", tok)})
		}
	}
	if judged == 0 {
		r.Status, r.Message = Skip, "the summary cites no event for a verified claim, constraint, correction or pending entry"
		return []Result{r}
	}
	if len(r.Evidence) > 0 {
		e := r.Evidence[0]
		r.Status = Fail
		r.Message = fmt.Sprintf("%s cites #%d, which does not support it: %s", e.Pointer, e.Seq, e.Note)
		if len(r.Evidence) > 1 {
			r.Message += fmt.Sprintf(" (%d of %d entries)", len(r.Evidence), judged)
		}
		return []Result{r}
	}
	r.Status, r.Message = Pass, fmt.Sprintf("all %d cited entries are supported by the events they cite", judged)
	return []Result{r}
}

var (
	emailRe  = regexp.MustCompile(`[\w.+-]+@[\w-]+(\.[\w-]+)+`)
	quotedRe = regexp.MustCompile("\"([^\"]{3,})\"|`([^`]{3,})`|“([^”]{3,})”")
	pathRe   = regexp.MustCompile(`[\w.~-]*(/[\w.-]+)+/?`)
)

// salientTokens returns the salient tokens of text, folded and
// lower-cased, in order of appearance.
func salientTokens(text string) []string {
	low := strings.ToLower(foldText(text))
	var out []string
	for _, m := range emailRe.FindAllString(low, -1) {
		out = append(out, m)
	}
	for _, m := range quotedRe.FindAllStringSubmatch(low, -1) {
		for _, g := range m[1:] {
			if g = strings.TrimSpace(g); g != "" {
				out = append(out, g)
			}
		}
	}
	for _, m := range pathRe.FindAllString(low, -1) {
		if isPathToken(m) {
			out = append(out, strings.TrimRight(m, "."))
		}
	}
	return out
}

// isPathToken tells a path (config/db.yml, /srv/app, ./run.sh) from a rate
// or a pair of words (rows/s, and/or, read/write).
func isPathToken(t string) bool {
	t = strings.TrimRight(t, ".")
	if strings.HasPrefix(t, "/") || strings.HasPrefix(t, "./") || strings.HasPrefix(t, "~/") {
		return strings.Count(t, "/") >= 1 && len(t) > 2
	}
	if strings.Count(t, "/") >= 2 {
		return true
	}
	last := t[strings.LastIndex(t, "/")+1:]
	return strings.Contains(last, ".") && !strings.HasSuffix(last, ".")
}

// unsupported returns the first salient token of text that hay (folded,
// lower-cased) does not hold.
func unsupported(text, hay string) (string, bool) {
	for _, tok := range salientTokens(text) {
		if !containsLoose(hay, tok) {
			return tok, true
		}
	}
	return "", false
}

// containsLoose finds tok in hay with a boundary after it as for findToken,
// but any non-word character before it: a claim naming config/db.yml is
// supported by an event printing /srv/orders/config/db.yml.
func containsLoose(hay, tok string) bool {
	for off := 0; ; {
		i := strings.Index(hay[off:], tok)
		if i < 0 {
			return false
		}
		i += off
		if (i == 0 || !wordish(rune(hay[i-1]))) && boundaryAfter(hay, i+len(tok), tok) {
			return true
		}
		off = i + 1
	}
}

// citedText is the folded, lower-cased text of the event with seq, with
// its protocol partner: a tool result with its call, a call with its
// result. ok is false when no event of the history has that seq.
func (d *scenarioData) citedText(seq int) (string, bool) {
	i := sort.Search(len(d.sc.Events), func(i int) bool { return d.sc.Events[i].Seq >= seq })
	if i >= len(d.sc.Events) || d.sc.Events[i].Seq != seq {
		return "", false
	}
	e := d.sc.Events[i]
	text := d.folded[i]
	partner := func(p scenarios.Event) {
		j := sort.Search(len(d.sc.Events), func(j int) bool { return d.sc.Events[j].Seq >= p.Seq })
		if j < len(d.sc.Events) && d.sc.Events[j].Seq == p.Seq && j != i {
			text += "\n" + d.folded[j]
		}
	}
	if e.ToolResult != nil {
		for _, c := range d.calls {
			if c.ToolCall.ID == e.ToolResult.CallID {
				partner(c)
				break
			}
		}
	}
	if e.ToolCall != nil {
		if res, ok := d.results[e.ToolCall.ID]; ok {
			partner(res)
		}
	}
	return text, true
}
