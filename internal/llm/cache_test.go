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
	// its checksum: not served, and moved aside.
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
	// The reply is stored as base64: eyJ2IjoxfQ== is {"v":1}, eyJ2IjoyfQ== {"v":2}.
	altered := bytes.Replace(b, []byte(`eyJ2IjoxfQ==`), []byte(`eyJ2IjoyfQ==`), 1)
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
		t.Error("the altered entry was not moved aside")
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

// TestCacheRoundTripsAnyReply: a reply comes back from the cache byte for
// byte, whatever its whitespace or escapes. An entry that stored the JSON
// value (compacted by the encoder) instead of the bytes missed on every
// reread of an indented reply.
func TestCacheRoundTripsAnyReply(t *testing.T) {
	c := llm.OpenCache(t.TempDir())
	for i, body := range []string{
		"{\n  \"id\": \"resp_1\",\n  \"output\": [\n    {\"type\": \"message\"}\n  ]\n}",
		"{\r\n\t\"id\": \"msg_1\",\r\n\t\"content\": []\r\n}\r\n",
		`{"text":"caf\u00e9 \u2014 r\u00e9sum\u00e9","html":"<b>&amp;</b>"}`,
		"{\"id\":\"x\"}\n",
		"  {\"a\" : 1 , \"b\" :[ ]}  \n\n",
		`{"s":"tab\tand \"quotes\" and \\u escapes \/ slash"}`,
	} {
		k := key("0123456789abcdef"[i])
		if err := c.Put(k, []byte(body)); err != nil {
			t.Fatalf("Put %q: %v", body, err)
		}
		got, ok := c.Get(k)
		if !ok || string(got) != body {
			t.Errorf("Get = %q, %v; want %q, true", got, ok, body)
		}
	}
}

// An entry that cannot be read is a miss, moved aside; cache stats reports
// it once and removes it; a later Put stores the reply again.
func TestCacheUnreadableReportedOnce(t *testing.T) {
	dir := t.TempDir()
	c := llm.OpenCache(dir)
	good, torn, legacy := key('a'), key('b'), key('c')
	for _, k := range []string{good, torn} {
		if err := c.Put(k, []byte("{\n  \"v\": 1\n}")); err != nil {
			t.Fatal(err)
		}
	}
	path := func(k string) string { return filepath.Join(dir, "v1", k[:2], k+".json") }
	b, _ := os.ReadFile(path(torn))
	os.WriteFile(path(torn), b[:len(b)/2], 0o644)
	// An entry of the earlier layout: the body compacted, its sum over the
	// indented bytes the provider sent.
	os.MkdirAll(filepath.Dir(path(legacy)), 0o755)
	os.WriteFile(path(legacy), []byte(`{"key":"`+legacy+`","sum":"0000","body":{"v":1}}`), 0o644)

	if _, ok := c.Get(torn); ok {
		t.Fatal("a torn entry hit")
	}
	if _, err := os.Stat(path(torn) + ".unreadable"); err != nil {
		t.Errorf("the torn entry was not moved aside: %v", err)
	}
	st, err := llm.Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Entries != 1 || len(st.Unreadable) != 2 || !strings.HasPrefix(st.Unreadable[0], torn+": not an entry") ||
		!strings.HasPrefix(st.Unreadable[1], legacy+": the reply does not match its checksum") {
		t.Errorf("Inspect = %+v; want 1 entry and the torn and the legacy entries unreadable", st)
	}
	if st, _ := llm.Inspect(dir); st.Entries != 1 || len(st.Unreadable) != 0 {
		t.Errorf("second Inspect = %+v; want the unreadable entries reported once", st)
	}
	if err := c.Put(torn, []byte(`{"v":2}`)); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get(torn); !ok || string(got) != `{"v":2}` {
		t.Errorf("after a new Put: %q, %v", got, ok)
	}
}
