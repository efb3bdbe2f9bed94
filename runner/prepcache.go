package runner

import (
	"sync"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/tokens"
)

// prepCache holds the prepared scenarios of a run: a scenario is loaded
// and prepared when its first unit asks for it (get) and dropped when its
// last unit is done (done), so that memory holds only the scenarios in
// flight. Once a scenario's units start, the next scenario to run is
// prepared in the background (ahead), so that its first unit does not wait
// for the loading while the others wait on the model: memory holds at most
// one scenario more. It is safe for concurrent use.
type prepCache struct {
	load    func(si int) (*prepared, error) // loads and prepares scenario si
	ref     func(si int) Ref
	counter *tokens.Counter
	next    map[int]int // the scenario whose units come after si's in todo

	mu     sync.Mutex
	slots  map[int]*prepSlot
	left   map[int]int  // units of each scenario not yet done
	looked map[int]bool // scenarios whose successor ahead has started
	bg     sync.WaitGroup
}

type prepSlot struct {
	once sync.Once
	p    *prepared
}

// newPrepCache returns the cache for the units todo of plan pl, loading
// scenarios from suite.
func newPrepCache(suite Suite, pl *plan, counter *tokens.Counter, todo []job) *prepCache {
	c := &prepCache{ref: pl.ref, counter: counter, next: map[int]int{}, slots: map[int]*prepSlot{}, left: map[int]int{}, looked: map[int]bool{}}
	c.load = func(si int) (*prepared, error) {
		sc, err := suite.Load(pl.scs[si])
		if err != nil {
			return nil, err
		}
		return prepare(sc, counter), nil
	}
	prev := -1
	for _, jb := range todo {
		c.left[jb.sc]++
		if jb.sc != prev {
			if _, seen := c.next[prev]; prev >= 0 && !seen {
				c.next[prev] = jb.sc
			}
			prev = jb.sc
		}
	}
	return c
}

// get returns scenario si prepared, loading it on first use. A scenario
// that fails to load comes back with loadErr set.
func (c *prepCache) get(si int) *prepared {
	c.mu.Lock()
	sl := c.slot(si)
	c.mu.Unlock()
	return c.fill(sl, si)
}

// slot returns the slot of scenario si, made if needed; c.mu is held.
func (c *prepCache) slot(si int) *prepSlot {
	sl := c.slots[si]
	if sl == nil {
		sl = &prepSlot{}
		c.slots[si] = sl
	}
	return sl
}

// ahead starts preparing, in the background, the scenario that runs after
// si, the first time it is called for si, if that scenario has units left
// and is not held yet. A unit that asks for it meanwhile waits for the same
// preparation (get): it is never done twice.
func (c *prepCache) ahead(si int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.looked[si] {
		return
	}
	c.looked[si] = true
	n, ok := c.next[si]
	if !ok || c.left[n] == 0 || c.slots[n] != nil {
		return
	}
	sl := c.slot(n)
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		c.fill(sl, n)
	}()
}

// wait waits for the preparations ahead started.
func (c *prepCache) wait() { c.bg.Wait() }

// fill prepares scenario si into sl once and returns it.
func (c *prepCache) fill(sl *prepSlot, si int) *prepared {
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
