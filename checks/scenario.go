package checks

import (
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/internal/quantity"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// scenarioData is what the checks derive from a scenario alone. It is built
// once per *Scenario and cached for the life of the process, so a scenario
// must not be modified after it was first checked.
type scenarioData struct {
	sc *scenarios.Scenario
	// raw is the text of each event of sc.Events (text, tool call name and
	// arguments, result text), aligned with sc.Events.
	raw []string
	// folded is raw, folded and lower-cased.
	folded []string
	// results maps a call id to its first result event in sc.Events.
	results map[string]scenarios.Event
	// calls are the events holding a tool call, in order.
	calls []scenarios.Event
	// callIndex maps a call id to the index of its call event.
	callIndex map[string]int

	secretsOnce sync.Once
	secrets     *secretData // see secret.go

	replaced   sync.Map // replKey -> int
	pathFirst  sync.Map // path -> first seq naming it (0: none)
	quantSeq   sync.Map // *scenarios.Quantity -> first seq stating it (0: none)
	cited      sync.Map // seq -> the text grounding reads ("\x00": no such event)
	wordSets   sync.Map // cited text -> its words
	finders    sync.Map // a correction's value -> its valueFinder
	citedReads sync.Map // seq -> *citedRead (grounding's figures and clauses)
	sessions   sync.Map // cut -> words: grounding's words of the covered events
	subjects   sync.Map // opNamesKey -> an operation's opNames (pending_operation.go)
	msubjects  sync.Map // an invariant -> its *meaning.Subject
	sources    sync.Map // seq -> the event's folded text read (*meaning.Text; nil: none)
}

type replKey struct {
	cut int
	enc string
}

var scenarioCache sync.Map // *scenarios.Scenario -> *scenarioData

func dataFor(sc *scenarios.Scenario) *scenarioData {
	if d, ok := scenarioCache.Load(sc); ok {
		return d.(*scenarioData)
	}
	d := &scenarioData{sc: sc, results: map[string]scenarios.Event{}, callIndex: map[string]int{}}
	for i, e := range sc.Events {
		var b strings.Builder
		b.WriteString(e.Text)
		if c := e.ToolCall; c != nil {
			b.WriteString("\n" + c.ID + " " + c.Name + " " + transcript.Args(c.Args))
			d.calls = append(d.calls, e)
			if _, dup := d.callIndex[c.ID]; !dup {
				d.callIndex[c.ID] = i
			}
		}
		if r := e.ToolResult; r != nil {
			b.WriteString("\n" + r.Text)
			if _, dup := d.results[r.CallID]; !dup {
				d.results[r.CallID] = e
			}
		}
		d.raw = append(d.raw, b.String())
		d.folded = append(d.folded, strings.ToLower(textmatch.Fold(b.String())))
	}
	got, _ := scenarioCache.LoadOrStore(sc, d)
	return got.(*scenarioData)
}

// replacedTokens is the token count of the rendered events 1..cut.
func (d *scenarioData) replacedTokens(cut int, c *tokens.Counter) int {
	k := replKey{cut, c.Name()}
	if n, ok := d.replaced.Load(k); ok {
		return n.(int)
	}
	var evs []scenarios.Event
	for _, e := range d.sc.Events {
		if e.Seq > cut {
			break
		}
		evs = append(evs, e)
	}
	n := c.Count(transcript.EventsText(evs))
	d.replaced.Store(k, n)
	return n
}

// firstPathSeq is the seq of the first event naming path: exactly (as a
// whole token, case-sensitive), or in a listing (see lists); 0 when none
// does.
func (d *scenarioData) firstPathSeq(path string) int {
	if n, ok := d.pathFirst.Load(path); ok {
		return n.(int)
	}
	seq := 0
	for i, r := range d.raw {
		if findToken(r, path) >= 0 || d.lists(i, path) {
			seq = d.sc.Events[i].Seq
			break
		}
	}
	d.pathFirst.Store(path, seq)
	return seq
}

// lists reports whether event i is a tool result that lists path: its
// text holds the base name as a whole token and its call names the
// directory as a whole token (`ls -la config/` printing db.yml.example
// names config/db.yml.example).
func (d *scenarioData) lists(i int, path string) bool {
	e := d.sc.Events[i]
	if e.ToolResult == nil {
		return false
	}
	slash := strings.LastIndex(path, "/")
	if slash <= 0 || slash == len(path)-1 {
		return false
	}
	dir, base := path[:slash], path[slash+1:]
	ci, ok := d.callIndex[e.ToolResult.CallID]
	if !ok || findToken(e.ToolResult.Text, base) < 0 {
		return false
	}
	call := d.raw[ci]
	return findToken(call, dir) >= 0 || findToken(call, dir+"/") >= 0
}

// showsDigest reports whether an event with seq ≤ bound shows path with
// digest: on one line of its text (sha256sum prints "HEX  PATH"), or as a
// result holding the digest whose call names the path. The path may be
// written in full or by its base name.
func (d *scenarioData) showsDigest(path, digest string, bound int) bool {
	hex := strings.ToLower(digest[strings.LastIndex(digest, ":")+1:])
	if len(hex) < 6 {
		return false
	}
	base := path[strings.LastIndex(path, "/")+1:]
	names := func(s string) bool { return findToken(s, path) >= 0 || (base != "" && findToken(s, base) >= 0) }
	for i, e := range d.sc.Events {
		if e.Seq > bound {
			break
		}
		if !strings.Contains(strings.ToLower(d.raw[i]), hex) {
			continue
		}
		for _, line := range strings.Split(d.raw[i], "\n") {
			if strings.Contains(strings.ToLower(line), hex) && names(line) {
				return true
			}
		}
		if e.ToolResult != nil {
			if ci, ok := d.callIndex[e.ToolResult.CallID]; ok && names(d.raw[ci]) {
				return true
			}
		}
	}
	return false
}

// firstQuantitySeq is the seq of the first event stating q's value and
// unit, 0 when none does.
func (d *scenarioData) firstQuantitySeq(q *scenarios.Quantity) int {
	if n, ok := d.quantSeq.Load(q); ok {
		return n.(int)
	}
	seq := 0
	for i, r := range d.raw {
		if hasQuantity(r, q.Value, q.Unit) {
			seq = d.sc.Events[i].Seq
			break
		}
	}
	d.quantSeq.Store(q, seq)
	return seq
}

func hasQuantity(text string, v float64, unit string) bool {
	for _, f := range quantity.Parse(text) {
		if f.Is(v, unit) {
			return true
		}
	}
	return false
}

// findToken returns the offset of the first occurrence of needle in hay that
// stands as a whole token, -1 if none. A token boundary is the start or end
// of the text or a character that cannot continue a name: so `db.yaml` is
// not found in `db.yaml.bak` nor in `old-db.yaml`, `a/b` is not found in
// `./a/b`, and `5432` is not found in `65432`; a full stop or comma ending a
// sentence after the token is a boundary.
func findToken(hay, needle string) int {
	if needle == "" {
		return -1
	}
	off := 0
	for {
		i := strings.Index(hay[off:], needle)
		if i < 0 {
			return -1
		}
		i += off
		j := i + len(needle)
		if boundaryBefore(hay, i, needle) && boundaryAfter(hay, j, needle) {
			return i
		}
		off = i + 1
	}
}

func wordish(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// joiner characters continue a name when a word character follows them.
func joiner(r rune) bool {
	switch r {
	case '.', '-', '/', '\\', '~', '+', '@':
		return true
	}
	return false
}

func boundaryBefore(s string, i int, needle string) bool {
	if i == 0 {
		return true
	}
	first, _ := utf8.DecodeRuneInString(needle)
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	if !wordish(first) && !joiner(first) {
		return true
	}
	if wordish(prev) {
		return false
	}
	// "./a/b" does not name "a/b"; "--config" does not name "config".
	return !joiner(prev)
}

func boundaryAfter(s string, j int, needle string) bool {
	if j >= len(s) {
		return true
	}
	last, _ := utf8.DecodeLastRuneInString(needle)
	if !wordish(last) && !joiner(last) {
		return true
	}
	next, n := utf8.DecodeRuneInString(s[j:])
	if wordish(next) {
		return false
	}
	if joiner(next) && j+n < len(s) {
		after, _ := utf8.DecodeRuneInString(s[j+n:])
		return !wordish(after)
	}
	return true
}

// findFoldedToken is findToken on folded, lower-cased text: for values
// (correction old/new) that compare without case or accents.
func findFoldedToken(foldedLowerHay, needle string) int {
	return findToken(foldedLowerHay, strings.ToLower(textmatch.Fold(needle)))
}

// Forget drops what the checks cached about sc (event texts, token counts).
// A long-lived process that loads many scenarios, or one that must modify a
// scenario it already checked, calls it when done with sc.
func Forget(sc *scenarios.Scenario) { scenarioCache.Delete(sc) }

// eventIndex returns the index in sc.Events of the event with seq, -1 when
// there is none.
func (d *scenarioData) eventIndex(seq int) int {
	ev := d.sc.Events
	i := sort.Search(len(ev), func(i int) bool { return ev[i].Seq >= seq })
	if i < len(ev) && ev[i].Seq == seq {
		return i
	}
	return -1
}

// eventMatches reports whether one of patterns matches the event with seq
// (read with its protocol partner, as grounding reads it).
func (d *scenarioData) eventMatches(seq int, patterns []string) bool {
	text, ok := d.citedText(seq)
	return ok && matchesAny(patterns, text)
}

// otherRule reports whether the patterns of a constraint of the scenario
// other than inv find folded: it states that rule.
func (d *scenarioData) otherRule(inv *scenarios.Constraint, folded string) bool {
	for _, i := range d.sc.Invariants {
		c, ok := scenarios.Pointer(i).(*scenarios.Constraint)
		if ok && c.ID != inv.ID && matchesAny(c.Match, folded) {
			return true
		}
	}
	return false
}

// isResultOf reports whether the event with seq is a result of call id.
func (d *scenarioData) isResultOf(seq int, id string) bool {
	i := d.eventIndex(seq)
	return i >= 0 && d.sc.Events[i].ToolResult != nil && d.sc.Events[i].ToolResult.CallID == id
}
