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
// all different folders, each made exclusively.
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

// A name already taken (a run of the same second that drew the same
// suffix) is never handed out again: NewOut draws another id.
func TestNewOutNameTaken(t *testing.T) {
	parent := t.TempDir()
	at := time.Date(2026, 11, 29, 23, 30, 0, 0, time.UTC)
	ids := []string{"20261129T233000Z-00000001", "20261129T233000Z-00000001", "20261129T233000Z-00000002"}
	draws := 0
	drawRunID = func(time.Time) string { draws++; return ids[min(draws, len(ids))-1] }
	t.Cleanup(func() { drawRunID = NewRunID })
	first, id1, err := NewOut(parent, at)
	if err != nil || id1 != ids[0] {
		t.Fatalf("first NewOut = %s, %s, %v", first, id1, err)
	}
	second, id2, err := NewOut(parent, at)
	if err != nil {
		t.Fatal(err)
	}
	if id2 != ids[2] || second == first || draws != 3 {
		t.Errorf("second NewOut = %s (id %s) after %d draws; want %s, a new folder, after 3", second, id2, draws, ids[2])
	}
	// Every name taken: it says so rather than share a folder.
	drawRunID = func(time.Time) string { return ids[0] }
	if dir, _, err := NewOut(parent, at); err == nil {
		t.Errorf("NewOut with every name taken = %s; want an error", dir)
	}
}
