package lazyre

import (
	"sync"
	"testing"
)

// TestLazy pins the point of the package: New compiles nothing (a bad
// pattern does not panic there), the first use compiles, once, even from
// many goroutines, and a bad pattern panics at that first use.
func TestLazy(t *testing.T) {
	re := New(`a(b+)`)
	if re.re != nil {
		t.Fatal("New compiled the pattern")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); re.MatchString("abb") }()
	}
	wg.Wait()
	first := re.re
	if first == nil || !re.MatchString("xabbb") || re.re != first {
		t.Fatal("not compiled once on first use")
	}
	if got := re.FindStringSubmatch("abbb"); len(got) != 2 || got[1] != "bbb" {
		t.Errorf("FindStringSubmatch = %q", got)
	}
	bad := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("a bad pattern did not panic at its first use")
		}
	}()
	bad.MatchString("x")
}
