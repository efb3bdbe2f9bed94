package checks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/meaning"
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
// (internal/meaning). (1) The new value appears in some field, outside
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
	cr := correctionRun{st: st, inv: inv, subject: inv.Subject, src: st.sourceOf(inv.SourceSeq)}
	if cr.subject == "" {
		cr.subject = "the value"
	}
	leaves := st.leaves
	if st.sum.TextOnly() {
		leaves = st.textLeaves()
	}
	cr.read(leaves)
	cr.citations()
	by := result.DecidedStatement
	if cr.typedRecord() {
		by = result.DecidedTyped
	}
	switch {
	case len(cr.msgs) > 0:
		msg := cr.msgs[0]
		if len(cr.msgs) > 1 {
			msg += fmt.Sprintf(" (%s)", plural(len(cr.msgs), "problem"))
		}
		return []result.CheckResult{decide(r, result.Fail, by, msg, cr.evidence...)}
	case cr.unsure != nil:
		return []result.CheckResult{decide(r, result.Uncertain, result.DecidedJudge, cr.unsure.Note, *cr.unsure)}
	}
	return []result.CheckResult{decide(r, result.Pass, by,
		fmt.Sprintf("%s is %s at %s; %s appears only as superseded", cr.subject, inv.New, cr.newAt.Pointer, inv.Old), *cr.newAt)}
}

// correctionRun is one run of the correction check.
type correctionRun struct {
	st       *state
	inv      *scenarios.Correction
	subject  string
	src      *meaning.Text
	msgs     []string
	evidence []result.Evidence
	newAt    *result.Evidence
	unsure   *result.Evidence
}

func (c *correctionRun) fail(e result.Evidence, msg string) {
	c.evidence = append(c.evidence, e)
	c.msgs = append(c.msgs, msg)
}

func (c *correctionRun) doubt(l leaf, rd meaning.Reading, what string) {
	if c.unsure == nil {
		note := fmt.Sprintf("%s states %s in words the reader cannot read plainly: %s (%s)", l.ptr, what, clipQ(rd.Text), rd.Why)
		c.unsure = &result.Evidence{Pointer: l.ptr, Seq: c.inv.SourceSeq, Text: clip.String(l.text, clipLen), Note: note}
	}
}

// read reads every occurrence of the two values (internal/meaning): the
// new one must be stated plainly somewhere outside supersedes and the
// artifacts its status retires; the old one only named as the old one.
func (c *correctionRun) read(leaves []leaf) {
	st, inv := c.st, c.inv
	oldF, newF := st.valueFinder(inv.Old, inv.SourceSeq), st.valueFinder(inv.New, inv.SourceSeq)
	var elsewhere *result.Evidence
	for _, l := range leaves {
		retired, isRetired := st.retiredArtifact(l.ptr)
		for _, rd := range newF.readings(st, l, meaning.Now, c.src) {
			note := ""
			switch {
			case isRetired:
				note = "only in an artifact marked " + retired
			case isSupersedes(l.ptr):
				note = "only in supersedes, which holds the old value"
			case rd.Verdict == meaning.Contradicts:
				note = "stated only as not current (" + rd.Why + ")"
			case rd.Reported:
				note = "only reported, not stated"
			case rd.Verdict == meaning.Unclear:
				c.doubt(l, rd, "the corrected "+c.subject+" "+inv.New)
			case c.newAt == nil:
				c.newAt = &result.Evidence{Pointer: l.ptr, Seq: inv.SourceSeq, Text: clip.String(l.text, clipLen), Note: "new value " + inv.New}
			}
			if note != "" && elsewhere == nil {
				elsewhere = &result.Evidence{Pointer: l.ptr, Seq: inv.SourceSeq, Text: clip.String(l.text, clipLen), Note: note}
			}
		}
		if !isSupersedes(l.ptr) && !isRetired {
			c.readOld(l, oldF)
		}
	}
	if c.newAt == nil && c.unsure == nil {
		msg := fmt.Sprintf("the corrected %s %s (from #%d) is missing", c.subject, inv.New, inv.SourceSeq)
		ev := result.Evidence{Seq: inv.SourceSeq, Text: inv.New, Note: "new value missing"}
		if elsewhere != nil {
			msg += fmt.Sprintf(": %s has it %s", elsewhere.Pointer, elsewhere.Note)
			ev = *elsewhere
		}
		c.msgs = append([]string{msg}, c.msgs...)
		c.evidence = append([]result.Evidence{ev}, c.evidence...)
	}
}

