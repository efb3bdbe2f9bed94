package scenarios

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/tokens"
)

func TestFillerDeterministic(t *testing.T) {
	for _, topic := range FillerTopics {
		t.Run(topic, func(t *testing.T) {
			f := Filler{Count: 60, Seed: 42, Topic: topic}
			a, err := ExpandFiller(f, 1, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := ExpandFiller(f, 1, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("same seed, different events (-first +second):\n%s", diff)
			}
			f.Seed = 43
			c, _ := ExpandFiller(f, 1, nil, nil)
			if cmp.Equal(a, c) {
				t.Error("seeds 42 and 43 give the same events")
			}
		})
	}
}

// TestFillerInFile: the loader's expansion is deterministic too, and
// reloading the same file gives the same scenario.
func TestFillerInFile(t *testing.T) {
	src := head + "events:\n  - {role: user, text: start}\n  - filler: {count: 40, seed: 9, topic: web}\n"
	a := mustLoad(t, src)
	b := mustLoad(t, src)
	if diff := cmp.Diff(a.Events, b.Events); diff != "" {
		t.Errorf("two loads differ (-first +second):\n%s", diff)
	}
}

func TestFillerProperties(t *testing.T) {
	counter := tokens.Default()
	for _, topic := range FillerTopics {
		t.Run(topic, func(t *testing.T) {
			evs, err := ExpandFiller(Filler{Count: 301, Seed: 7, Topic: topic}, 5, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != 301 {
				t.Fatalf("%d events, want 301", len(evs))
			}
			seen := map[string]int{}
			open := map[string]bool{}
			minTok, maxTok := 1<<30, 0
			calls, prose := 0, 0
			for i, e := range evs {
				if e.Seq != 5+i {
					t.Fatalf("event %d has seq %d, want %d", i, e.Seq, 5+i)
				}
				if !e.Filler {
					t.Errorf("seq %d: Filler is false", e.Seq)
				}
				text := e.Text
				switch {
				case e.ToolCall != nil:
					calls++
					if e.Role != RoleAssistant {
						t.Errorf("seq %d: call on a %s event", e.Seq, e.Role)
					}
					if want := fmt.Sprintf("f7-%d", calls); e.ToolCall.ID != want {
						t.Errorf("seq %d: call id %q, want %q", e.Seq, e.ToolCall.ID, want)
					}
					open[e.ToolCall.ID] = true
					continue
				case e.ToolResult != nil:
					if !open[e.ToolResult.CallID] || evs[i-1].ToolCall == nil || evs[i-1].ToolCall.ID != e.ToolResult.CallID {
						t.Errorf("seq %d: result for %q does not follow its call", e.Seq, e.ToolResult.CallID)
					}
					if e.ToolResult.Status != StatusOK {
						t.Errorf("seq %d: status %q, want ok", e.Seq, e.ToolResult.Status)
					}
					delete(open, e.ToolResult.CallID)
					text = e.ToolResult.Text
				default:
					prose++
					if e.Role != RoleUser && e.Role != RoleAssistant {
						t.Errorf("seq %d: prose from %s", e.Seq, e.Role)
					}
				}
				if j, dup := seen[text]; dup {
					t.Errorf("seq %d repeats the text of seq %d", e.Seq, j)
				}
				seen[text] = e.Seq
				n := counter.Count(text)
				minTok, maxTok = min(minTok, n), max(maxTok, n)
			}
			if len(open) > 0 {
				t.Errorf("calls without a result: %v", open)
			}
			if calls < 50 || prose < 50 {
				t.Errorf("%d call pairs and %d prose events: want a mix", calls, prose)
			}
			if minTok < 15 || maxTok > 500 || maxTok < 150 {
				t.Errorf("event lengths %d..%d tokens, want them to vary within about 20..400", minTok, maxTok)
			}
			t.Logf("%s: %d pairs, %d prose, %d..%d tokens per event", topic, calls, prose, minTok, maxTok)
		})
	}
}

func TestFillerAvoids(t *testing.T) {
	for _, topic := range FillerTopics {
		t.Run(topic, func(t *testing.T) {
			// Strings the generator is known to produce, and a pattern
			// matching a common word of its texts.
			avoid := []string{"eu-west-1", "billing", "orders", "/pricing", "internal/httpx"}
			patterns := []string{`\bcache\b`, `pass`}
			evs, err := ExpandFiller(Filler{Count: 200, Seed: 1, Topic: topic}, 1, avoid, patterns)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				all := strings.ToLower(e.Text)
				if e.ToolResult != nil {
					all += " " + strings.ToLower(e.ToolResult.Text)
				}
				if e.ToolCall != nil {
					all += " " + strings.ToLower(fmt.Sprint(e.ToolCall.Args))
				}
				for _, a := range avoid {
					if strings.Contains(all, a) {
						t.Errorf("seq %d mentions %q: %s", e.Seq, a, all)
					}
				}
				if strings.Contains(all, " cache ") || strings.Contains(all, "pass") {
					t.Errorf("seq %d matches an avoided pattern: %s", e.Seq, all)
				}
			}
		})
	}
}

func TestFillerAvoidsInvariants(t *testing.T) {
	src := head + `events:
  - {role: user, text: "The 5432 port and config/db.yml matter. Key sk-test-9f8e7d6c5b4a."}
  - filler: {count: 300, seed: 3, topic: code}
  - filler: {count: 300, seed: 4, topic: data}
invariants:
  - {id: a, type: artifact, paths: [config/db.yml, internal/httpx/cache_util.go], required: [config/db.yml]}
  - {id: c, type: correction, old: orders, new: invoices, subject: table, source_seq: 1}
  - {id: s, type: secret, value: sk-test-9f8e7d6c5b4a}
probes:
  - {id: p, question: q, options: {a: A, b: B}, expect: a, requires: {a: 'port'}}
`
	s := mustLoad(t, src)
	for _, e := range s.Events[1:] {
		text := e.Text
		if e.ToolResult != nil {
			text = e.ToolResult.Text
		}
		if e.ToolCall != nil {
			text = fmt.Sprint(e.ToolCall.Args)
		}
		for _, bad := range []string{"internal/httpx/cache_util.go", "cache_util.go", "orders", "invoices", "port"} {
			if strings.Contains(strings.ToLower(text), bad) {
				t.Errorf("filler seq %d names %q", e.Seq, bad)
			}
		}
	}
	if errs := Lint([]*Scenario{s}); errs != nil {
		t.Errorf("lint: %v", errs)
	}
}

func TestFillerImpossiblePattern(t *testing.T) {
	_, err := LoadBytes("t.yaml", []byte(head+`events:
  - {role: user, text: start}
  - filler: {count: 5, seed: 3, topic: network}
invariants:
  - {id: ro, type: constraint, source_seq: 1, match: '.'}
`))
	want := []string{`t.yaml:5:13: filler seed 3: cannot generate network filler that avoids the scenario's patterns and values after 200 tries; is a pattern too broad?`}
	if diff := cmp.Diff(want, errStrings(t, err)); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

func TestFillerTopicsDiffer(t *testing.T) {
	var firsts []string
	for _, topic := range FillerTopics {
		evs, _ := ExpandFiller(Filler{Count: 20, Seed: 1, Topic: topic}, 1, nil, nil)
		var b strings.Builder
		for _, e := range evs {
			if e.ToolCall != nil {
				b.WriteString(e.ToolCall.Name + " ")
			}
		}
		firsts = append(firsts, b.String())
	}
	if len(slices.Compact(slices.Clone(firsts))) != len(firsts) {
		t.Errorf("topics give the same tools: %q", firsts)
	}
}
