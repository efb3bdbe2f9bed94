package llm

import (
	"context"
	"sync"
)

// flights make identical requests in flight at once go out once: a run asks
// the same question from several units at the same moment (the full-context
// arm of a probe is the same for every summarizer of a scenario), and
// without them each unit that misses the cache sends its own copy. A call
// whose request is already in flight waits for it, then reads the cache the
// first one filled (so does a call whose flight ended between its first
// lookup and its join); when the first one's reply was not stored (an error, a
// reply that leaks a secret), the waiter sends its own request.
type flights struct {
	mu      sync.Mutex
	m       map[string]chan struct{}
	waiting int // calls waiting for a flight (for tests)
}

// join returns, for the first call of key, a function that ends its flight
// (lead is true); for a later call while the first is in flight, it waits
// until that one ends or ctx is done and returns lead false. Either way the
// caller reads the cache again before it sends: a flight may also have
// ended between its first lookup and join.
func (f *flights) join(ctx context.Context, key string) (end func(), lead bool) {
	f.mu.Lock()
	if ch, ok := f.m[key]; ok {
		f.waiting++
		f.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
		}
		f.mu.Lock()
		f.waiting--
		f.mu.Unlock()
		return func() {}, false
	}
	if f.m == nil {
		f.m = map[string]chan struct{}{}
	}
	ch := make(chan struct{})
	f.m[key] = ch
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		delete(f.m, key)
		f.mu.Unlock()
		close(ch)
	}, true
}
