package checks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/polarity"
	"github.com/compact-eval/compact-eval/internal/quantity"
	"github.com/compact-eval/compact-eval/scenarios"
)

// CorrectionCheck checks a `correction` invariant: at source_seq the user
// replaced an old value with a new one, and the summary carries the new
// value as current and never the old one.
//
// Rule. Values compare as whole tokens on folded, lower-cased text (so
// "5432" is not found in "65432" nor in "5432.1"); a quantity compares as
// any spelling of the same quantity ("50 rows/s" = "50 rows per second"),
// and a date as any spelling of the same day ("15 de diciembre" =
// "December 15"). Each occurrence is read in its clause
// (internal/polarity). (1) The new value appears in some field, outside
// corrections[].supersedes (which holds the old value and counts only as
// that), in a clause that does not negate, retract or supersede it: "200
// rows/s, not 50 rows/s" does not carry 50 rows/s. (2) The old value
// appears only in corrections[].supersedes or in a clause that marks it as
// replaced: superseded ("instead of", "replaces", "was replaced by", "en
// vez de"), former ("was", "previously", "antes era"), negated, cancelled,
// retracted or a mistake ("was a typo"); "the default of 200 rows/s,
// overridden by the cap" passes, "the rate is 200 rows/s" fails with the
// pointer. (3) The corrections[] entry whose value is the new value cites
// source_seq or an event that states the new value. The same rule holds
// for a text-only summary, clause by clause. Skip while source_seq is after
// the cut.
type CorrectionCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.Correction
}

// Check implements Check.
func (c CorrectionCheck) Check(in *Input) []result.CheckResult {
	if c.Inv == nil {
		return nilInvariant(result.TypeCorrection)
	}
	inv := c.Inv
	st, r, ok := invariant(in, inv, inv.SourceSeq)
	if !ok {
		return []result.CheckResult{r}
	}
	var msgs []string
	fail := func(e result.Evidence, msg string) {
		r.Evidence = append(r.Evidence, e)
		msgs = append(msgs, msg)
	}
	subject := inv.Subject
	if subject == "" {
		subject = "the value"
	}
	leaves := st.leaves
	if st.sum.TextOnly() {
		leaves = st.textLeaves()
	}
	oldF, newF := st.valueFinder(inv.Old, inv.SourceSeq), st.valueFinder(inv.New, inv.SourceSeq)
	var newAt, newElsewhere *result.Evidence
	for _, l := range leaves {
		retired, isRetired := st.retiredArtifact(l.ptr)
		for _, sp := range newF.spans(st, l) {
			switch {
			case isRetired:
				if newElsewhere == nil {
					newElsewhere = &result.Evidence{Pointer: l.ptr, Seq: inv.SourceSeq, Text: clip.String(l.text, clipLen), Note: "only in an artifact marked " + retired}
				}
			case isSupersedes(l.ptr):
				if newElsewhere == nil {
					newElsewhere = &result.Evidence{Pointer: l.ptr, Seq: inv.SourceSeq, Text: clip.String(l.text, clipLen), Note: "only in supersedes, which holds the old value"}
				}
			case sp.v.Kind != "":
				if newElsewhere == nil {
					note := "stated only as not current (" + cueNote(sp.v) + ")"
					if sp.v.Reported {
						note = "only reported, not stated"
					}
					newElsewhere = &result.Evidence{Pointer: l.ptr, Seq: inv.SourceSeq, Text: clip.String(l.text, clipLen), Note: note}
				}
			case newAt == nil:
				newAt = &result.Evidence{Pointer: l.ptr, Seq: inv.SourceSeq, Text: clip.String(l.text, clipLen), Note: "new value " + inv.New}
			}
		}
		if isSupersedes(l.ptr) || isRetired {
			continue // an old value, or an artifact its status retires
		}
		for _, sp := range oldF.spans(st, l) {
			if sp.v.Kind != "" {
				continue // marked as replaced, or someone else's claim
			}
			fail(result.Evidence{Pointer: l.ptr, Seq: inv.SourceSeq, Text: clip.String(l.text, clipLen), Note: "old value " + inv.Old + " stated as current"},
				fmt.Sprintf("%s states the old %s %s as current; it was corrected to %s at #%d", l.ptr, subject, inv.Old, inv.New, inv.SourceSeq))
			break
		}
	}
	if newAt == nil {
		msg := fmt.Sprintf("the corrected %s %s (from #%d) is missing", subject, inv.New, inv.SourceSeq)
		ev := result.Evidence{Seq: inv.SourceSeq, Text: inv.New, Note: "new value missing"}
		if newElsewhere != nil {
			msg += fmt.Sprintf(": %s has it %s", newElsewhere.Pointer, newElsewhere.Note)
			ev = *newElsewhere
		}
		msgs = append([]string{msg}, msgs...)
		r.Evidence = append([]result.Evidence{ev}, r.Evidence...)
	}
	// The corrections entry that carries the new value cites an event that
	// states it.
	if !st.sum.TextOnly() && len(msgs) == 0 {
		for i, cr := range st.sum.Corrections {
			l := leaf{ptr: ptrf("corrections", i, "value"), text: cr.Value, folded: foldText(cr.Value)}
			if cr.SourceSeq == 0 || cr.SourceSeq == inv.SourceSeq || len(newF.spans(st, l)) == 0 {
				continue
			}
			if text, ok := st.sd.citedText(cr.SourceSeq); ok && newF.in(text, text) {
				continue
			}
			fail(result.Evidence{Pointer: ptrf("corrections", i, "source_seq"), Seq: cr.SourceSeq, Text: cr.Value, Note: fmt.Sprintf("cites #%d, which does not state %s", cr.SourceSeq, inv.New)},
				fmt.Sprintf("the correction at /corrections/%d cites #%d, which does not state %s (corrected at #%d)", i, cr.SourceSeq, inv.New, inv.SourceSeq))
		}
	}
	if len(msgs) > 0 {
		r.Status, r.Message = result.Fail, msgs[0]
		if len(msgs) > 1 {
			r.Message += fmt.Sprintf(" (%s)", plural(len(msgs), "problem"))
		}
		return []result.CheckResult{r}
	}
	r.Status = result.Pass
	r.Message = fmt.Sprintf("%s is %s at %s; %s appears only as superseded", subject, inv.New, newAt.Pointer, inv.Old)
	r.Evidence = []result.Evidence{*newAt}
	return []result.CheckResult{r}
}

