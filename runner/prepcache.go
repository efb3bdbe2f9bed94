package runner

import (
	"sync"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/tokens"
)

// prepCache holds the prepared scenarios of a run: a scenario is loaded
// and prepared when its first unit asks for it (get) and dropped when its
// last unit is done (done), so that memory holds only the scenarios in
// flight. It is safe for concurrent use.
type prepCache struct {
	load    func(si int) (*prepared, error) // loads and prepares scenario si
	ref     func(si int) Ref
	counter *tokens.Counter

	mu    sync.Mutex
	slots map[int]*prepSlot
	left  map[int]int // units of each scenario not yet done
}

type prepSlot struct {
	once sync.Once
	p    *prepared
}

// newPrepCache returns the cache for the units todo of plan pl, loading
// scenarios from suite.
func newPrepCache(suite Suite, pl *plan, counter *tokens.Counter, todo []job) *prepCache {
	c := &prepCache{ref: pl.ref, counter: counter, slots: map[int]*prepSlot{}, left: map[int]int{}}
	c.load = func(si int) (*prepared, error) {
		sc, err := suite.Load(pl.scs[si])
		if err != nil {
			return nil, err
		}
		return prepare(sc, counter), nil
	}
	for _, jb := range todo {
		c.left[jb.sc]++
	}
	return c
}

// get returns scenario si prepared, loading it on first use. A scenario
// that fails to load comes back with loadErr set.
func (c *prepCache) get(si int) *prepared {
	c.mu.Lock()
	sl := c.slots[si]
	if sl == nil {
		sl = &prepSlot{}
		c.slots[si] = sl
	}
	c.mu.Unlock()
	sl.once.Do(func() {
		p, err := c.load(si)
		if err != nil {
			p = &prepared{loadErr: err, ref: c.ref(si)}
		}
		sl.p = p
	})
	return sl.p
}

// done records that one unit of scenario si is done; after its last, the
// scenario is dropped (with what the checks cached about it).
func (c *prepCache) done(si int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.left[si]--; c.left[si] == 0 {
		if sl := c.slots[si]; sl != nil && sl.p != nil && sl.p.sc != nil {
			// The checks cache per-scenario data too; drop it with ours
			// so memory stays flat over a long run.
			checks.Forget(sl.p.sc)
		}
		delete(c.slots, si)
	}
}

// held returns the number of scenarios in memory.
func (c *prepCache) held() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.slots)
}
