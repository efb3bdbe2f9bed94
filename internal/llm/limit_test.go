package llm_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/llm"
)

func TestAdaptiveConcurrency(t *testing.T) {
	lim := llm.NewLimiter(llm.Limits{Concurrency: 16, Window: time.Hour})
	var trace []int
	step := func(f func()) {
		f()
		trace = append(trace, lim.Concurrency())
	}
	step(lim.Observe429) // one 429 alone does nothing
	step(lim.Observe429) // the second within the window halves
	step(lim.Observe429)
	step(lim.Observe429) // 4
	step(lim.Observe429)
	step(lim.Observe429) // 2
	step(lim.Observe429)
	step(lim.Observe429) // 1
	step(lim.Observe429)
	step(lim.Observe429)     // stays at 1
	step(lim.ObserveSuccess) // 1 success at limit 1: grows to 2
	step(lim.ObserveSuccess) // 1 of 2
	step(lim.ObserveSuccess) // 2 of 2: grows to 3
	want := []int{16, 8, 8, 4, 4, 2, 2, 1, 1, 1, 2, 2, 3}
	if diff := cmp.Diff(want, trace); diff != "" {
		t.Errorf("limit trace (-want +got):\n%s", diff)
	}
	if got := lim.Decreases(); got != 4 {
		t.Errorf("decreases = %d, want 4", got)
	}
	for range 1000 {
		lim.ObserveSuccess()
	}
	if got := lim.Concurrency(); got != 16 {
		t.Errorf("limit after many successes = %d, want the ceiling 16", got)
	}
}

func TestAdaptiveWindow(t *testing.T) {
	// Two 429s further apart than the window do not lower the limit.
	lim := llm.NewLimiter(llm.Limits{Concurrency: 8, Window: time.Nanosecond})
	lim.Observe429()
	time.Sleep(time.Millisecond)
	lim.Observe429()
	if got := lim.Concurrency(); got != 8 {
		t.Errorf("limit = %d, want 8", got)
	}
}

func TestLimiterBoundsInFlight(t *testing.T) {
	lim := llm.NewLimiter(llm.Limits{Concurrency: 3})
	var inFlight, peak atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			release, err := lim.Acquire(context.Background(), 0)
			if err != nil {
				t.Error(err)
				return
			}
			n := inFlight.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(2 * time.Millisecond)
			inFlight.Add(-1)
			release()
		})
	}
	wg.Wait()
	if p := peak.Load(); p != 3 {
		t.Errorf("peak in flight = %d, want 3", p)
	}
}

func TestLimiterCancelWhileWaiting(t *testing.T) {
	lim := llm.NewLimiter(llm.Limits{Concurrency: 1})
	release, err := lim.Acquire(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := lim.Acquire(ctx, 0)
		done <- err
	}()
	cancel()
	if err := <-done; err == nil {
		t.Fatal("Acquire after cancel: want an error")
	}
	release()
	// The slot is free again for the next caller.
	r2, err := lim.Acquire(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	r2()
}

func TestLimiterRPM(t *testing.T) {
	// 600 RPM is one request per 100 ms after the first.
	lim := llm.NewLimiter(llm.Limits{RPM: 600, Concurrency: 8})
	start := time.Now()
	for range 3 {
		release, err := lim.Acquire(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		release()
	}
	if el := time.Since(start); el < 150*time.Millisecond {
		t.Errorf("3 requests at 600 RPM took %v, want ≥ 200 ms (less jitter)", el)
	}
}

func TestLimiterTPM(t *testing.T) {
	// A burst of a full minute's tokens is allowed, then the next request
	// waits; a context deadline shorter than the wait fails the Acquire.
	lim := llm.NewLimiter(llm.Limits{TPM: 600, Concurrency: 8})
	release, err := lim.Acquire(context.Background(), 600)
	if err != nil {
		t.Fatal(err)
	}
	release()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := lim.Acquire(ctx, 300); err == nil {
		t.Error("Acquire of 300 tokens right after a full burst: want a wait beyond the deadline")
	}
}