// valueFinder finds a correction value in a field: as a whole token of
// folded, lower-cased text, or, when the value is a quantity with a known
// unit ("50 rows/s", "30 s") or a date ("15 de diciembre"), as any spelling
// of the same quantity or day.
type valueFinder struct {
	lit  string
	low  string // lit folded and lower-cased
	isQ  bool
	q    quantity.Quantity // the value as a figure, when isQ
	date *quantity.Date
}

// valueFinder is newValueFinder(v), parsed once per scenario: every
// generation of every unit checks the same corrections. A figure only a
// locale decides ("1,500 ms") is read in the locale of the event at seq,
// which states the correction: the value is the scenario's truth, so it
// keeps one reading (a summary's figure may keep two; quantity.Same).
func (st *state) valueFinder(v string, seq int) valueFinder {
	if st.sd == nil {
		return newValueFinder(v, quantity.AnyLocale)
	}
	key := v + "\x00" + strconv.Itoa(seq)
	if f, ok := st.sd.finders.Load(key); ok {
		return f.(valueFinder)
	}
	loc := quantity.AnyLocale
	if i := st.sd.eventIndex(seq); i >= 0 {
		loc = quantity.DetectLocale(st.sd.raw[i])
	}
	f := newValueFinder(v, loc)
	st.sd.finders.Store(key, f)
	return f
}

func newValueFinder(v string, loc quantity.Locale) valueFinder {
	f := valueFinder{lit: v, low: strings.ToLower(foldText(v))}
	v = strings.TrimSpace(v)
	if qs := quantity.ParseLocale(v, loc); len(qs) == 1 && qs[0].Start == 0 && qs[0].End == len(v) && qs[0].Unit != "" && quantity.Known(qs[0].Unit) {
		f.isQ, f.q = true, qs[0]
		// a truth has one reading: where the event shows no locale, the
		// English one (quantity.Quantity.Value)
		f.q.Alt, f.q.AltUlp = 0, 0
	}
	if ds := quantity.Dates(v); len(ds) == 1 && len(ds[0].Text) >= len(v)-5 {
		f.date = &ds[0]
	}
	return f
}

// in reports whether text (with lowFolded its folded lower-cased form)
// states the value, whatever the clause says.
func (f valueFinder) in(text, lowFolded string) bool {
	if findFoldedToken(strings.ToLower(lowFolded), f.lit) >= 0 {
		return true
	}
	if f.isQ {
		for _, q := range quantity.Parse(text) {
			if quantity.Same(q, f.q) {
				return true
			}
		}
	}
	if f.date != nil {
		for _, d := range quantity.Dates(text) {
			if d.Month == f.date.Month && d.Day == f.date.Day {
				return true
			}
		}
	}
	return false
}

// valueSpan is one occurrence of a value in a field, with what its clause
// says about it (for a value, "not current" cues count).
type valueSpan struct {
	v polarity.Verdict
}

// spans returns every occurrence of the value in leaf l.
func (f valueFinder) spans(st *state, l leaf) []valueSpan {
	var out []valueSpan
	low := l.lower
	if low == "" {
		low = strings.ToLower(l.folded)
	}
	needle := f.low
	var p *polarity.Text // read once the value is found
	for off := 0; needle != "" && off < len(low); {
		i := findToken(low[off:], needle)
		if i < 0 {
			break
		}
		i += off
		v := polarity.Verdict{}
		if len(low) == len(l.folded) {
			if p == nil {
				p = st.pol(l)
			}
			v = valueVerdict(p, i, i+len(needle))
		}
		out = append(out, valueSpan{v: v})
		off = i + len(needle)
	}
	if len(out) > 0 {
		return out
	}
	if f.isQ {
		for _, q := range st.quantities(l) {
			if quantity.Same(q, f.q) {
				out = append(out, valueSpan{v: judgeValue(st, l, q.Start, q.End)})
			}
		}
	}
	if f.date != nil {
		for _, d := range st.dates(l) {
			if d.Month == f.date.Month && d.Day == f.date.Day {
				out = append(out, valueSpan{v: judgeValue(st, l, d.Start, d.End)})
			}
		}
	}
	return out
}

// judgeValue reads what l.text says of the value at [start, end): a
// polarity cue that marks it as not current or former, else a history
// frame (polarity.Text.HistoryFrame).
func judgeValue(st *state, l leaf, start, end int) polarity.Verdict {
	return valueVerdict(st.polRaw(l), start, end)
}

// valueVerdict is what p says of the value at [start, end): a cue of
// notCurrentOrFormer, else a history frame.
func valueVerdict(p *polarity.Text, start, end int) polarity.Verdict {
	v := p.Judge(start, end, nil, notCurrentOrFormer...)
	if v.Kind == "" {
		if h, ok := p.HistoryFrame(start, end); ok {
			return h
		}
	}
	return v
}
