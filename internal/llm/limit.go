package llm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limits are the request limits of one endpoint. The zero value means no
// rate limit and DefaultConcurrency requests in flight.
type Limits struct {
	// RPM is the most requests started per minute; 0 means unlimited.
	RPM int
	// TPM is the most prompt tokens sent per minute (estimated offline
	// before each request); 0 means unlimited.
	TPM int
	// Concurrency is the most requests in flight at once (the run's -j).
	// 0 means DefaultConcurrency. It is the ceiling of the adaptive limit.
	Concurrency int
	// Window is how close together two 429 replies must be to halve the
	// adaptive limit. 0 means DefaultBackoffWindow.
	Window time.Duration
}

// DefaultBackoffWindow is the default Limits.Window.
const DefaultBackoffWindow = 10 * time.Second

// Validate refuses negative limits.
func (l Limits) Validate() error {
	var errs []error
	if l.RPM < 0 {
		errs = append(errs, fmt.Errorf("rpm %d: must not be negative", l.RPM))
	}
	if l.TPM < 0 {
		errs = append(errs, fmt.Errorf("tpm %d: must not be negative", l.TPM))
	}
	if l.Concurrency < 0 {
		errs = append(errs, fmt.Errorf("concurrency %d: must not be negative", l.Concurrency))
	}
	if l.Window < 0 {
		errs = append(errs, fmt.Errorf("window %v: must not be negative", l.Window))
	}
	return errors.Join(errs...)
}

// Limiter applies Limits to every call that shares it: requests per minute,
// prompt tokens per minute, and an adaptive concurrency limit (AIMD) that
// starts at Limits.Concurrency, halves when 429 replies repeat within
// Limits.Window (down to 1), and grows by one after a full limit's worth of
// successes in a row (back up to Limits.Concurrency). It is safe for
// concurrent use.
type Limiter struct {
	rpm, tpm *rate.Limiter
	window   time.Duration
	now      func() time.Time

	mu        sync.Mutex
	max       int
	limit     int
	inUse     int
	waiters   []chan struct{}
	last429   time.Time // the previous 429 not yet paired
	successes int
	decreases int
}

// NewLimiter builds a Limiter. Invalid limits are clamped to their zero
// meaning; call Limits.Validate first to refuse them.
func NewLimiter(l Limits) *Limiter {
	n := l.Concurrency
	if n <= 0 {
		n = DefaultConcurrency
	}
	lim := &Limiter{max: n, limit: n, window: l.Window, now: time.Now}
	if lim.window <= 0 {
		lim.window = DefaultBackoffWindow
	}
	if l.RPM > 0 {
		lim.rpm = rate.NewLimiter(rate.Limit(float64(l.RPM)/60), 1)
	}
	if l.TPM > 0 {
		lim.tpm = rate.NewLimiter(rate.Limit(float64(l.TPM)/60), l.TPM)
	}
	return lim
}

// Concurrency is the adaptive limit now in force.
func (l *Limiter) Concurrency() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.limit
}

// Decreases counts how many times the adaptive limit was lowered.
func (l *Limiter) Decreases() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.decreases
}

// Acquire waits for a concurrency slot, then for the rate limits (one request
// and tokens estimated prompt tokens). It returns the function that gives the
// slot back, or the context's error.
func (l *Limiter) Acquire(ctx context.Context, tokens int) (release func(), err error) {
	if err := l.acquireSlot(ctx); err != nil {
		return nil, err
	}
	var once sync.Once
	release = func() { once.Do(l.releaseSlot) }
	if l.rpm != nil {
		if err := l.rpm.Wait(ctx); err != nil {
			release()
			return nil, err
		}
	}
	if l.tpm != nil && tokens > 0 {
		if tokens > l.tpm.Burst() {
			tokens = l.tpm.Burst() // one request larger than a minute's quota still goes, alone
		}
		if err := l.tpm.WaitN(ctx, tokens); err != nil {
			release()
			return nil, err
		}
	}
	return release, nil
}

func (l *Limiter) acquireSlot(ctx context.Context) error {
	for {
		l.mu.Lock()
		if l.inUse < l.limit {
			l.inUse++
			l.mu.Unlock()
			return nil
		}
		ch := make(chan struct{})
		l.waiters = append(l.waiters, ch)
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			l.mu.Lock()
			for i, w := range l.waiters {
				if w == ch {
					l.waiters = append(l.waiters[:i], l.waiters[i+1:]...)
					break
				}
			}
			l.mu.Unlock()
			// We may have been woken and lost the race with the cancel:
			// pass the wake-up on.
			select {
			case <-ch:
				l.wake()
			default:
			}
			return ctx.Err()
		}
	}
}

func (l *Limiter) releaseSlot() {
	l.mu.Lock()
	l.inUse--
	l.mu.Unlock()
	l.wake()
}

// wake wakes as many waiters as there are free slots.
func (l *Limiter) wake() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for free := l.limit - l.inUse; free > 0 && len(l.waiters) > 0; free-- {
		close(l.waiters[0])
		l.waiters = l.waiters[1:]
	}
}

// Observe429 records a 429 reply: two within the window halve the limit.
func (l *Limiter) Observe429() {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.successes = 0
	if !l.last429.IsZero() && now.Sub(l.last429) <= l.window {
		if l.limit > 1 {
			l.limit /= 2
			l.decreases++
		}
		l.last429 = time.Time{}
		return
	}
	l.last429 = now
}

// ObserveSuccess records a successful reply: after limit successes in a row
// the limit grows by one, up to the configured concurrency.
func (l *Limiter) ObserveSuccess() {
	l.mu.Lock()
	grew := false
	l.successes++
	if l.limit < l.max && l.successes >= l.limit {
		l.limit++
		l.successes = 0
		grew = true
	}
	l.mu.Unlock()
	if grew {
		l.wake()
	}
}
