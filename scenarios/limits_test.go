package scenarios

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// manyEvents is the seventh finding: n explicit events of a few
// bytes each, "- {role: user, text: x}".
func manyEvents(n int) []byte {
	var b strings.Builder
	b.Grow(n * 26)
	b.WriteString("version: 1\nid: many\ntitle: t\ngoal: g\nrules: r\ncompaction: {at: [2]}\nevents:\n")
	for range n {
		b.WriteString("  - {role: user, text: x}\n")
	}
	return []byte(b.String())
}

// atNodeLimit is the heaviest file the loader accepts: MaxEvents tool calls
// whose arguments fill the node limit, keys and values of a few bytes.
func atNodeLimit() []byte {
	var b strings.Builder
	b.WriteString("version: 1\nid: heavy\ntitle: t\ngoal: g\nrules: r\ncompaction: {at: [2]}\nevents:\n")
	args := make([]string, 0, 16)
	for k := range 6 {
		args = append(args, fmt.Sprintf("a%d: x", k))
	}
	for i := range MaxEvents {
		fmt.Fprintf(&b, "  - {role: assistant, tool_call: {id: c%d, name: n, args: {%s}}}\n", i, strings.Join(args, ", "))
	}
	return []byte(b.String())
}

// allocated is what f allocates, in bytes: an upper bound on the heap it
// needs at its peak.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// The seventh finding: 280,001 explicit events (7.3 MB, under the
// file limit) validated, using 570 MB; the 20,000-event limit held for
// filler only. Now the file is refused, with a position, before it is
// parsed, allocating a few megabytes.
func TestExplicitEventsOverTheLimit(t *testing.T) {
	data := manyEvents(280_001)
	if len(data) > MaxFileSize {
		t.Fatalf("the reproduction is %d bytes, over the file limit: it would test the wrong limit", len(data))
	}
	var err error
	mem := allocated(func() { _, err = LoadBytes("many.yaml", data) })
	got := errStrings(t, err)
	if len(got) != 1 || !strings.HasPrefix(got[0], "many.yaml:") || !strings.Contains(got[0], "more than 500000 YAML nodes by here: a scenario holds at most 20000 events") {
		t.Fatalf("errors = %q, want one positioned node-limit error", got)
	}
	// 7 lines of header, then 6 nodes an event: the 83,330th event crosses.
	if !strings.HasPrefix(got[0], "many.yaml:83337:5: ") {
		t.Errorf("error %q is not at the entry that crosses the limit (line 83337)", got[0])
	}
	if mem > 50<<20 {
		t.Errorf("refusing the file allocated %d MB, want well under 200 MB", mem>>20)
	}
	t.Logf("%d bytes refused after allocating %.1f MB: %s", len(data), float64(mem)/1e6, got[0])
}

// Under the node limit, the event limit itself counts explicit events, and
// is checked before any event is decoded.
func TestExplicitEventLimit(t *testing.T) {
	if _, err := LoadBytes("ok.yaml", manyEvents(MaxEvents)); err != nil {
		t.Fatalf("%d events, the limit: %v", MaxEvents, err)
	}
	got := errStrings(t, mustFail(t, manyEvents(MaxEvents+1)))
	want := "t.yaml:20008:5: events[20000]: this entry takes the scenario past 20000 events (20001 explicit and 0 of filler by here, of 20001 entries in the list): a scenario holds at most 20000 events, filler and arrivals included"
	if len(got) != 1 || got[0] != want {
		t.Errorf("errors = %q\nwant %q", got, want)
	}
}

func mustFail(t *testing.T, data []byte) error {
	t.Helper()
	_, err := LoadBytes("t.yaml", data)
	if err == nil {
		t.Fatal("loaded, want an error")
	}
	return err
}

