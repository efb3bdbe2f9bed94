package checks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// The fast paths taken for BenchmarkChecks must give exactly what the
// general code they replace gives.

func TestCutLineNumberIsTheRegexp(t *testing.T) {
	lineRe := regexp.MustCompile(`:\d+$`)
	for _, c := range []string{"", ":", ":1", "a:", "a:1", "entries.go:31", "a:1:2", "a::12", "a:1x", "10.0.3.7:6432",
		"x:٣", "host:port", "v1.9.0", "a:b:3", "12:30", "a:00"} {
		if got, want := cutLineNumber(c), lineRe.ReplaceAllString(c, ""); got != want {
			t.Errorf("cutLineNumber(%q) = %q; the regexp gives %q", c, got, want)
		}
	}
}

func TestDropSpaceIsCompact(t *testing.T) {
	var docs [][]byte
	for _, glob := range []string{"../testdata/gold/*/*.json", "../testdata/mutations/*.json", "testdata/*.json"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, b)
		}
	}
	docs = append(docs, []byte(" { \"a\" : [ 1 , \"x \\\" y\\\\\" ,\t\"\\\\\" ] ,\r\n \"b\":\"  \" } \n"), []byte(`"s"`), []byte(" 3 "))
	if len(docs) < 10 {
		t.Fatalf("only %d documents", len(docs))
	}
	for _, d := range docs {
		if !json.Valid(d) {
			continue
		}
		var want bytes.Buffer
		if err := json.Compact(&want, d); err != nil {
			t.Fatal(err)
		}
		if got := dropSpace(nil, d); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("dropSpace differs from json.Compact on %.60q…:\n got %.200s\nwant %.200s", d, got, want.Bytes())
		}
	}
}

func TestSecretCheckSameWithSummaryOrRaw(t *testing.T) {
	// The secret check skips the per-field scan when the raw document is
	// clean; a leak in any field must still be found, with its pointer.
	sc := testScenario()
	for _, where := range []string{"goal", "text", "next"} {
		s := goldSummary()
		leak := "uses sk-live-ABCDEFGH1234 here"
		switch where {
		case "goal":
			s.Goal = leak
		case "text":
			s.Text = leak
		case "next":
			s.NextSteps = append(s.NextSteps, leak)
		}
		raw := mustJSON(t, s)
		for _, in := range []*Input{{Scenario: sc, Gen: genAt(sc, 16, false), Raw: raw}, {Scenario: sc, Gen: genAt(sc, 16, false), Summary: s}} {
			var got *result.CheckResult
			for _, r := range Run(in) {
				if r.Check == "secret" {
					got = &r
				}
			}
			if got == nil || got.Status != result.Fail || len(got.Evidence) == 0 || !strings.Contains(got.Evidence[0].Pointer, map[string]string{"goal": "/goal", "text": "/text", "next": "/next_steps"}[where]) {
				t.Errorf("leak in %s (raw %v): %+v", where, in.Raw != nil, got)
			}
		}
	}
}

// salientRef is salientTokensLow as it was written with strings.FieldsFunc.
func salientRef(low string) []string {
	var out []string
	for _, q := range [][2]string{{`"`, `"`}, {"`", "`"}, {"“", "”"}} {
		for rest := low; ; {
			i := strings.Index(rest, q[0])
			if i < 0 {
				break
			}
			rest = rest[i+len(q[0]):]
			j := strings.Index(rest, q[1])
			if j < 0 {
				break
			}
			if g := strings.TrimSpace(rest[:j]); len(g) >= 3 {
				out = append(out, g)
			}
			rest = rest[j+len(q[1]):]
		}
	}
	for _, c := range strings.FieldsFunc(low, chunkSep) {
		c = strings.TrimRight(c, ".,:;!?-") // as salientTokensLow was written
		if !strings.HasPrefix(c, "./") {
			c = strings.TrimLeft(c, ".:-")
		}
		if c == "" {
			continue
		}
		switch {
		case isEmail(c):
			out = append(out, c)
		case strings.Contains(c, "/") && isPathToken(c):
			out = append(out, cutLineNumber(c))
		case isIdentifier(c):
			out = append(out, cutLineNumber(c))
		}
	}
	return out
}

