package scenarios

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

func TestPrefilterNeeds(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		want    []string // nil: no prefilter, the regexp always runs
	}{
		{"literal", `Timeout`, []string{"timeout"}},
		{"optional class", `read[- ]?only`, []string{"read only", "read-only", "readonly"}},
		{"alternation", `traffic|canary`, []string{"traffic", "canary"}},
		{"optional group", `(change )?freeze`, []string{"change freeze", "freeze"}},
		{"word boundaries", `\bv7\b`, []string{"v7"}},
		{"most selective part", `timeout.{0,40}\b30 ?s\b`, []string{"timeout"}},
		{"both sides of a gap", `protobuf.{0,60}3\.25|3\.25.{0,60}protobuf`, []string{"protobuf"}},
		{"plus", `(ab)+c`, []string{"ab"}},
		{"repeat at least once", `x(ab){2,3}`, []string{"ab"}},
		{"case-sensitive part", `(?-i)ABC`, []string{"abc"}},
		{"long s folds to s", "\u017fecret", []string{"secret"}},
		{"kelvin sign folds to k", "\u212aelvin", []string{"kelvin"}},
		{"accent stripped", `sesión`, []string{"sesion"}},
		{"rune with no ASCII fold splits the literal", "abc\u01c5def", []string{"abc"}},
		{"large class", `\w+`, nil},
		{"negated class", `[^a]`, nil},
		{"any", `.`, nil},
		{"star", `a*`, nil},
		{"optional", `a?`, nil},
		{"repeat from zero", `(ab){0,3}`, nil},
		{"a branch with no need", `abc|.*`, nil},
		{"a branch that may be empty", `abc|(x)?`, nil},
		{"empty", ``, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			re, err := textmatch.Compile(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			pf := newPrefilter(re)
			if pf.has != (tc.want != nil) {
				t.Fatalf("has = %v, need %q; want has %v", pf.has, pf.need, tc.want != nil)
			}
			if diff := cmp.Diff(tc.want, pf.need); diff != "" {
				t.Errorf("need (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPrefilterAgrees: anyMatch says what the regexps say, on the filler
// texts the generator makes and on texts made to match, for the built-in
// suite's patterns and awkward ones.
func TestPrefilterAgrees(t *testing.T) {
	patterns := []string{
		`read[- ]?only`, `\bcache\b`, `pass`, `timeout.{0,40}\b30 ?(s|sec|seconds)\b`,
		`(?-i)OK`, "\u017fecret", "\u212aelvin", `^ping`, `ms$`, `\d+ ms`, `[a-c]{2}x`,
		`(max(pods)?|maximum|up to).{0,40}\b24\b`, `sesión`, `x|y|z`, `\bv7\b`, `.`,
	}
	list, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		for _, inv := range s.Invariants {
			switch v := inv.(type) {
			case *Constraint:
				patterns = append(patterns, v.Match...)
			case *RefutedHypothesis:
				patterns = append(patterns, v.Match...)
				patterns = append(patterns, v.Conclusion...)
			case *Quantity:
				patterns = append(patterns, v.Match...)
			}
		}
		for _, p := range s.Probes {
			for _, r := range p.Requires {
				patterns = append(patterns, r.Patterns...)
			}
		}
	}
	texts := []string{
		"", " ", "This run is READ-ONLY.", "read\n\t only", "Read  Only", "readonly",
		"a cache hit", "the CACHE\nmiss", "Passed", "timeout after 30 s", "Timeout:\n\n30sec",
		"ok", "OK", "Secret", "SECRET", "\u017fecret", "Kelvin", "\u212aelvin", "ping host",
		"  ping host", "took 12 ms", "took 12 ms  ", "abx", "ACX", "max pods 24", "up to 24",
		"sesión", "SESION", "v7", "v70", "x", "protobuf pinned at 3.25", "Legal has a hold",
		"change freeze", "1.65 s in the db", "db;dur=1650", "relay-v1.9.0-linux-arm64.tar.gz",
	}
	for _, topic := range FillerTopics {
		evs, err := ExpandFiller(Filler{Count: 200, Seed: 11, Topic: topic}, 1, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			texts = append(texts, eventTexts(e)...)
			if e.ToolCall != nil {
				texts = append(texts, e.ToolCall.Name+" "+fmt.Sprint(e.ToolCall.Args))
			}
		}
	}
	for _, p := range patterns {
		re, err := textmatch.Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		pfs := []prefilter{newPrefilter(re)}
		for _, text := range texts {
			want := re.MatchString(textmatch.Fold(text))
			if got := anyMatch(pfs, text); got != want {
				t.Errorf("pattern %q on %q: prefiltered match %v, regexp %v", p, text, got, want)
			}
		}
	}
}

func TestFoldLowerASCII(t *testing.T) {
	for _, s := range []string{"", " ", "  A  b\t\tC\n", "x\v\fy\r\nZ", "MiXeD Case 42 [#1 tool c1]", "\n\n"} {
		want := strings.ToLower(textmatch.Fold(s))
		if got := foldLowerASCII(s); got != want {
			t.Errorf("foldLowerASCII(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzPrefilter: for any pattern and text, anyMatch agrees with the regexp
// on the folded text, and foldLowerASCII with textmatch.Fold.
func FuzzPrefilter(f *testing.F) {
	f.Add(`read[- ]?only`, "READ  only")
	f.Add(`(change )?freeze|cab-\d+`, "CAB-8812 open")
	f.Add("\u212aelvin", "kelvin")
	f.Add(`(?-i)A(b|c)+`, "xAbcb")
	f.Add(`\bv7\b.{0,3}[^x]`, "v7 ok")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		re, err := textmatch.Compile(pattern)
		if err != nil {
			return
		}
		want := re.MatchString(textmatch.Fold(text))
		if got := anyMatch([]prefilter{newPrefilter(re)}, text); got != want {
			t.Fatalf("pattern %q on %q: prefiltered match %v, regexp %v", pattern, text, got, want)
		}
		if pfIsASCII(text) {
			if got, want := foldLowerASCII(text), strings.ToLower(textmatch.Fold(text)); got != want {
				t.Fatalf("foldLowerASCII(%q) = %q, want %q", text, got, want)
			}
		}
	})
}

// BenchmarkAvoider is the filler avoider on the built-in suite's longest
// scenario's patterns: one candidate text checked against all of them.
//
//	go test -run='^$' -bench=BenchmarkAvoider ./scenarios
func BenchmarkAvoider(b *testing.B) {
	list, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	var av *avoider
	for _, s := range list {
		if a := newAvoider(s); av == nil || len(a.patterns) > len(av.patterns) {
			av = a
		}
	}
	evs, err := ExpandFiller(Filler{Count: 200, Seed: 5, Topic: "network"}, 1, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	for _, e := range evs {
		texts = append(texts, eventTexts(e)...)
	}
	b.Run("prefilter", func(b *testing.B) {
		for b.Loop() {
			for _, t := range texts {
				anyMatch(av.patterns, t)
			}
		}
	})
	b.Run("regexp", func(b *testing.B) {
		res := make([]*regexp.Regexp, len(av.patterns))
		for i := range av.patterns {
			res[i] = av.patterns[i].re
		}
		for b.Loop() {
			for _, t := range texts {
				folded := textmatch.Fold(t)
				for _, re := range res {
					if re.MatchString(folded) {
						break
					}
				}
			}
		}
	})
}
