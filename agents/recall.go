package agents

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
	"github.com/compact-eval/compact-eval/summary"
)

// ArmRecall is the recall arm: the compacted context plus the recall tool
// (docs/formats.md, "The recall arm").
const ArmRecall = "recall"

// RecallLimits bound the recall tool for one probe: Calls calls, each
// returning at most Events events and Tokens tokens of their text. A zero
// field takes its value from DefaultRecallLimits.
type RecallLimits struct {
	Calls  int
	Events int
	Tokens int
}

// DefaultRecallLimits are the limits of run --recall when --recall-budget
// is not given: 4 calls per probe, 5 events and 1,500 tokens per call —
// room to follow the citations of the entries on a probe's subject and to
// search twice, far less than re-reading the history.
var DefaultRecallLimits = RecallLimits{Calls: 4, Events: 5, Tokens: 1500}

// WithDefaults fills the zero fields of l from DefaultRecallLimits.
func (l RecallLimits) WithDefaults() RecallLimits {
	if l.Calls <= 0 {
		l.Calls = DefaultRecallLimits.Calls
	}
	if l.Events <= 0 {
		l.Events = DefaultRecallLimits.Events
	}
	if l.Tokens <= 0 {
		l.Tokens = DefaultRecallLimits.Tokens
	}
	return l
}

// ParseRecallLimits reads --recall-budget: "K" (calls per probe) or
// "K,N,T" (calls per probe, events per call, tokens per call).
func ParseRecallLimits(s string) (RecallLimits, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 1 && len(parts) != 3 {
		return RecallLimits{}, fmt.Errorf("recall budget %q: want CALLS or CALLS,EVENTS,TOKENS (e.g. 4 or 4,5,1500)", s)
	}
	var v [3]int
	for i, p := range parts {
		n := 0
		if _, err := fmt.Sscan(strings.TrimSpace(p), &n); err != nil || n < 1 {
			return RecallLimits{}, fmt.Errorf("recall budget %q: %q is not a positive whole number", s, p)
		}
		v[i] = n
	}
	return RecallLimits{Calls: v[0], Events: v[1], Tokens: v[2]}.WithDefaults(), nil
}

// RecallIndex is a scenario's history as the recall tool reads it: each
// event's text (as scenarios/transcript renders it alone) and the words a
// search matches. Build it once per scenario (NewRecallIndex) and open a
// RecallStore on it per compacted context; it is safe for concurrent use.
type RecallIndex struct {
	events []scenarios.Event
	texts  []string
	terms  [][]string // distinct search terms of each event
	count  func(string) int

	mu     sync.Mutex
	tokens map[int]int // by index, counted on first return
}

// NewRecallIndex indexes events (in seq order); count counts a text's
// tokens (the run's tokenizer).
func NewRecallIndex(events []scenarios.Event, count func(string) int) *RecallIndex {
	x := &RecallIndex{events: events, count: count, tokens: map[int]int{}}
	x.texts = make([]string, len(events))
	x.terms = make([][]string, len(events))
	for i, e := range events {
		x.texts[i] = transcript.EventsText([]scenarios.Event{e})
		x.terms[i] = searchTerms(eventWords(e))
	}
	return x
}

func (x *RecallIndex) tokensOf(i int) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	n, ok := x.tokens[i]
	if !ok {
		n = x.count(x.texts[i])
		x.tokens[i] = n
	}
	return n
}

// RecallStore is what the recall tool serves for one compacted context:
// the events the active summary replaced (seq ≤ its covers_through), and
// the seqs the summary cites.
type RecallStore struct {
	x     *RecallIndex
	n     int // events[:n] are stored
	cited []Citation
	df    map[string]int
}

// Citation is a seq a summary entry cites (source_seq, resolved_by), with
// the entry's text.
type Citation struct {
	Seq   int
	Entry string // folded, lower-cased text of the citing entry
}

// Store opens the store of the compacted context whose active summary is
// raw, covering through coversThrough.
func (x *RecallIndex) Store(raw json.RawMessage, coversThrough int) *RecallStore {
	n := sort.Search(len(x.events), func(i int) bool { return x.events[i].Seq > coversThrough })
	s := &RecallStore{x: x, n: n, cited: Citations(raw), df: map[string]int{}}
	for i := range n {
		for _, t := range x.terms[i] {
			s.df[t]++
		}
	}
	return s
}

