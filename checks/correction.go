package checks

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/quantity"
	"github.com/compact-eval/compact-eval/scenarios"
)

// CorrectionCheck checks a `correction` invariant: at source_seq the user
// replaced an old value with a new one, and the summary carries the new
// value and never the old one as current.
//
// Rule. Values compare as whole tokens on folded, lower-cased text (so
// "5432" is not found in "65432" nor in "5432.1"). (1) The new value appears
// in some field of the summary. (2) On a structured summary the old value
// appears only in corrections[].supersedes; anywhere else (verified,
// decisions, constraints, text, corrections[].value, …) it fails, and the
// evidence points there. On a text-only summary the old value may appear
// only in a sentence that also names the new value and says it was
// replaced (instead of, replaced, no longer, was, previously, antes, en vez
// de, …). Skip while source_seq is after the cut.
type CorrectionCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.Correction
}

var supersession = regexp.MustCompile(`(?i)\b(instead of|rather than|replac\w*|supersed\w*|no longer|not|was|were|previously|formerly|old|corrected|changed|from|en vez de|en lugar de|antes|ya no|anterior|reemplaz\w*|sustitu\w*|cambi\w*)\b`)

// Check implements Check.
func (c CorrectionCheck) Check(in *Input) []Result {
	if c.Inv == nil {
		return nilInvariant(scenarios.TypeCorrection)
	}
	inv := c.Inv
	st, r, ok := invariant(in, inv, inv.SourceSeq)
	if !ok {
		return []Result{r}
	}
	textOnly := st.sum.TextOnly()
	var msgs []string
	fail := func(e Evidence, msg string) {
		r.Evidence = append(r.Evidence, e)
		msgs = append(msgs, msg)
	}
	subject := inv.Subject
	if subject == "" {
		subject = "the value"
	}
	oldF, newF := newValueFinder(inv.Old), newValueFinder(inv.New)
	var newAt *Evidence
	for _, l := range st.leaves {
		if textOnly && l.ptr != "/text" {
			continue
		}
		low := strings.ToLower(l.folded)
		if newAt == nil && newF.in(l.text, low) {
			newAt = &Evidence{Pointer: l.ptr, Seq: inv.SourceSeq, Text: clip.String(l.text, clipLen), Note: "new value " + inv.New}
		}
		if !oldF.in(l.text, low) {
			continue
		}
		if !textOnly && strings.HasPrefix(l.ptr, "/corrections/") && strings.HasSuffix(l.ptr, "/supersedes") {
			continue
		}
		if textOnly && supersededInText(l.text, oldF, newF) {
			continue
		}
		fail(Evidence{Pointer: l.ptr, Seq: inv.SourceSeq, Text: clip.String(l.text, clipLen), Note: "old value " + inv.Old + " stated as current"},
			fmt.Sprintf("%s states the old %s %s as current; it was corrected to %s at #%d", l.ptr, subject, inv.Old, inv.New, inv.SourceSeq))
	}
	if newAt == nil {
		msgs = append([]string{fmt.Sprintf("the corrected %s %s (from #%d) is missing", subject, inv.New, inv.SourceSeq)}, msgs...)
		r.Evidence = append([]Evidence{{Seq: inv.SourceSeq, Text: inv.New, Note: "new value missing"}}, r.Evidence...)
	}
	if len(msgs) > 0 {
		r.Status, r.Message = Fail, msgs[0]
		if len(msgs) > 1 {
			r.Message += fmt.Sprintf(" (%s)", plural(len(msgs), "problem"))
		}
		return []Result{r}
	}
	r.Status = Pass
	r.Message = fmt.Sprintf("%s is %s at %s; %s appears only as superseded", subject, inv.New, newAt.Pointer, inv.Old)
	r.Evidence = []Evidence{*newAt}
	return []Result{r}
}

// supersededInText reports whether every sentence of text naming old also
// names new and says old was replaced.
func supersededInText(text string, old, new valueFinder) bool {
	start := 0
	ends := append(sentenceEnd.FindAllStringIndex(text, -1), []int{len(text), len(text)})
	for _, e := range ends {
		s := text[start:e[1]]
		start = e[1]
		low := strings.ToLower(foldText(s))
		if !old.in(s, low) {
			continue
		}
		if !new.in(s, low) || !supersession.MatchString(low) {
			return false
		}
	}
	return true
}

// valueFinder finds a correction value in a field: as a whole token of
// folded, lower-cased text, or, when the value is a quantity with a known
// unit ("50 rows/s", "30 s"), as any spelling of the same quantity.
type valueFinder struct {
	lit   string
	isQ   bool
	value float64
	unit  string
}

func newValueFinder(v string) valueFinder {
	f := valueFinder{lit: v}
	v = strings.TrimSpace(v)
	if qs := quantity.Parse(v); len(qs) == 1 && qs[0].Start == 0 && qs[0].End == len(v) && qs[0].Unit != "" && quantity.Known(qs[0].Unit) {
		f.isQ, f.value, f.unit = true, qs[0].Value, qs[0].Unit
	}
	return f
}

// in reports whether text (with lowFolded its folded lower-cased form)
// states the value.
func (f valueFinder) in(text, lowFolded string) bool {
	if findFoldedToken(lowFolded, f.lit) >= 0 {
		return true
	}
	if f.isQ {
		for _, q := range quantity.Parse(text) {
			if quantity.Equal(q.Value, q.Unit, f.value, f.unit) {
				return true
			}
		}
	}
	return false
}
