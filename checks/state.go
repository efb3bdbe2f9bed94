package checks

import (
	"bytes"
	"encoding/json"
	"maps"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/internal/quantity"
	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// memo is what Run derives once per input and shares between checks.
type memo struct {
	once sync.Once
	st   *state
}

// state is an input seen through the eyes of the checks.
type state struct {
	in *Input
	// sum is the summary to judge: in.Summary, or Raw decoded.
	sum *summary.Summary
	// viol and readErr are the schema verdict on the document.
	viol    []summary.Violation
	readErr error
	// leaves are the summary's string fields, in document order.
	leaves []leaf
	// sd is the per-scenario precomputed data (nil without a scenario).
	sd *scenarioData
	// mtexts caches what the reader reads in the leaves.
	mtexts texts
	// parsed caches the quantities and dates of the summary's texts.
	parsed parsed
	// loc is the locale of the summary's numbers (see locale).
	localeOnce sync.Once
	loc        quantity.Locale
	// currentLeaves are the leaves without corrections[].supersedes.
	currentOnce   sync.Once
	currentLeaves [][]leaf
	// currentFlat is currentLeaves in one list.
	currentFlatOnce   sync.Once
	currentFlatLeaves []leaf
	// filterOf caches filters by pattern; asciiLower joins the lower
	// text of the ASCII leaves.
	filterMu   sync.Mutex
	filterOf   map[string]*filter
	asciiLower string
	asciiAt    []asciiSpan
	// outsideHyp are currentLeaves without the hypotheses fields.
	outsideOnce sync.Once
	outsideHyp  [][]leaf
}

// parsed caches quantity.Parse and quantity.Dates of each leaf, by its
// index: several checks read the same fields.
type parsed struct {
	mu    sync.Mutex
	q     [][]quantity.Quantity
	qDone []bool
	d     [][]quantity.Date
	dDone []bool
}

// own reports whether l is st.leaves[l.i-1] (a leaf made elsewhere is not).
func (st *state) own(l leaf) bool {
	return l.i > 0 && l.i <= len(st.leaves) && st.leaves[l.i-1].text == l.text
}

// quantities is quantity.Parse(l.text), parsed once per summary. The
// result is shared: callers must not modify it.
func (st *state) quantities(l leaf) []quantity.Quantity {
	if !st.own(l) {
		return quantity.Parse(l.text)
	}
	p := &st.parsed
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.q == nil {
		p.q, p.qDone = make([][]quantity.Quantity, len(st.leaves)), make([]bool, len(st.leaves))
	}
	if !p.qDone[l.i-1] {
		qs := quantity.Parse(l.text)
		for _, q := range qs {
			if q.Alt != 0 {
				// a figure only a locale decides ("1.500 ms"), in a field
				// that shows none: the summary's other fields may
				if loc := st.locale(); loc != quantity.AnyLocale {
					qs = quantity.ParseLocale(l.text, loc)
				}
				break
			}
		}
		p.q[l.i-1], p.qDone[l.i-1] = qs, true
	}
	return p.q[l.i-1]
}

// locale is the locale the summary's fields write their numbers in
// (quantity.DetectLocale of them all), read once.
func (st *state) locale() quantity.Locale {
	st.localeOnce.Do(func() {
		var b strings.Builder
		for _, l := range st.leaves {
			b.WriteString(l.text)
			b.WriteString("\n")
		}
		st.loc = quantity.DetectLocale(b.String())
	})
	return st.loc
}

// dates is quantity.Dates(l.text), parsed once per summary; shared like
// quantities.
func (st *state) dates(l leaf) []quantity.Date {
	if !st.own(l) {
		return quantity.Dates(l.text)
	}
	p := &st.parsed
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.d == nil {
		p.d, p.dDone = make([][]quantity.Date, len(st.leaves)), make([]bool, len(st.leaves))
	}
	if !p.dDone[l.i-1] {
		p.d[l.i-1], p.dDone[l.i-1] = quantity.Dates(l.text), true
	}
	return p.d[l.i-1]
}

// leaf is one string field of the summary.
type leaf struct {
	ptr    string // JSON pointer
	text   string // as written
	folded string // textmatch.Fold(text)
	lower  string // folded, lower-cased (for textmatch.MayMatch)
	i      int    // 1 + its index in state.leaves (0: a leaf made elsewhere)
	ascii  bool   // lower is ASCII
}

func (in *Input) state() *state {
	if in.memo != nil {
		in.memo.once.Do(func() { in.memo.st = newState(in) })
		return in.memo.st
	}
	return newState(in)
}

func newState(in *Input) *state {
	st := &state{in: in, sum: in.Summary}
	if len(bytes.TrimSpace(in.Raw)) > 0 {
		s, vs, err := summary.Decode(in.Raw)
		st.viol, st.readErr = vs, err
		if st.sum == nil {
			st.sum = s
		}
	} else if in.Summary != nil {
		raw, err := json.Marshal(in.Summary)
		if err == nil {
			_, st.viol, st.readErr = summary.Decode(raw)
		}
	}
	if st.sum != nil {
		st.leaves = leavesOf(st.sum)
	}
	if in.Scenario != nil {
		st.sd = dataFor(in.Scenario)
	}
	return st
}

// empty reports whether there is no summary at all (the `none` arm).
func (in *Input) empty() bool {
	return in.Summary == nil && len(bytes.TrimSpace(in.Raw)) == 0
}

func leavesOf(s *summary.Summary) []leaf {
	out := make([]leaf, 0, 2+len(s.Constraints)+5*len(s.Approvals)+len(s.Decisions)+len(s.Verified)+len(s.Hypotheses)+
		2*len(s.Pending)+2*len(s.Artifacts)+3*len(s.Corrections)+2*len(s.Errors)+len(s.NextSteps))
	add := func(ptr, text string) {
		if text != "" {
			f := textmatch.Fold(text)
			low, ascii := lowerOf(f)
			out = append(out, leaf{ptr: ptr, text: text, folded: f, lower: low, i: len(out) + 1, ascii: ascii})
		}
	}
	add("/goal", s.Goal)
	for i, c := range s.Constraints {
		add(ptrf("constraints", i, "text"), c.Text)
	}
	for i, a := range s.Approvals {
		add(ptrf("approvals", i, "text"), a.Text)
		add(ptrf("approvals", i, "approver"), a.Approver)
		add(ptrf("approvals", i, "scope"), a.Scope)
		add(ptrf("approvals", i, "resource"), a.Resource)
		add(ptrf("approvals", i, "expires"), a.Expires)
	}
	for i, c := range s.Decisions {
		add(ptrf("decisions", i, "text"), c.Text)
	}
	for i, c := range s.Verified {
		add(ptrf("verified", i, "claim"), c.Claim)
	}
	for i, h := range s.Hypotheses {
		add(ptrf("hypotheses", i, "claim"), h.Claim)
	}
	for i, p := range s.Pending {
		add(ptrf("pending", i, "op_id"), p.OpID)
		add(ptrf("pending", i, "description"), p.Description)
	}
	for i, a := range s.Artifacts {
		add(ptrf("artifacts", i, "path"), a.Path)
		add(ptrf("artifacts", i, "digest"), a.Digest)
	}
	for i, c := range s.Corrections {
		add(ptrf("corrections", i, "subject"), c.Subject)
		add(ptrf("corrections", i, "value"), c.Value)
		add(ptrf("corrections", i, "supersedes"), c.Supersedes)
	}
	for i, e := range s.Errors {
		add(ptrf("errors", i, "text"), e.Text)
		add(ptrf("errors", i, "resolution"), e.Resolution)
	}
	for i, n := range s.NextSteps {
		add("/next_steps/"+strconv.Itoa(i), n)
	}
	if h := s.Handoff; h != nil {
		add("/handoff/previous_session", h.PreviousSession)
		add("/handoff/reason", h.Reason)
		for i, a := range h.ApprovedArtifacts {
			add("/handoff/approved_artifacts/"+strconv.Itoa(i), a)
		}
		for i, u := range h.Unresolved {
			add("/handoff/unresolved/"+strconv.Itoa(i), u)
		}
	}
	add("/text", s.Text)
	return out
}

// lowerOf is strings.ToLower(s) and whether that is ASCII, in one pass
// over ASCII text (strings.ToLower scans it, then builds the copy byte by
// byte through a Builder, and isASCII scanned it a third time).
func lowerOf(s string) (string, bool) {
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			low := strings.ToLower(s) // K (Kelvin) lowers to ASCII k
			return low, isASCII(low)
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if !upper {
		return s, true
	}
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return unsafe.String(&b[0], len(b)), true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ptrf is the JSON pointer /field/i/sub. Every summary asks for the same
// few (field, sub) pairs at small indexes, so those strings are made once
// per process (bounded: ptrIndexes indexes of at most maxPtrKeys pairs,
// keyed by the strings themselves) rather than once per field per check.
func ptrf(field string, i int, sub string) string {
	if i < 0 || i >= ptrIndexes {
		return makePtr(field, i, sub)
	}
	if m := ptrTab.Load(); m != nil {
		if a := (*m)[ptrPair{field, sub}]; a != nil {
			return a[i]
		}
	}
	return ptrSlow(field, i, sub)
}

func makePtr(field string, i int, sub string) string {
	return "/" + field + "/" + strconv.Itoa(i) + "/" + sub
}

const (
	ptrIndexes = 128
	maxPtrKeys = 64
)

type ptrPair struct{ field, sub string }

// ptrTab maps each (field, sub) to its pointers at indexes 0 to
// ptrIndexes-1. A map it points to is never modified: ptrSlow replaces it
// by a copy with one more pair, so readers need no lock.
var (
	ptrMu  sync.Mutex
	ptrTab atomic.Pointer[map[ptrPair]*[ptrIndexes]string]
)

func ptrSlow(field string, i int, sub string) string {
	ptrMu.Lock()
	defer ptrMu.Unlock()
	key := ptrPair{field, sub}
	m := map[ptrPair]*[ptrIndexes]string{}
	if old := ptrTab.Load(); old != nil {
		if a := (*old)[key]; a != nil {
			return a[i]
		}
		if len(*old) >= maxPtrKeys {
			return makePtr(field, i, sub)
		}
		m = maps.Clone(*old)
	}
	a := new([ptrIndexes]string)
	for k := range a {
		a[k] = makePtr(field, k, sub)
	}
	m[key] = a
	ptrTab.Store(&m)
	return a[i]
}

// textLeaves returns the leaves field-level checks read on a text-only
// summary: /text alone.
func (st *state) textLeaves() []leaf {
	for _, l := range st.leaves {
		if l.ptr == "/text" {
			return []leaf{l}
		}
	}
	return nil
}

// hypothesisClaims returns the folded claim of each hypothesis, by index
// (leaves keep document order, so this is one pass).
func (st *state) hypothesisClaims() []string {
	out := make([]string, len(st.sum.Hypotheses))
	for _, l := range st.leaves {
		if !strings.HasPrefix(l.ptr, "/hypotheses/") || !strings.HasSuffix(l.ptr, "/claim") {
			continue
		}
		if i, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(l.ptr, "/hypotheses/"), "/claim")); err == nil && i < len(out) {
			out[i] = l.folded
		}
	}
	return out
}

// text is the summary's text field ("" when absent).
func (st *state) text() string { return st.sum.Text }

// bound is the last seq the summary may draw on: covers_through, and never
// beyond the cut it was given.
func (st *state) bound() int {
	b := st.sum.CoversThrough
	if c := st.in.Gen.Cut; c > 0 && c < b {
		b = c
	}
	return b
}
