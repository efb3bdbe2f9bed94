package suggest

import (
	"bytes"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/compact-eval/compact-eval/internal/lazyre"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Retries of a structured call: a tool called with named arguments and no
// command or file (a booking API, a ticket tracker), that failed and was
// called again with one argument changed, until a try worked. The
// argument changed is what was attempted: an update refused for its
// payment four times before a card worked is an attempt at paying with the
// cards that failed (a refuted attempt, suggested with attempts.go's), and
// a value tried once and replaced by the one that worked is a correction
// whose new value is the one the session settled on: the last successful
// call's, not the next try's. A failure is the result's status, or its
// text when the tool writes failures as text (toolfailures.txt).

// structArgs are a call's top-level arguments, each as compact JSON.
type structArgs map[string]string

// structCall is a structured call awaiting its result.
type structCall struct {
	name string
	args structArgs
}

// chainCall is a failed try of a retry chain.
type chainCall struct {
	idx, errIdx int
	args        structArgs
	errLine     string
}

// retryChain is the failed tries of one tool, each differing from the
// one before in at most one argument.
type retryChain struct {
	tries []chainCall
	gap   int // calls of other tools since its last try
}

// Bounds of the retry state.
const (
	maxChainTries = 16
	maxChains     = 64
)

// structuredArgs returns a call's top-level arguments when it is a
// structured call: a JSON object that names no command and no file (those
// calls are read by their signature, attempts.go). ok is false otherwise.
func structuredArgs(name string, raw []byte) (structArgs, bool) {
	if signature(name, raw).sig != "" {
		return nil, false
	}
	return objectArgs(raw)
}

// objectArgs returns a call's top-level arguments when they are a JSON
// object.
func objectArgs(raw []byte) (structArgs, bool) {
	if len(raw) == 0 || len(raw) > 1<<16 {
		return nil, false
	}
	var enc string // the wire form: a string of JSON
	if raw[0] == '"' && json.Unmarshal(raw, &enc) == nil {
		raw = []byte(enc)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || len(m) == 0 {
		return nil, false
	}
	out := structArgs{}
	for k, v := range m {
		var buf bytes.Buffer
		if json.Compact(&buf, v) != nil {
			return nil, false
		}
		out[k] = buf.String()
	}
	return out, true
}

// changedKeys returns the arguments whose values differ between a and b
// (one present in only one of them counts).
func changedKeys(a, b structArgs) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

// scalar returns a compact JSON value as the session writes it: a string
// unquoted, a number or a boolean as is; ok is false for an object, an
// array or null.
func scalar(v string) (string, bool) {
	if v == "" || v == "null" || v[0] == '{' || v[0] == '[' {
		return "", false
	}
	if v[0] == '"' {
		var s string
		if json.Unmarshal([]byte(v), &s) != nil || strings.TrimSpace(s) == "" {
			return "", false
		}
		return s, true
	}
	return v, true
}

// maxValueChars bounds a value a retry replaces: an id, a name, an
// option, never a query or a message.
const maxValueChars = 64

// valueShaped reports an argument's value that names one thing: short,
// of three words at most.
func valueShaped(v string) bool {
	return len(v) <= maxValueChars && strings.Count(strings.TrimSpace(v), " ") <= 2
}

// retryCall notes a structured call until its result comes, and counts
// it in the gap of the other tools' chains.
func (s *Scanner) retryCall(idx int, name string, raw []byte) bool {
	args, ok := structuredArgs(name, raw)
	if !ok {
		return false
	}
	for tool, ch := range s.chains {
		if tool != name {
			ch.gap++
			if ch.gap > maxRetryGap {
				delete(s.chains, tool)
			}
		}
	}
	if s.structCalls == nil {
		s.structCalls = map[int]structCall{}
	}
	if len(s.structCalls) < maxOpenSigs {
		s.structCalls[idx] = structCall{name: name, args: args}
	}
	s.namedCall(idx, name, args)
	s.settleCall(name, args)
	return true
}

// retryResult reads a structured call's result: a failure extends the
// tool's chain of tries, a success after failures resolves it.
func (s *Scanner) retryResult(idx int, e Event, text string) {
	c, ok := s.structCalls[e.CallIdx]
	if !ok {
		return
	}
	delete(s.structCalls, e.CallIdx)
	failed := e.Status != "" && e.Status != scenarios.StatusOK || failsByText(text)
	ch := s.chains[c.name]
	if failed {
		try := chainCall{idx: e.CallIdx, errIdx: idx, args: c.args, errLine: firstLine(text)}
		if ch == nil || len(changedKeys(ch.tries[len(ch.tries)-1].args, c.args)) > 1 || len(ch.tries) == maxChainTries {
			if ch == nil && len(s.chains) >= maxChains {
				return
			}
			if s.chains == nil {
				s.chains = map[string]*retryChain{}
			}
			s.chains[c.name] = &retryChain{tries: []chainCall{try}}
			return
		}
		ch.tries = append(ch.tries, try)
		ch.gap = 0
		return
	}
	s.settleResult(c.name, c.args)
	if ch == nil {
		return
	}
	delete(s.chains, c.name)
	if len(changedKeys(ch.tries[len(ch.tries)-1].args, c.args)) > 1 {
		return // not a retry: another call altogether
	}
	s.resolveChain(c.name, ch, e.CallIdx, c.args)
}

// resolveChain suggests, for each argument the tries changed, the values
// that failed where the final value worked: two or more, a refuted
// attempt; one, a correction to the value the session settled on.
func (s *Scanner) resolveChain(name string, ch *retryChain, fixIdx int, final structArgs) {
	keys := map[string]bool{}
	prev := ch.tries[0].args
	for _, t := range append(ch.tries[1:], chainCall{args: final}) {
		for _, k := range changedKeys(prev, t.args) {
			keys[k] = true
		}
		prev = t.args
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		settled, ok := scalar(final[k])
		if !ok || !valueShaped(settled) {
			continue
		}
		// first is the first try that failed for this argument alone:
		// the others as they worked in the end.
		var values []string
		var first, alone *chainCall
		seen := map[string]bool{}
		for i, t := range ch.tries {
			v, ok := scalar(t.args[k])
			if !ok || v == settled || !valueShaped(v) || strings.Contains(settled, v) || strings.Contains(v, settled) {
				continue // not a value, or one the settled value extends: a query rewritten, no value replaced
			}
			if alone == nil && len(changedKeys(t.args, final)) == 1 {
				alone = &ch.tries[i]
			}
			if first == nil {
				first = &ch.tries[i]
			}
			if !seen[v] {
				seen[v] = true
				values = append(values, v)
			}
		}
		if alone != nil {
			first = alone
		}
		switch {
		case len(values) >= minFails:
			s.structuredAttempt(name, k, values, settled, first, fixIdx, len(ch.tries))
		case len(values) == 1:
			s.settledCorrection(first, settledAt(ch, k, settled, fixIdx), k, values[0], settled)
		}
	}
}

// structuredAttempt records a refuted attempt at a call with an argument:
// the values that failed, recognised by what they share.
func (s *Scanner) structuredAttempt(name, key string, values []string, settled string, first *chainCall, fixIdx, fails int) {
	sig := name + " " + key
	if len(s.attempts) == maxAttempts {
		s.pushOut("attempt", sig)
		return
	}
	s.attempts = append(s.attempts, Attempt{CallIdx: first.idx, ErrIdx: first.errIdx, FixIdx: fixIdx, Fails: fails, Values: values,
		Signature: sig + " = " + strings.Join(values, ", "), Fix: key + " = " + settled, Pattern: valuesPattern(key, values)})
}

// settledAt is the first call that tried the value the session settled
// on: a failed try of the chain, else the call that worked.
func settledAt(ch *retryChain, key, settled string, fixIdx int) int {
	for _, t := range ch.tries {
		if v, ok := scalar(t.args[key]); ok && v == settled {
			return t.idx
		}
	}
	return fixIdx
}

// settledCorrection records the value a failed try held and the one the
// session settled on. Its source is the first call that tried the new
// value (at), where the session replaced the old one; Text is the old
// value's error.
func (s *Scanner) settledCorrection(try *chainCall, at int, subject, old, new string) {
	s.addCorrection(Correction{Idx: at, Old: old, New: new, Text: try.errLine, ByTool: true, Subject: subject, ErrIdx: try.errIdx})
}

// maxStems bounds the alternatives of an attempt's pattern.
const maxStems = 3

// valuesPattern recognises the values an attempt tried by their stem, the
// words left when the digits that tell one from another are dropped
// ("gift_card_6276644", "gift_card_7091239": gift[\W_]+card); values with
// no stem (numbers) are recognised by the argument's name.
func valuesPattern(key string, values []string) string {
	var alts []string
	seen := map[string]bool{}
	for _, v := range values {
		p := stemPattern(v)
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if len(alts) < maxStems {
			alts = append(alts, p)
		}
	}
	if len(alts) == 0 {
		alts = []string{stemPattern(key)}
	}
	return strings.Join(alts, "|")
}

// stemPattern is a value's words of letters, each quoted, joined by
// [\W_]+; "" when it has none of three letters or more.
func stemPattern(v string) string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) >= 3 && len(words) < 4 {
			words = append(words, regexp.QuoteMeta(w))
		}
	}
	return strings.Join(words, `[\W_]+`)
}

