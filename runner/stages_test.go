package runner

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/scenarios"
)

// refSuite is a Suite of named scenarios that counts its loads.
type refSuite struct {
	refs  []Ref
	mu    sync.Mutex
	loads map[int]int
	fail  map[int]bool
}

func newRefSuite(ids ...string) *refSuite {
	s := &refSuite{loads: map[int]int{}, fail: map[int]bool{}}
	for _, id := range ids {
		s.refs = append(s.refs, Ref{ID: id, Digest: "d-" + id, File: id + ".yaml"})
	}
	return s
}

func (s *refSuite) Refs() []Ref { return s.refs }

func (s *refSuite) Load(i int) (*scenarios.Scenario, error) {
	s.mu.Lock()
	s.loads[i]++
	s.mu.Unlock()
	if s.fail[i] {
		return nil, errors.New("broken")
	}
	return &scenarios.Scenario{ID: s.refs[i].ID, Digest: s.refs[i].Digest}, nil
}

func twoSummarizers() []Summarizer {
	return []Summarizer{{Name: "b"}, {Name: "a"}}
}

// The plan: scenarios in id order whatever the suite's order, then
// summarizers in the order given, then trials; positions follow.
func TestPlanOrder(t *testing.T) {
	suite := newRefSuite("zeta", "alpha", "mid")
	opts := &Options{Summarizers: twoSummarizers()}
	pl := makePlan(suite, opts, 2)
	var got []string
	for i, jb := range pl.jobs {
		if jb.pos != i {
			t.Errorf("job %d has position %d", i, jb.pos)
		}
		r := pl.ref(jb.sc)
		got = append(got, fmt.Sprintf("%s %s t%d", r.ID, opts.Summarizers[jb.sum].Name, jb.trial))
		if jb.key != unitKey(r.ID, r.Digest, opts.Summarizers[jb.sum].Name, jb.trial) {
			t.Errorf("job %d: key %q", i, jb.key)
		}
	}
	want := []string{
		"alpha b t0", "alpha b t1", "alpha a t0", "alpha a t1",
		"mid b t0", "mid b t1", "mid a t0", "mid a t1",
		"zeta b t0", "zeta b t1", "zeta a t0", "zeta a t1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(len(want), len(pl.keys())); diff != "" {
		t.Error(diff)
	}
}

// Sharding and the filters keep scenarios, never parts of one: the shards
// of a suite partition its units, each in plan order.
func TestPlanShardsAndFilters(t *testing.T) {
	var ids []string
	for i := range 30 {
		ids = append(ids, fmt.Sprintf("s%02d", i))
	}
	suite := newRefSuite(ids...)
	all := makePlan(suite, &Options{Summarizers: twoSummarizers()}, 1)
	seen := map[string]int{}
	for i := 1; i <= 3; i++ {
		opts := &Options{Summarizers: twoSummarizers(), Shard: Shard{Index: i, Count: 3}}
		pl := makePlan(suite, opts, 1)
		prev := ""
		for _, jb := range pl.jobs {
			id := pl.ref(jb.sc).ID
			if !result.InShard(id, i, 3) {
				t.Errorf("shard %d/3 holds %s", i, id)
			}
			if id < prev {
				t.Errorf("shard %d/3: %s after %s", i, id, prev)
			}
			prev = id
			seen[jb.key]++
		}
	}
	if len(seen) != len(all.jobs) {
		t.Errorf("shards hold %d units, the suite %d", len(seen), len(all.jobs))
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%q in %d shards", k, n)
		}
	}
	opts := &Options{Summarizers: twoSummarizers(), Run: regexp.MustCompile(`^s0[1-3]$`), Scenarios: []string{"s02", "s03", "s09"}}
	pl := makePlan(suite, opts, 1)
	var got []string
	for _, si := range pl.scs {
		got = append(got, pl.refs[si].ID)
	}
	if diff := cmp.Diff([]string{"s02", "s03"}, got); diff != "" {
		t.Errorf("--run and --scenarios together (-want +got):\n%s", diff)
	}
	done := map[string]bool{pl.jobs[0].key: true, pl.jobs[3].key: true}
	todo, reused := pl.pending(func(k string) bool { return done[k] })
	if reused != 2 || len(todo) != 2 || todo[0].pos != 1 || todo[1].pos != 2 {
		t.Errorf("pending: %d reused, todo %+v", reused, todo)
	}
	if n := pl.missing(func(k string) bool { return done[k] }); n != 2 {
		t.Errorf("missing = %d, want 2", n)
	}
}

