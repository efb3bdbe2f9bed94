package console

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// Each class of character Text escapes has a case of its own: C1 controls
// (U+009B is CSI on terminals that read 8-bit controls), DEL, and the bidi
// isolates as well as the overrides.
func TestTextEscapesEveryClass(t *testing.T) {
	for in, want := range map[string]string{
		"csi \u009b31m":      `csi \u009b31m`,
		"nel \u0085x":        `nel \u0085x`,
		"del \x7f":           `del \x7f`,
		"isolate \u2066x":    `isolate \u2066x`,
		"pop isolate \u2069": `pop isolate \u2069`,
		"lre \u202a":         `lre \u202a`,
		"para \u2029":        `para \u2029`,
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// Concurrent writes through one Guard come out whole: every line exactly
// once, none torn or mixed with another.
func TestGuardConcurrentWritesStayWhole(t *testing.T) {
	var b slowWriter
	g := NewGuard(&b)
	var wg sync.WaitGroup
	lines := []string{"alpha line\n", "::beta\n", "gamma ##[x]\n", "delta\x1b\n"}
	for i := range 8 {
		wg.Go(func() {
			for range 100 {
				g.Write([]byte(lines[i%len(lines)]))
			}
		})
	}
	wg.Wait()
	want := map[string]int{"alpha line": 200, `\x3a:beta`: 200, `gamma ##\x5bx]`: 200, `delta\x1b`: 200}
	got := map[string]int{}
	for _, l := range strings.Split(strings.TrimSuffix(b.b.String(), "\n"), "\n") {
		got[l]++
	}
	for l, n := range want {
		if got[l] != n {
			t.Errorf("line %q written %d times, want %d", l, got[l], n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d distinct lines, want %d: torn or mixed writes", len(got), len(want))
	}
}

// slowWriter is a terminal that takes its time with each write (safe for
// concurrent use itself): a Guard that shared its buffer between writes
// would have it overwritten meanwhile.
type slowWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *slowWriter) Write(p []byte) (int, error) {
	time.Sleep(20 * time.Microsecond)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}
