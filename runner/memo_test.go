package runner

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/scenarios"
)

// askCounter counts the reference agent's calls per scenario, probe and arm.
type askCounter struct {
	mu    sync.Mutex
	calls map[string]int
}

func (c *askCounter) decide(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
	c.mu.Lock()
	c.calls[req.ScenarioID+" "+req.Probe.ID+" "+req.Arm]++
	c.mu.Unlock()
	return agents.Reference{}.Decide(ctx, req)
}

// memoAgent is the reference agent, counted, declared Memoizable.
type memoAgent struct{ c *askCounter }

func (a memoAgent) Decide(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
	return a.c.decide(ctx, req)
}
func (memoAgent) Memoizable() {}

// A memoizable agent is asked the full arm of a probe once per scenario,
// whatever the summarizers and trials, and the result is byte for byte the
// result of asking it every time.
func TestMemoizableAgentAskedOnce(t *testing.T) {
	list := builtinSuite(t)[:6]
	run := func(agent agents.Agent) string {
		out := filepath.Join(t.TempDir(), "run")
		opts := baseOptions(t, out)
		opts.Agent, opts.Trials, opts.Jobs = agent, 3, 8
		res, err := Run(context.Background(), list, opts)
		if err != nil {
			t.Fatal(err)
		}
		return normalised(t, res.ResultPath)
	}
	every := &askCounter{calls: map[string]int{}}
	once := &askCounter{calls: map[string]int{}}
	want := run(agents.Func(every.decide))
	got := run(memoAgent{once})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("memoized result differs (-every call +memoized):\n%s", diff)
	}
	units := len(baseOptions(t, "").Summarizers) * 3
	probes := 0
	for _, sc := range list {
		for _, p := range sc.Probes {
			if p.FreeText() {
				continue // skipped without a judge: never asked
			}
			probes++
			k := sc.ID + " " + p.ID + " "
			if n := every.calls[k+agents.ArmFull]; n != units {
				t.Errorf("%s full: asked %d times without the memo, want %d", k, n, units)
			}
			if n := once.calls[k+agents.ArmFull]; n != 1 {
				t.Errorf("%s full: asked %d times with the memo, want 1", k, n)
			}
			// a compacted arm is asked once per distinct summary at most
			if n, m := once.calls[k+agents.ArmCompacted], every.calls[k+agents.ArmCompacted]; n < 1 || n > m {
				t.Errorf("%s compacted: asked %d times with the memo, %d without", k, n, m)
			}
		}
	}
	if probes == 0 {
		t.Fatal("no choice probe in the suite's first scenarios")
	}
}

// A non-memoizable agent (a model samples) is asked on every unit.
func TestOtherAgentsAskedEveryUnit(t *testing.T) {
	list := builtinSuite(t)[:2]
	c := &askCounter{calls: map[string]int{}}
	opts := baseOptions(t, filepath.Join(t.TempDir(), "run"))
	opts.Agent, opts.Trials = agents.Func(c.decide), 2
	if _, err := Run(context.Background(), list, opts); err != nil {
		t.Fatal(err)
	}
	units := len(opts.Summarizers) * 2
	for k, n := range c.calls {
		if n != units {
			t.Errorf("%s: asked %d times, want %d", k, n, units)
		}
	}
}