// readOld reads the old value's occurrences in l: stated as the value now
// (or brought back) fails; named as the old one passes.
func (c *correctionRun) readOld(l leaf, oldF valueFinder) {
	inv := c.inv
	for _, rd := range oldF.readings(c.st, l, meaning.Replaced, c.src) {
		switch {
		case rd.Reported || rd.Verdict != meaning.Contradicts:
		default:
			c.fail(result.Evidence{Pointer: l.ptr, Seq: inv.SourceSeq, Text: clip.String(l.text, clipLen), Note: "old value " + inv.Old + " stated as current: " + rd.Why},
				fmt.Sprintf("%s states the old %s %s as current; it was corrected to %s at #%d", l.ptr, c.subject, inv.Old, inv.New, inv.SourceSeq))
			return
		}
	}
}

// citations checks that the corrections entry that carries the new value
// cites an event that states it.
func (c *correctionRun) citations() {
	st, inv := c.st, c.inv
	if st.sum.TextOnly() || len(c.msgs) > 0 {
		return
	}
	newF := st.valueFinder(inv.New, inv.SourceSeq)
	for i, cr := range st.sum.Corrections {
		if cr.SourceSeq == 0 || cr.SourceSeq == inv.SourceSeq || !newF.in(cr.Value, foldText(cr.Value)) {
			continue
		}
		if text, ok := st.sd.citedText(cr.SourceSeq); ok && newF.in(text, text) {
			continue
		}
		c.fail(result.Evidence{Pointer: ptrf("corrections", i, "source_seq"), Seq: cr.SourceSeq, Text: cr.Value, Note: fmt.Sprintf("cites #%d, which does not state %s", cr.SourceSeq, inv.New)},
			fmt.Sprintf("the correction at /corrections/%d cites #%d, which does not state %s (corrected at #%d)", i, cr.SourceSeq, inv.New, inv.SourceSeq))
	}
}

// typedRecord reports whether corrections[] holds the correction: an entry
// whose value is the new value and whose supersedes is the old one.
func (c *correctionRun) typedRecord() bool {
	newF, oldF := c.st.valueFinder(c.inv.New, c.inv.SourceSeq), c.st.valueFinder(c.inv.Old, c.inv.SourceSeq)
	for _, cr := range c.st.sum.Corrections {
		if newF.in(cr.Value, foldText(cr.Value)) && oldF.in(cr.Supersedes, foldText(cr.Supersedes)) {
			return true
		}
	}
	return false
}

// sourceOf is the event at seq read, for the modifiers it carries. It is
// read once per scenario: the event is the same for every summary, and a
// *meaning.Text may be shared (what it finds later it keeps under a lock).
func (st *state) sourceOf(seq int) *meaning.Text {
	if st.sd == nil {
		return sourceText(st.eventText(seq))
	}
	if t, ok := st.sd.sources.Load(seq); ok {
		return t.(*meaning.Text)
	}
	t, _ := st.sd.sources.LoadOrStore(seq, sourceText(st.eventText(seq)))
	return t.(*meaning.Text)
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

// readings returns what the clause around every occurrence of the value
// in leaf l says of it, for its role (internal/meaning.ReadValue): found as
// a whole token of the folded text, else as the same quantity or day.
func (f valueFinder) readings(st *state, l leaf, role meaning.Role, src *meaning.Text) []meaning.Reading {
	var out []meaning.Reading
	low := l.lower
	if low == "" {
		low = strings.ToLower(l.folded)
	}
	if len(low) == len(l.folded) {
		for _, i := range tokenOffsets(low, f.low) {
			out = append(out, st.mtext(l).ReadValue(i, i+len(f.low), role, src))
		}
	}
	if len(out) > 0 || !f.isQ && f.date == nil {
		return out
	}
	raw := st.rawText(l) // quantity and date offsets are in the text as written
	if f.isQ {
		for _, q := range st.quantities(l) {
			if quantity.Same(q, f.q) {
				out = append(out, raw.ReadValue(q.Start, q.End, role, src))
			}
		}
	}
	if f.date != nil {
		for _, d := range st.dates(l) {
			if d.Month == f.date.Month && d.Day == f.date.Day {
				out = append(out, raw.ReadValue(d.Start, d.End, role, src))
			}
		}
	}
	return out
}