func TestSalientTokensChunks(t *testing.T) {
	texts := []string{"", " ", "a", "“quoted”  x", "call_migrate_0193 ran; see entries.go:31 (and /srv/app/run.sh)", "\x01a\x02b_c\x03", "ends with id_1", "id_2 starts", "ops@example.com, 10.42.7.19:6432"}
	sc := benchScenario()
	for _, e := range sc.Events {
		texts = append(texts, e.Text)
		if e.ToolResult != nil {
			texts = append(texts, e.ToolResult.Text)
		}
	}
	s := benchSummary(480)
	for _, l := range leavesOf(s) {
		texts = append(texts, l.lower)
	}
	for _, x := range texts {
		low := strings.ToLower(foldText(x))
		if got, want := salientTokensLow(low), salientRef(low); !slices.Equal(got, want) {
			t.Errorf("salientTokensLow(%q) = %q; want %q", low, got, want)
		}
	}
}

// The per-summary pattern filter says exactly what textmatch.MayMatch says
// for every field.
func TestFilterIsMayMatch(t *testing.T) {
	patterns := []string{`read[- ]only`, `\bprod\b`, `6432`, `dns|resolv`, `(?:never|not) returned`, `zzz_absent`, `caf[eé]`, `x.y`, `[`, `migration c4`}
	for _, s := range []*summary.Summary{goldSummary(), benchSummary(480)} {
		s.Text += " Café au lait; naïve"
		in := &Input{Scenario: testScenario(), Raw: mustJSON(t, s)}
		st := newState(in)
		fs := st.filters(patterns)
		for _, l := range st.leaves {
			for i, p := range patterns {
				re, err := textmatch.Compile(p)
				if (err != nil) != (fs[i].re == nil) {
					t.Fatalf("%s: compile error %v, filter re %v", p, err, fs[i].re)
				}
				if err != nil {
					continue
				}
				if got, want := fs[i].mayMatch(st, l), textmatch.MayMatch(re, l.lower); got != want {
					t.Errorf("pattern %q on %s %q: filter %v, MayMatch %v", p, l.ptr, l.lower, got, want)
				}
			}
		}
	}
}