// Citations returns the seqs a summary document cites, entry by entry in
// document order: every source_seq, resolved_by and invalidated_by of a
// structured entry.
// A document that does not decode cites nothing.
func Citations(raw json.RawMessage) []Citation {
	var s summary.Summary
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return nil
	}
	var out []Citation
	add := func(seq int, parts ...string) {
		if seq > 0 {
			out = append(out, Citation{Seq: seq, Entry: strings.ToLower(textmatch.Fold(strings.Join(parts, " ")))})
		}
	}
	for _, e := range s.Constraints {
		add(e.SourceSeq, e.Text)
	}
	for _, e := range s.Decisions {
		add(e.SourceSeq, e.Text)
	}
	for _, e := range s.Verified {
		add(e.SourceSeq, e.Claim)
	}
	for _, e := range s.Hypotheses {
		add(e.SourceSeq, e.Claim, e.Status)
		add(e.ResolvedBy, e.Claim, e.Status)
	}
	for _, e := range s.Pending {
		add(e.SourceSeq, e.OpID, e.Description, e.Status)
	}
	for _, e := range s.Artifacts {
		add(e.SourceSeq, e.Path, e.Status)
	}
	for _, e := range s.Corrections {
		add(e.SourceSeq, e.Subject, e.Value)
	}
	for _, e := range s.Errors {
		add(e.SourceSeq, e.Text, e.Resolution)
	}
	for _, e := range s.Approvals {
		add(e.SourceSeq, e.Text, e.Approver, e.Scope, e.Resource, e.Status)
		add(e.InvalidatedBy, e.Text, e.Status)
	}
	if h := s.Handoff; h != nil {
		add(h.SourceSeq, h.PreviousSession, h.Reason)
	}
	return out
}

// CitationFigures measures the citations of the summary raw, covering
// through coversThrough, against evidence: for each invariant, the seqs
// its evidence is in (result.CitationFigures). An invariant counts when
// one of its evidence seqs was replaced (≤ coversThrough).
func (x *RecallIndex) CitationFigures(raw json.RawMessage, coversThrough int, evidence [][]int) *result.CitationFigures {
	cited := Citations(raw)
	f := &result.CitationFigures{Cited: len(cited)}
	seqs := map[int]bool{}
	for _, c := range cited {
		seqs[c.Seq] = true
		i := sort.Search(len(x.events), func(i int) bool { return x.events[i].Seq >= c.Seq })
		if i == len(x.events) || x.events[i].Seq != c.Seq {
			f.Dangling++
			continue
		}
		shared := false
		words := x.terms[i]
		for _, t := range searchTerms(c.Entry) {
			if _, ok := slices.BinarySearch(words, t); ok {
				shared = true
				break
			}
		}
		if !shared {
			f.Irrelevant++
		}
	}
	for _, ev := range evidence {
		replaced, hit := false, false
		for _, s := range ev {
			if s > 0 && s <= coversThrough {
				replaced = true
				hit = hit || seqs[s]
			}
		}
		if replaced {
			f.Evidence++
			if hit {
				f.EvidenceCited++
			}
		}
	}
	return f
}

// Cited returns the citations of the store's summary.
func (s *RecallStore) Cited() []Citation { return s.cited }

// Recall is one probe's use of the recall tool: its store, its limits and
// the calls made so far. Get and Search are the tool's two calls. It is
// used by one agent call at a time.
type Recall struct {
	store    *RecallStore
	lim      RecallLimits
	calls    []result.RecallCall
	made     int
	returned map[int]bool // seqs returned by an earlier call
}

// Session opens a recall session with limits lim (zero fields: defaults).
func (s *RecallStore) Session(lim RecallLimits) *Recall {
	return &Recall{store: s, lim: lim.WithDefaults(), returned: map[int]bool{}}
}

// ErrRecallBudget is returned by a call made after the probe's budget of
// calls was spent.
var ErrRecallBudget = errors.New("the recall budget of this probe is spent")

// Calls returns the calls made so far.
func (r *Recall) Calls() []result.RecallCall { return slices.Clone(r.calls) }

// Limits returns the session's limits.
func (r *Recall) Limits() RecallLimits { return r.lim }

// Left is the number of calls the budget still allows.
func (r *Recall) Left() int { return r.lim.Calls - r.made }

// Store returns the session's store.
func (r *Recall) Store() *RecallStore { return r.store }

// RecalledEvent is one event the tool returned, with its text.
type RecalledEvent struct {
	Event scenarios.Event
	Text  string
}

// Get returns the stored events with the given seqs, in the order asked,
// within the per-call caps. A seq that is no stored event is Missing.
func (r *Recall) Get(seqs []int) ([]RecalledEvent, error) {
	c := result.RecallCall{Kind: result.RecallBySeq, Seqs: slices.Clone(seqs)}
	if err := r.spend(&c); err != nil {
		return nil, err
	}
	var idx []int
	seen := map[int]bool{}
	for _, q := range seqs {
		i, ok := r.store.find(q)
		if !ok {
			c.Missing = append(c.Missing, q)
			continue
		}
		if !seen[i] {
			seen[i] = true
			idx = append(idx, i)
		}
	}
	return r.serve(&c, idx), nil
}

