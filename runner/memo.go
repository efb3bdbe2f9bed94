package runner

import (
	"crypto/sha256"
	"encoding/json"
	"sync"

	"github.com/compact-eval/compact-eval/reports"
)

// decisionMemo holds the decisions of a memoizable agent
// (agents.Memoizable) for the units of one scenario: the full arm of a probe
// is the same for every summarizer and trial, and a compacted arm is the
// same whenever the summary and its coverage are. It lives as long as the
// prepared scenario.
type decisionMemo struct {
	mu sync.Mutex
	m  map[memoKey]*memoEntry
}

// memoEntry is one decision, ready when done is closed.
type memoEntry struct {
	done chan struct{}
	d    reports.Decision
}

// memoKey is one probe asked on one context. The full context has no
// summary (cover -1, the zero digest); a compacted one is known by its
// coverage and the digest of the summary as installed.
type memoKey struct {
	probe   int
	arm     string
	cover   int
	summary [sha256.Size]byte
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

// do returns the decision memoized under k, or asks for it: the first unit
// to need k asks, and the units needing it meanwhile wait for its answer
// rather than asking too. A decision with an error is not kept: whoever
// waited asks again.
func (m *decisionMemo) do(k memoKey, ask func() reports.Decision) reports.Decision {
	m.mu.Lock()
	if m.m == nil {
		m.m = map[memoKey]*memoEntry{}
	}
	e := m.m[k]
	if e == nil {
		e = &memoEntry{done: make(chan struct{})}
		m.m[k] = e
		m.mu.Unlock()
		e.d = ask()
		if e.d.Error != "" {
			m.mu.Lock()
			delete(m.m, k)
			m.mu.Unlock()
		}
		close(e.done)
		return e.d
	}
	m.mu.Unlock()
	<-e.done
	if e.d.Error != "" {
		return ask()
	}
	return e.d
}