// Explicit events and filler count together, whichever comes first, and
// arrivals count with them: each of these passed before.
func TestEventLimitCountsEverything(t *testing.T) {
	fill := func(k int) string {
		var b strings.Builder
		for i := range k {
			fmt.Fprintf(&b, "  - filler: {count: 5000, seed: %d, topic: data}\n", i+1)
		}
		return b.String()
	}
	tests := []struct{ name, src, want string }{
		{"explicit after filler", head + "events:\n" + fill(4) + "  - {role: user, text: one more}\n",
			"t.yaml:8:5: events[4]: this entry takes the scenario past 20000 events (1 explicit and 20000 of filler by here, of 5 entries in the list)"},
		{"explicit before filler", head + "events:\n  - {role: user, text: first}\n" + fill(4),
			"t.yaml:8:5: events[4]: this entry takes the scenario past 20000 events (1 explicit and 20000 of filler by here, of 5 entries in the list)"},
		{"arrivals", head + "events:\n" + fill(4) + "arrivals:\n  - {role: user, text: late}\n",
			"t.yaml:9:5: arrivals[0]: this entry takes the scenario past 20000 events (20000 before the arrivals, 1 explicit and 0 of filler by here, of 1 entries in the list)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := errStrings(t, mustFail(t, []byte(tc.src)))
			if len(got) == 0 || !strings.HasPrefix(got[0], tc.want) {
				t.Errorf("errors = %q\nwant first to start %q", got, tc.want)
			}
		})
	}
}

// The heaviest file the loader accepts loads in well under 200 MB.
func TestNodeLimitMemory(t *testing.T) {
	data := atNodeLimit()
	n, over := nodeBound(data, MaxNodes)
	if over >= 0 || n < MaxNodes*9/10 {
		t.Fatalf("the fixture's bound is %d (over at %d): not at the limit of %d", n, over, MaxNodes)
	}
	var err error
	mem := allocated(func() { _, err = LoadBytes("heavy.yaml", data) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes, node bound %d: loaded after allocating %.1f MB in all", len(data), n, float64(mem)/1e6)
	if mem > 200<<20 {
		t.Errorf("loading a file at the node limit allocated %d MB in all, want under 200 MB", mem>>20)
	}
}

// BenchmarkLoadAtLimit loads the heaviest file the loader accepts, and
// refuses the 280,001 events; B/op is what each allocates in all.
func BenchmarkLoadAtLimit(b *testing.B) {
	for _, bc := range []struct {
		name string
		data []byte
		ok   bool
	}{{"node-limit", atNodeLimit(), true}, {"280001-events", manyEvents(280_001), false}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.data)))
			for b.Loop() {
				if _, err := LoadBytes("b.yaml", bc.data); (err == nil) != bc.ok {
					b.Fatal(err)
				}
			}
		})
	}
}

// The eleventh finding, in part: "!!binary" was accepted silently
// (as its base64 text). It is refused where it stands, as is any tag that
// is not a plain YAML type; core tags stay allowed.
func TestTagsRefused(t *testing.T) {
	base := head + "events:\n  - {role: user, text: %s}\n"
	tests := []struct{ val, want string }{
		{"!!binary aGVsbG8gd29ybGQ=", "t.yaml:4:24: tag !!binary: a scenario holds text, not binary data; write the value as text"},
		{"!secret hunter2", "t.yaml:4:24: tag !secret is not supported: a scenario holds plain YAML values (text, numbers, booleans, lists, mappings); remove the tag"},
		{"!!timestamp 2024-01-01", "t.yaml:4:24: tag !!timestamp is not supported"},
	}
	for _, tc := range tests {
		got := errStrings(t, mustFail(t, []byte(fmt.Sprintf(base, tc.val))))
		if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("%s: errors = %q\nwant %q", tc.val, got, tc.want)
		}
	}
	s, err := LoadBytes("t.yaml", []byte(fmt.Sprintf(base, "!!str 5432")))
	if err != nil {
		t.Fatalf("!!str: %v", err)
	}
	if s.Events[0].Text != "5432" {
		t.Errorf("!!str 5432 read as %q", s.Events[0].Text)
	}
}