func firstLine(text string) string {
	t := strings.TrimSpace(text)
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[:i]
	}
	return t
}

// A user's correction in words ("I actually live in Princeton and am also
// open to flights arriving at EWR") names its value in the calls after it:
// the first call after it that repeats a call made before it with one
// argument changed gives the old value, and the last successful call of
// that tool gives the value the session settled on.

// settling is a correction whose values the calls after it give.
type settling struct {
	corr      int // index in Scanner.corrections; -1 for a turn that is one only if they do
	calls     int // structured calls since the correction
	tool, key string
	old       string
	idx       int    // with corr -1: the user turn
	text      string // and its words
}

// A turn with a weaker marker ("I actually live in Princeton …", "I
// provided the wrong reservation ID") is a correction only when the calls
// after it replace one argument: the link the marker alone does not make.
var weakCorrectionRE = lazyre.New(`(?i)\b(?:actually|wrong|mistaken|by mistake|en realidad|equivocad[oa])\b`)

// settleIfCalled arms the rule for a user turn that holds a weak marker
// and made no correction.
func (s *Scanner) settleIfCalled(idx int, text string) {
	if !weakCorrectionRE.MatchString(text) {
		return
	}
	s.settle = &settling{corr: -1, idx: idx, text: strings.Join(strings.Fields(text), " ")}
}

