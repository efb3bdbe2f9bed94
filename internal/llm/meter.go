package llm

import (
	"errors"
	"sync/atomic"
)

// ErrNotCached is the error of a call a CacheOnly client cannot answer from
// the cache: it sent nothing.
var ErrNotCached = errors.New("not in the response cache (nothing sent)")

// Meter counts the model calls of every client that shares it (Config.Meter):
// a run gives one to all its summarizers, agents and judges, and its progress
// line reads the sum. It is safe for concurrent use; the zero value is ready,
// and a nil *Meter counts nothing.
type Meter struct {
	requests, retries, errs, hits atomic.Int64
}

// Counters returns the counts so far; all zero for a nil Meter.
func (m *Meter) Counters() Counters {
	if m == nil {
		return Counters{}
	}
	return Counters{Requests: int(m.requests.Load()), Retries: int(m.retries.Load()), Errors: int(m.errs.Load()), CacheHits: int(m.hits.Load())}
}

// meters is a client's own meter and the one it shares (nil when none).
type meters struct {
	own    Meter
	shared *Meter
}

func (m *meters) countRequest() { m.add(func(x *Meter) *atomic.Int64 { return &x.requests }) }
func (m *meters) countRetry()   { m.add(func(x *Meter) *atomic.Int64 { return &x.retries }) }
func (m *meters) countError()   { m.add(func(x *Meter) *atomic.Int64 { return &x.errs }) }
func (m *meters) countHit()     { m.add(func(x *Meter) *atomic.Int64 { return &x.hits }) }

func (m *meters) add(field func(*Meter) *atomic.Int64) {
	field(&m.own).Add(1)
	if m.shared != nil {
		field(m.shared).Add(1)
	}
}
