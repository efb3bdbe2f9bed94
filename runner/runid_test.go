package runner

import (
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"
)

// A run id is the start time and a random suffix, as docs/formats.md
// shows: two runs of one second never share one.
func TestNewRunID(t *testing.T) {
	at := time.Date(2026, 11, 29, 23, 30, 0, 0, time.UTC)
	re := regexp.MustCompile(`^20261129T233000Z-[0-9a-f]{8}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := NewRunID(at)
		if !re.MatchString(id) {
			t.Fatalf("run id %q; want 20261129T233000Z-XXXXXXXX", id)
		}
		if seen[id] {
			t.Fatalf("run id %q drawn twice in 1000", id)
		}
		seen[id] = true
	}
}

// The default folders of runs started in the same second, at once, are
// all different folders, each made exclusively; a folder already there
// (a name taken) is never handed out again.
func TestNewOutNeverShared(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "compact-eval-out")
	at := time.Now()
	const n = 32
	dirs := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			dir, id, err := NewOut(parent, at)
			if err != nil {
				t.Error(err)
				return
			}
			if filepath.Base(dir) != id {
				t.Errorf("folder %s for run id %s", dir, id)
			}
			dirs[i] = dir
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] {
			t.Errorf("%s handed out twice", d)
		}
		seen[d] = true
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			t.Errorf("%s: not made (%v)", d, err)
		}
	}
}