// maxToolsRemembered bounds the tools whose last call is remembered.
const maxToolsRemembered = 64

// settleFrom arms the rule for the correction at index corr, when its new
// value is words, not a value.
func (s *Scanner) settleFrom(corr int) {
	c := s.corrections[corr]
	if c.ByTool || !strings.Contains(c.New, " ") && !strings.HasPrefix(c.Old, scenarios.Placeholder) {
		s.settle = nil
		return
	}
	s.settle = &settling{corr: corr}
}

// settleCall reads a structured call against an armed correction, then
// remembers it as its tool's last call.
func (s *Scanner) settleCall(name string, args structArgs) {
	if st := s.settle; st != nil && st.tool == "" {
		st.calls++
		if prev, ok := s.lastArgs[name]; ok {
			s.settle = nil
			if ks := changedKeys(prev, args); len(ks) == 1 {
				old, okOld := scalar(prev[ks[0]])
				if _, okNew := scalar(args[ks[0]]); okOld && okNew {
					st.tool, st.key, st.old = name, ks[0], old
					s.settle = st
				}
			}
		} else if st.calls > maxRetryGap {
			s.settle = nil
		}
	}
	if s.lastArgs == nil {
		s.lastArgs = map[string]structArgs{}
	}
	if _, ok := s.lastArgs[name]; ok || len(s.lastArgs) < maxToolsRemembered {
		s.lastArgs[name] = args
	}
}

// settleResult gives the armed correction the value of a successful call
// of its tool: the last one wins.
func (s *Scanner) settleResult(name string, args structArgs) {
	st := s.settle
	if st == nil || st.tool != name {
		return
	}
	v, ok := scalar(args[st.key])
	if !ok || v == st.old || !valueShaped(v) || !valueShaped(st.old) {
		return
	}
	if st.corr < 0 {
		if len(s.corrections) >= maxCorrections {
			return
		}
		s.corrections = append(s.corrections, Correction{Idx: st.idx, Text: st.text})
		st.corr = len(s.corrections) - 1
	}
	c := &s.corrections[st.corr]
	c.Old, c.New, c.Subject = st.old, v, st.key
}
