package runner

import (
	"crypto/sha256"
	"encoding/json"
	"reflect"
	"sync"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// decisionMemo holds the decisions of a memoizable agent
// (agents.Memoizable) for the units of one scenario: the full arm of a probe
// is the same for every summarizer and trial, and a compacted arm is the
// same whenever the summary and its coverage are. It lives as long as the
// prepared scenario.
type decisionMemo struct {
	mu sync.Mutex
	// owner is the agent the decisions are from: a Prepared may run units
	// with other agents, whose decisions must not be mixed in (serves).
	owner agents.Agent
	m     map[memoKey]*memoEntry
	// diffs holds Diff of two memoized decisions (go-cmp is not cheap):
	// the same pair recurs for every unit whose summary drops the same
	// fact.
	diffs map[diffKey]string
}

type diffKey struct{ fullChoice, fullReason, compChoice, compReason string }

// diff returns Diff(full, compacted), computed once per pair.
func (m *decisionMemo) diff(full, compacted result.Decision) string {
	k := diffKey{full.Choice, full.Reason, compacted.Choice, compacted.Reason}
	m.mu.Lock()
	d, ok := m.diffs[k]
	m.mu.Unlock()
	if ok {
		return d
	}
	d = Diff(full, compacted)
	m.mu.Lock()
	if m.diffs == nil {
		m.diffs = map[diffKey]string{}
	}
	m.diffs[k] = d
	m.mu.Unlock()
	return d
}

// memoEntry is one decision, ready when done is closed.
type memoEntry struct {
	done chan struct{}
	d    result.Decision
}

// memoKey is one probe asked on one context. The full context has no
// summary (cover -1, the zero digest); a compacted one is known by its
// coverage and the digest of the summary as installed.
type memoKey struct {
	probe   int
	arm     string
	cover   int
	summary [sha256.Size]byte
	// recall is the recall arm's limits (zero on the other arms).
	recall agents.RecallLimits
}

// contextKey returns the part of a memoKey that names the compacted context
// with the active summary (coversThrough, summary); the full context's when
// nothing is installed.
func contextKey(summary json.RawMessage, coversThrough int) (int, [sha256.Size]byte) {
	if summary == nil {
		return -1, [sha256.Size]byte{}
	}
	return coversThrough, sha256.Sum256(summary)
}

// serves reports whether the memo may hold agent's decisions: it is the
// first agent asked, or the same one (an agent whose type is not comparable
// is never the same one).
func (m *decisionMemo) serves(agent agents.Agent) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.owner == nil {
		m.owner = agent
		return true
	}
	if reflect.TypeOf(m.owner) != reflect.TypeOf(agent) || !reflect.ValueOf(agent).Comparable() {
		return false
	}
	return m.owner == agent
}

// do returns the decision memoized under k, or asks for it: the first unit
// to need k asks, and the units needing it meanwhile wait for its answer
// rather than asking too. A decision with an error is not kept: whoever
// waited asks again.
func (m *decisionMemo) do(k memoKey, ask func() result.Decision) result.Decision {
	m.mu.Lock()
	if m.m == nil {
		m.m = map[memoKey]*memoEntry{}
	}
	e := m.m[k]
	if e == nil {
		e = &memoEntry{done: make(chan struct{})}
		m.m[k] = e
		m.mu.Unlock()
		// However ask ends (a panic included), the waiters are released,
		// and what is not a decision is not kept.
		e.d.Error = "the decision was not made"
		defer func() {
			if e.d.Error != "" {
				m.mu.Lock()
				delete(m.m, k)
				m.mu.Unlock()
			}
			close(e.done)
		}()
		e.d = ask()
		return e.d
	}
	m.mu.Unlock()
	<-e.done
	if e.d.Error != "" {
		return ask()
	}
	return e.d
}

// textMemo holds the rendered text of runs of a scenario's events
// (transcript.EventsText of Events[from:to+1]), the same for every unit
// whose generations cut at the same events.
type textMemo struct {
	mu sync.Mutex
	m  map[[2]int]*textEntry
}

type textEntry struct {
	once sync.Once
	text string
}

// get returns the text of events [from, to], rendering it on first use.
func (t *textMemo) get(events []scenarios.Event, from, to int) string {
	t.mu.Lock()
	if t.m == nil {
		t.m = map[[2]int]*textEntry{}
	}
	k := [2]int{from, to}
	e := t.m[k]
	if e == nil {
		e = &textEntry{}
		t.m[k] = e
	}
	t.mu.Unlock()
	e.once.Do(func() { e.text = transcript.EventsText(events[from : to+1]) })
	return e.text
}