// A failed decision is never reused: the next unit asks again, and a unit
// that waited for it asks itself.
func TestMemoKeepsNoError(t *testing.T) {
	var m decisionMemo
	k := memoKey{probe: 1, arm: agents.ArmFull, cover: -1}
	var calls atomic.Int32
	fail := func() result.Decision {
		calls.Add(1)
		return result.Decision{Error: errors.New("endpoint down").Error()}
	}
	if d := m.do(k, fail); d.Error == "" {
		t.Fatal("want the error")
	}
	ok := func() result.Decision { calls.Add(1); return result.Decision{Choice: "a"} }
	if d := m.do(k, ok); d.Choice != "a" {
		t.Fatalf("after a failure: %+v, want a fresh decision", d)
	}
	if d := m.do(k, fail); d.Choice != "a" {
		t.Fatalf("a kept decision: %+v", d)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("asked %d times, want 2", n)
	}
	// concurrent askers of one key: the first asks, the others take its
	// answer (waiting for it when it is not in yet)
	var m2 decisionMemo
	var asked atomic.Int32
	inside, release := make(chan struct{}), make(chan struct{})
	slow := func() result.Decision {
		asked.Add(1)
		close(inside)
		<-release
		return result.Decision{Choice: "b"}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); m2.do(k, slow) }()
	<-inside
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if d := m2.do(k, slow); d.Choice != "b" {
				t.Errorf("got %+v", d)
			}
		}()
	}
	close(release)
	wg.Wait()
	if n := asked.Load(); n != 1 {
		t.Errorf("asked %d times, want 1", n)
	}
}

// fixedAgent always picks the option at index i: memoizable, and unlike the
// reference agent.
type fixedAgent struct{ i int }

func (a fixedAgent) Decide(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
	opts := req.Probe.Options
	return &agents.Decision{Choice: opts[a.i%len(opts)].Key, Reason: "fixed"}, nil
}
func (fixedAgent) Memoizable() {}

// One Prepared scenario asked by two memoizable agents gives each its own
// decisions: the memo holds the first agent's only.
func TestMemoPerAgent(t *testing.T) {
	var sc *scenarios.Scenario
	for _, s := range builtinSuite(t) {
		for _, p := range s.Probes {
			if !p.FreeText() && len(p.Options) > 1 {
				sc = s
			}
		}
	}
	if sc == nil {
		t.Fatal("no scenario with a choice probe")
	}
	pr, err := Prepare(sc, "")
	if err != nil {
		t.Fatal(err)
	}
	s := baseOptions(t, "").Summarizers[1]
	choices := func(a agents.Agent) []string {
		u := pr.Unit(context.Background(), s, a, 0, nil)
		var out []string
		for _, p := range u.Probes {
			out = append(out, p.Full.Choice+"/"+p.Compacted.Choice)
		}
		return out
	}
	first, second := choices(fixedAgent{0}), choices(fixedAgent{1})
	if cmp.Equal(first, second) {
		t.Errorf("two agents, one answer: %q", first)
	}
	if again := choices(fixedAgent{0}); !cmp.Equal(first, again) {
		t.Errorf("the first agent again: %q, then %q", first, again)
	}
	if again := choices(fixedAgent{1}); !cmp.Equal(second, again) {
		t.Errorf("the second agent again: %q, then %q", second, again)
	}
}

// TestMemoPanicReleasesWaiters: a first asker that panics must not leave
// the units waiting for its answer blocked forever; they ask themselves.
func TestMemoPanicReleasesWaiters(t *testing.T) {
	var m decisionMemo
	k := memoKey{probe: 1, arm: "full"}
	started := make(chan struct{})
	release := make(chan struct{})
	go func() {
		defer func() { recover() }()
		m.do(k, func() result.Decision {
			close(started)
			<-release
			panic("agent blew up")
		})
	}()
	<-started
	got := make(chan result.Decision, 1)
	go func() { got <- m.do(k, func() result.Decision { return result.Decision{Choice: "refuse"} }) }()
	time.Sleep(20 * time.Millisecond) // let the second caller wait on the first
	close(release)
	select {
	case d := <-got:
		if d.Choice != "refuse" {
			t.Errorf("waiter got %+v, want its own answer", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a waiter is still blocked after the first asker panicked")
	}
	// Nothing was kept for the key: the next caller asks too.
	if d := m.do(k, func() result.Decision { return result.Decision{Choice: "proceed"} }); d.Choice != "proceed" {
		t.Errorf("a panicked decision was kept: %+v", d)
	}
}