// Search returns the stored events that share words with query, best
// first: each distinct word of the query (words of three letters or more,
// folded) an event holds adds log(1 + stored/events-holding-it), ties go
// to the earlier event, and events an earlier call of this session
// returned are skipped (a second search pages on). At most the per-call
// caps.
func (r *Recall) Search(query string) ([]RecalledEvent, error) {
	c := result.RecallCall{Kind: result.RecallBySearch, Query: query}
	terms := searchTerms(query)
	if len(terms) == 0 {
		c.Error = "the query has no word to search for"
		r.calls = append(r.calls, c)
		return nil, errors.New(c.Error)
	}
	if err := r.spend(&c); err != nil {
		return nil, err
	}
	s := r.store
	type hit struct {
		i     int
		score float64
	}
	var hits []hit
	for i := range s.n {
		if r.returned[s.x.events[i].Seq] {
			continue
		}
		score := 0.0
		for _, t := range terms {
			if _, ok := slices.BinarySearch(s.x.terms[i], t); ok {
				score += math.Log(1 + float64(s.n)/float64(s.df[t]))
			}
		}
		if score > 0 {
			hits = append(hits, hit{i, score})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].score > hits[b].score })
	idx := make([]int, len(hits))
	for k, h := range hits {
		idx[k] = h.i
	}
	return r.serve(&c, idx), nil
}

// spend counts a call against the budget, or records it refused.
func (r *Recall) spend(c *result.RecallCall) error {
	if r.made >= r.lim.Calls {
		c.Error = ErrRecallBudget.Error()
		r.calls = append(r.calls, *c)
		return ErrRecallBudget
	}
	r.made++
	return nil
}

// serve returns the events at idx (store indexes) in order, within the
// caps: at most Events events and Tokens tokens; an event that would pass
// the token cap is withheld and the next ones are tried.
func (r *Recall) serve(c *result.RecallCall, idx []int) []RecalledEvent {
	x := r.store.x
	var out []RecalledEvent
	for _, i := range idx {
		e := x.events[i]
		if len(out) >= r.lim.Events {
			c.Withheld = append(c.Withheld, e.Seq)
			continue
		}
		t := x.tokensOf(i)
		if c.Tokens+t > r.lim.Tokens {
			c.Withheld = append(c.Withheld, e.Seq)
			continue
		}
		c.Tokens += t
		c.Returned = append(c.Returned, e.Seq)
		r.returned[e.Seq] = true
		out = append(out, RecalledEvent{Event: e, Text: x.texts[i]})
	}
	if len(c.Withheld) > 8 {
		c.Withheld = c.Withheld[:8] // enough to show the cap bit
	}
	r.calls = append(r.calls, *c)
	return out
}

// find returns the store index of the stored event seq.
func (s *RecallStore) find(seq int) (int, bool) {
	i := sort.Search(s.n, func(i int) bool { return s.x.events[i].Seq >= seq })
	return i, i < s.n && s.x.events[i].Seq == seq
}

// eventWords is what a search reads of an event: its text, its tool
// call's name and arguments, its tool result's text; never the rendered
// "[#seq role]" header.
func eventWords(e scenarios.Event) string {
	w := e.Text
	if c := e.ToolCall; c != nil {
		w += " " + c.Name + " " + transcript.Args(c.Args)
	}
	if r := e.ToolResult; r != nil {
		w += " " + r.Text
	}
	return w
}

// stopWords are words too common to search for or to tie an entry to a
// probe's subject (English and Spanish).
var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "this": true, "that": true, "are": true, "was": true,
	"not": true, "you": true, "your": true, "its": true, "from": true, "but": true, "has": true, "have": true,
	"will": true, "can": true, "all": true, "any": true, "now": true, "what": true, "who": true, "how": true,
	"los": true, "las": true, "del": true, "que": true, "con": true, "por": true, "una": true, "para": true,
}

// searchTerms are the distinct words of text (letters and digits, folded,
// lower-cased, three characters or more, stopWords left out), sorted.
func searchTerms(text string) []string {
	f := strings.ToLower(textmatch.Fold(text))
	words := strings.FieldsFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := words[:0]
	for _, w := range words {
		if len([]rune(w)) >= 3 && !stopWords[w] {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// RecallText renders returned events for an agent: their text, one event
// after another, or a line saying nothing was found.
func RecallText(events []RecalledEvent) string {
	if len(events) == 0 {
		return "(no stored event matched)"
	}
	var b strings.Builder
	for _, e := range events {
		b.WriteString(e.Text)
	}
	return b.String()
}
