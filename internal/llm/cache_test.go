package llm_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/llm"
)

func key(c byte) string { return strings.Repeat(string(c), 64) }

func TestCacheStatsAndClear(t *testing.T) {
	dir := t.TempDir()
	c := llm.OpenCache(dir)
	for _, k := range []string{key('a'), key('b'), key('c')} {
		if err := c.Put(k, []byte(`{"v":1}`)); err != nil {
			t.Fatal(err)
		}
	}
	// Foreign files in the dir, and in the layout, are never touched.
	foreign := []string{filepath.Join(dir, "notes.txt"), filepath.Join(dir, "v1", "aa", "README")}
	for _, f := range foreign {
		if err := os.WriteFile(f, []byte("keep me"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n, size, err := llm.Stats(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 || size <= 0 {
		t.Errorf("Stats = %d entries, %d bytes; want 3 and > 0", n, size)
	}
	if err := llm.Clear(dir); err != nil {
		t.Fatal(err)
	}
	n, size, err = llm.Stats(dir)
	if diff := cmp.Diff([]any{0, int64(0), nil}, []any{n, size, err}); diff != "" {
		t.Errorf("Stats after Clear (-want +got):\n%s", diff)
	}
	for _, f := range foreign {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("Clear removed a foreign file: %v", err)
		}
	}
	if _, ok := c.Get(key('a')); ok {
		t.Error("Get after Clear: hit")
	}
}

func TestCacheMissingDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "never-made")
	n, size, err := llm.Stats(dir)
	if n != 0 || size != 0 || err != nil {
		t.Errorf("Stats(missing) = %d, %d, %v", n, size, err)
	}
	if err := llm.Clear(dir); err != nil {
		t.Errorf("Clear(missing) = %v", err)
	}
}

func TestCacheRejectsBadInput(t *testing.T) {
	c := llm.OpenCache(t.TempDir())
	if err := c.Put("../../etc/passwd", []byte(`{}`)); err == nil {
		t.Error("Put with a path as key: want an error")
	}
	if err := c.Put(key('d'), []byte("not json")); err == nil {
		t.Error("Put of non-JSON: want an error")
	}
	if _, ok := c.Get("zz"); ok {
		t.Error("Get of an invalid key: hit")
	}
}

func TestCacheEntryForAnotherKeyIsAMiss(t *testing.T) {
	// An entry renamed to another key's name (or a hash collision on the
	// file name) is not served.
	dir := t.TempDir()
	c := llm.OpenCache(dir)
	if err := c.Put(key('a'), []byte(`{"v":1}`)); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "v1", "aa", key('a')+".json")
	dst := filepath.Join(dir, "v1", "bb", key('b')+".json")
	os.MkdirAll(filepath.Dir(dst), 0o755)
	if err := os.Rename(src, dst); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(key('b')); ok {
		t.Error("Get served an entry stored for another key")
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Error("the bad entry was not removed")
	}
}

func TestCacheEntryWithAlteredBodyIsAMiss(t *testing.T) {
	// A body changed on disk (a flipped byte that leaves valid JSON) fails
	// its checksum: not served, and removed.
	dir := t.TempDir()
	c := llm.OpenCache(dir)
	if err := c.Put(key('c'), []byte(`{"v":1}`)); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "v1", "cc", key('c')+".json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	altered := bytes.Replace(b, []byte(`{"v":1}`), []byte(`{"v":2}`), 1)
	if bytes.Equal(altered, b) {
		t.Fatalf("entry does not hold the body as written: %s", b)
	}
	if err := os.WriteFile(p, altered, 0o644); err != nil {
		t.Fatal(err)
	}
	if body, ok := c.Get(key('c')); ok {
		t.Errorf("Get served an altered body %s", body)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Error("the altered entry was not removed")
	}
}

func TestCacheConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	c := llm.OpenCache(dir)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			if err := c.Put(key('e'), []byte(`{"writer":`+string(rune('0'+i%10))+`}`)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if _, ok := c.Get(key('e')); !ok {
		t.Error("entry unreadable after concurrent writes")
	}
	tmp, _ := filepath.Glob(filepath.Join(dir, "v1", "ee", ".tmp-*"))
	if len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}