// The cache loads a scenario once, on its first unit, whatever the
// concurrency, and drops it after its last unit; a scenario that fails to
// load is a prepared value carrying the error.
func TestPrepCacheLifetime(t *testing.T) {
	suite := newRefSuite("a", "b")
	suite.fail[1] = true
	pl := makePlan(suite, &Options{Summarizers: twoSummarizers()}, 3)
	todo, _ := pl.pending(func(string) bool { return false })
	c := newPrepCache(suite, &pl, tokens.Default(), todo)
	if c.held() != 0 {
		t.Fatal("loaded before any unit asked")
	}
	var wg sync.WaitGroup
	got := make([]*prepared, 6)
	for i := range 6 {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = c.get(0) }()
	}
	wg.Wait()
	for _, p := range got {
		if p != got[0] || p.sc == nil || p.sc.ID != "a" {
			t.Fatalf("get(0) = %+v", p)
		}
	}
	if suite.loads[0] != 1 || c.held() != 1 {
		t.Fatalf("loads %d, held %d", suite.loads[0], c.held())
	}
	for range 5 {
		c.done(0)
	}
	if c.held() != 1 {
		t.Fatal("dropped before its last unit")
	}
	c.done(0)
	if c.held() != 0 {
		t.Fatal("kept after its last unit")
	}
	if p := c.get(1); p.loadErr == nil || p.ref.ID != "b" {
		t.Fatalf("broken scenario: %+v", p)
	}
	if p := c.get(1); suite.loads[1] != 1 || p.loadErr == nil {
		t.Fatalf("a failed load is kept for the scenario's units: %d loads", suite.loads[1])
	}
}

// ahead prepares the next scenario of the run once, in the background: the
// units that then ask for it get that preparation, nothing is loaded twice,
// a scenario with no unit left is never loaded, and the last scenario has
// no successor.
func TestPrepCacheAhead(t *testing.T) {
	suite := newRefSuite("a", "b", "c", "d")
	pl := makePlan(suite, &Options{Summarizers: twoSummarizers()}, 2)
	// c's units are already in the journal: b's successor is d.
	todo, _ := pl.pending(func(key string) bool { return strings.HasPrefix(key, "c\x00") })
	c := newPrepCache(suite, &pl, tokens.Default(), todo)
	c.get(0)
	c.ahead(0)
	c.ahead(0)
	c.wait()
	if suite.loads[1] != 1 || c.held() != 2 {
		t.Fatalf("after ahead(a): b loaded %d times, %d held", suite.loads[1], c.held())
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() { defer wg.Done(); c.get(1); c.ahead(1) }()
	}
	wg.Wait()
	c.wait()
	if suite.loads[1] != 1 {
		t.Errorf("b loaded %d times", suite.loads[1])
	}
	if suite.loads[2] != 0 || suite.loads[3] != 1 {
		t.Errorf("loads of c, d: %d, %d (want 0, 1: c has no unit left)", suite.loads[2], suite.loads[3])
	}
	c.get(3)
	c.ahead(3)
	c.wait()
	for si := range 4 {
		if si != 2 {
			for range 4 {
				c.done(si)
			}
		}
	}
	if c.held() != 0 || suite.loads[2] != 0 {
		t.Errorf("after every unit: %d held, c loaded %d times", c.held(), suite.loads[2])
	}
}

// batches records the batches written; it fails the write fail (1-based).
type batches struct {
	got  [][]string
	fail int
}

func (b *batches) append(units []result.Unit) error {
	var ids []string
	for _, u := range units {
		ids = append(ids, u.Scenario.ID)
	}
	b.got = append(b.got, ids)
	if len(b.got) == b.fail {
		return errors.New("disk full")
	}
	return nil
}

func unitsOf(ids ...string) chan result.Unit {
	ch := make(chan result.Unit, len(ids))
	for _, id := range ids {
		st := result.UnitOK
		switch id {
		case "abandoned":
			st = result.UnitAbandoned
		case "errored":
			st = result.UnitError
		}
		ch <- result.Unit{Scenario: result.ScenarioRef{ID: id}, Status: st}
	}
	return ch
}