// current and currentOutsideHypotheses, as segments, hold exactly the
// leaves a filtered copy would, in order.
func TestSegmentsAreTheFilteredLeaves(t *testing.T) {
	for _, s := range []*summary.Summary{goldSummary(), benchSummary(480)} {
		st := newState(&Input{Scenario: testScenario(), Raw: mustJSON(t, s)})
		for name, c := range map[string]struct {
			segs [][]leaf
			keep func(leaf) bool
		}{
			"current":  {st.current(), func(l leaf) bool { return !isSupersedes(l.ptr) }},
			"outside":  {st.currentOutsideHypotheses(), func(l leaf) bool { return !isSupersedes(l.ptr) && fieldOf(l.ptr) != "hypotheses" }},
			"dropNone": {segments(st.leaves, func(leaf) bool { return false }), func(leaf) bool { return true }},
			"dropAll":  {segments(st.leaves, func(leaf) bool { return true }), func(leaf) bool { return false }},
		} {
			var got, want []string
			for _, seg := range c.segs {
				for _, l := range seg {
					got = append(got, l.ptr)
				}
			}
			for _, l := range st.leaves {
				if c.keep(l) {
					want = append(want, l.ptr)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %v; want %v", name, got, want)
			}
		}
	}
}

func TestIndexRareIsIndex(t *testing.T) {
	texts := []string{"", "a", "read only", "the db is read-only\nread only; readonly", "yyyy", "ready only read onlyy",
		"dns is broken\ndns broken dns works", "solo lectura\nsolo  lectura", "context budget contexts", "xxxyxxy"}
	needs := []string{"", "y", "read only", "read-only", "readonly", "dns is broken", "yy", "xy", "solo lectura", "context", "budget", "only", "\nread"}
	rnd := []byte("aby xy\n-")
	seed := uint32(7)
	for k := 0; k < 3000; k++ {
		n := int(seed % 24)
		b := make([]byte, n)
		for i := range b {
			seed = seed*1664525 + 1013904223
			b[i] = rnd[seed>>24%uint32(len(rnd))]
		}
		texts = append(texts, string(b))
		if k%10 == 0 && n < 5 {
			needs = append(needs, string(b))
		}
		seed = seed*1664525 + 1013904223
	}
	for _, s := range texts {
		for _, x := range needs {
			for r := 0; r < len(x); r++ {
				if got, want := indexRare(s, x, r), strings.Index(s, x); got != want {
					t.Fatalf("indexRare(%q, %q, %d) = %d; strings.Index gives %d", s, x, r, got, want)
				}
			}
			if x == "" {
				if got, want := indexRare(s, x, 0), strings.Index(s, x); got != want {
					t.Fatalf("indexRare(%q, %q, 0) = %d; strings.Index gives %d", s, x, got, want)
				}
			}
		}
	}
}

func TestApproxBeforeIsTheRegexp(t *testing.T) {
	alts := []string{"about", "AROUND", "roughly", "approximately", "approx", "approx.", "nearly", "almost", "ſome", "some", "~", "≈",
		"unos", "unas", "aproximadamente", "APROXIMADAMENTE", "casi", "cerca de", "alrededor de", "cerca  de", "handsome", "abou", "x"}
	pads := []string{"", " ", "\t\n ", "\u00a0", " \r\f"}
	long := strings.Repeat("ñé日 word ", 12)
	var cases []string
	for _, a := range alts {
		for _, p := range pads {
			for _, pre := range []string{"", "latency of ", long, long + "x", long[:len(long)-1]} {
				cases = append(cases, pre+a+p, pre+a+p+"5", pre+"about"+strings.Repeat(" ", 70)+a+p)
			}
		}
	}
	for _, c := range cases {
		for cut := 0; cut <= len(c); cut++ {
			if got, want := approxBefore(c[:cut]), approxRe.MatchString(c[:cut]); got != want {
				t.Fatalf("approxBefore(%q) = %v; the regexp gives %v", c[:cut], got, want)
			}
		}
	}
}

func TestPtrfIsConcatenation(t *testing.T) {
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- true }()
			for n := 0; n < 3*maxPtrKeys; n++ {
				field, sub := "f"+strconv.Itoa(n%(maxPtrKeys+9)), "s"+strconv.Itoa(n%3)
				for _, i := range []int{-1, 0, 1, 9, 10, ptrIndexes - 1, ptrIndexes, 1000} {
					want := "/" + field + "/" + strconv.Itoa(i) + "/" + sub
					if got := ptrf(field, i, sub); got != want {
						t.Errorf("ptrf(%q, %d, %q) = %q; want %q", field, i, sub, got, want)
						return
					}
				}
			}
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

func TestLowerOfIsToLower(t *testing.T) {
	cases := []string{"", "a", "A", "abc", "Read-Only DB", "\u212a", "x\u212aY", "Ñandú", "İstanbul", "ǅ", "ÀB", "\xffA", "ABC\x7f"}
	seed := uint32(5)
	alphabet := []string{"a", "Z", " ", "-", "é", "\u212a", "Σ", "0", "\xc3"}
	for n := 0; n < 5000; n++ {
		var b strings.Builder
		for k := 0; k < n%12; k++ {
			seed = seed*1664525 + 1013904223
			b.WriteString(alphabet[seed>>24%uint32(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		want := strings.ToLower(s)
		got, ascii := lowerOf(s)
		if got != want || ascii != isASCII(want) {
			t.Fatalf("lowerOf(%q) = %q, %v; strings.ToLower gives %q, %v", s, got, ascii, want, isASCII(want))
		}
	}
}