// Units already waiting are written in one batch (one sync); abandoned
// units are journaled but not counted as run; progress is told the total
// first, then sees every unit and counts the errored ones.
func TestCollectGroupCommit(t *testing.T) {
	results := unitsOf("a", "errored", "abandoned", "c")
	close(results)
	w := &batches{}
	var prog []string
	ran, err := collect(results, w, make(chan struct{}), func(t Tally) { prog = append(prog, fmt.Sprintf("%d/%d e%d", t.Done, t.Total, t.Errors)) }, 4)
	if err != nil || ran != 3 {
		t.Fatalf("ran %d, err %v", ran, err)
	}
	if diff := cmp.Diff([][]string{{"a", "errored", "abandoned", "c"}}, w.got); diff != "" {
		t.Errorf("batches (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"0/4 e0", "1/4 e0", "2/4 e1", "2/4 e1", "3/4 e1"}, prog); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}

// A failed write stops the scheduler (stop is closed, once) and the
// collector goes on draining what is in flight; the first error is
// returned.
func TestCollectFailureStops(t *testing.T) {
	results := make(chan result.Unit)
	stop := make(chan struct{})
	w := &batches{fail: 1}
	type res struct {
		ran int
		err error
	}
	done := make(chan res)
	go func() {
		ran, err := collect(results, w, stop, nil, 3)
		done <- res{ran, err}
	}()
	results <- result.Unit{Scenario: result.ScenarioRef{ID: "a"}}
	<-stop // the failure closed it
	results <- result.Unit{Scenario: result.ScenarioRef{ID: "b"}}
	close(results)
	r := <-done
	if r.err == nil || r.err.Error() != "disk full" {
		t.Fatalf("err = %v", r.err)
	}
	if len(w.got) != 2 {
		t.Errorf("batches after the failure: %q", w.got)
	}
}

// The scheduler feeds in order and stops at the failpoint, on cancel and
// on stop.
func TestScheduleStops(t *testing.T) {
	todo := make([]job, 10)
	for i := range todo {
		todo[i].pos = i
	}
	drain := func(feed <-chan job) []int {
		var got []int
		for jb := range feed {
			got = append(got, jb.pos)
		}
		return got
	}
	if got := drain(schedule(context.Background(), todo, 0, nil)); len(got) != 10 || got[9] != 9 {
		t.Errorf("all: %v", got)
	}
	if got := drain(schedule(context.Background(), todo, 3, nil)); !cmp.Equal(got, []int{0, 1, 2}) {
		t.Errorf("stop-after 3: %v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := drain(schedule(ctx, todo, 0, nil)); len(got) != 0 {
		t.Errorf("canceled: fed %v", got)
	}
	stop := make(chan struct{})
	feed := schedule(context.Background(), todo, 0, stop)
	first := <-feed
	close(stop)
	if rest := drain(feed); first.pos != 0 || len(rest) > 1 {
		t.Errorf("stopped: fed %d then %v", first.pos, rest)
	}
}

// The workers run every job, local evaluations or not, and close the
// results when every unit is finished.
func TestRunWorkers(t *testing.T) {
	feed := make(chan job)
	go func() {
		for i := range 20 {
			feed <- job{pos: i}
		}
		close(feed)
	}()
	results := runWorkers(4, 2, 4, feed, func(jb job) started {
		return started{finish: func() result.Unit { return result.Unit{Trial: jb.pos} }, local: jb.pos%3 == 0}
	})
	seen := map[int]bool{}
	for u := range results {
		seen[u.Trial] = true
	}
	if len(seen) != 20 {
		t.Errorf("ran %d of 20", len(seen))
	}
}

// feedJobs feeds n jobs and closes the feed.
func feedJobs(n int) <-chan job {
	feed := make(chan job)
	go func() {
		for i := range n {
			feed <- job{pos: i}
		}
		close(feed)
	}()
	return feed
}

// A local evaluation does not hold the job slot: with one worker, the
// second unit starts (its model call) while the first is still being
// evaluated.
func TestRunWorkersLocalFreesSlot(t *testing.T) {
	secondStarted := make(chan struct{})
	overlapped := make(chan bool, 1)
	results := runWorkers(1, 1, 1, feedJobs(2), func(jb job) started {
		if jb.pos == 1 {
			close(secondStarted)
			return started{finish: func() result.Unit { return result.Unit{Trial: 1} }, local: true}
		}
		return started{local: true, finish: func() result.Unit {
			select {
			case <-secondStarted:
				overlapped <- true
			case <-time.After(10 * time.Second):
				overlapped <- false
			}
			return result.Unit{Trial: 0}
		}}
	})
	n := 0
	for range results {
		n++
	}
	if n != 2 || !<-overlapped {
		t.Fatalf("%d units; the second unit did not start while the first was evaluated", n)
	}
}

// An evaluation that calls out (a model agent, a judge) holds the job slot:
// with one worker, the second unit starts only after the first is finished.
func TestRunWorkersRemoteHoldsSlot(t *testing.T) {
	var mu sync.Mutex
	var order []string
	log := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
	results := runWorkers(1, 2, 1, feedJobs(2), func(jb job) started {
		log(fmt.Sprintf("start %d", jb.pos))
		return started{finish: func() result.Unit {
			time.Sleep(10 * time.Millisecond) // a slow judge
			log(fmt.Sprintf("finish %d", jb.pos))
			return result.Unit{Trial: jb.pos}
		}}
	})
	for range results {
	}
	if diff := cmp.Diff([]string{"start 0", "finish 0", "start 1", "finish 1"}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// Only an evaluation that calls nothing outside the process leaves the job
// slot: a Local agent (the reference agent) with no judge; not a model or
// exec agent (here a Func), and not the reference agent with a judge.
func TestLocalEval(t *testing.T) {
	judge := judges.Func(func(context.Context, *judges.Request) (*judges.Verdict, error) { return nil, nil })
	other := agents.Func(func(context.Context, *agents.Request) (*agents.Decision, error) { return nil, nil })
	for _, tc := range []struct {
		name  string
		agent agents.Agent
		judge judges.Judge
		want  bool
	}{
		{"reference, no judge", agents.Reference{}, nil, true},
		{"reference with a judge", agents.Reference{}, judge, false},
		{"another agent", other, nil, false},
	} {
		if got := (&unitRunner{agent: tc.agent, judge: tc.judge}).localEval(); got != tc.want {
			t.Errorf("%s: local %v, want %v", tc.name, got, tc.want)
		}
	}
}
