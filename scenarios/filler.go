package scenarios

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// FillerTopics lists the topics a filler entry may ask for.
var FillerTopics = []string{"network", "code", "web", "data"}

// MaxFillerCount bounds one filler entry's count, so that a typo cannot ask
// for a million events.
const MaxFillerCount = 5000

// Filler is a `- filler: {count, seed, topic}` entry of a scenario's events:
// Count noise events about Topic, generated from Seed.
type Filler struct {
	Count int        `json:"count"`
	Seed  uint64     `json:"seed"`
	Topic string     `json:"topic"`
	Pos   result.Pos `json:"-"`
}

// ExpandFiller returns the events a filler entry expands to, numbered from
// firstSeq, in a scenario that has no other events. The same Filler gives
// the same events. avoid lists strings (paths, values) the filler must not
// mention, case-insensitively, and patterns (RE2, as in docs/formats.md §2)
// that no filler text may match.
//
// The loader calls the same generator with the scenario's own strings: the
// invariants' paths, values, ids and patterns, and the probes' requires
// patterns, and every text of the file's events.
func ExpandFiller(f Filler, firstSeq int, avoid, patterns []string) ([]Event, error) {
	av := &avoider{seen: map[string]bool{}}
	for _, a := range avoid {
		av.addLiteral(a)
	}
	for _, p := range patterns {
		av.addPattern(p)
	}
	ev := expandFiller(f, firstSeq, av)
	if av.failed != "" {
		return ev, fmt.Errorf("filler seed %d: %s", f.Seed, av.failed)
	}
	return ev, nil
}

// avoider decides whether a generated text may be used.
type avoider struct {
	literals []string // lower case
	patterns []prefilter
	seen     map[string]bool // every event text so far
	failed   string
}

func newAvoider(s *Scenario) *avoider {
	av := &avoider{seen: map[string]bool{}}
	for _, inv := range s.Invariants {
		switch v := Pointer(inv).(type) {
		case *Constraint:
			av.addPatterns(v.Match)
		case *RefutedHypothesis:
			av.addPatterns(v.Match)
			av.addPatterns(v.Conclusion)
		case *Artifact:
			for _, p := range v.Paths {
				av.addLiteral(p)
				// "config/db.yaml" must not appear as "db.yaml" either.
				if i := strings.LastIndexByte(p, '/'); i >= 0 {
					av.addLiteral(p[i+1:])
				}
			}
			for _, p := range v.Required {
				av.addLiteral(p)
			}
			for k, dg := range v.Digests {
				av.addLiteral(k)
				av.addLiteral(dg)
			}
		case *PendingOperation:
			av.addLiteral(v.OpID)
		case *Correction:
			av.addLiteral(v.Old)
			av.addLiteral(v.New)
		case *Quantity:
			n := strconv.FormatFloat(v.Value, 'f', -1, 64)
			av.addLiteral(n + " " + v.Unit)
			av.addLiteral(n + v.Unit)
			av.addPatterns(v.Match)
		case *Secret:
			av.addLiteral(v.Value)
			if len(v.Value) > 8 {
				av.addLiteral(v.Value[:8])
			}
		}
	}
	for _, p := range s.Probes {
		for _, r := range p.Requires {
			av.addPatterns(r.Patterns)
		}
	}
	return av
}

func (av *avoider) addLiteral(s string) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) >= 3 { // shorter strings are too common to mean anything
		av.literals = append(av.literals, s)
	}
}

func (av *avoider) addPatterns(ps []string) {
	for _, p := range ps {
		av.addPattern(p)
	}
}

func (av *avoider) addPattern(p string) {
	if re, err := textmatch.Compile(p); err == nil {
		av.patterns = append(av.patterns, prefilter{re: re})
	}
}

func (av *avoider) see(e Event) {
	for _, t := range eventTexts(e) {
		av.seen[t] = true
	}
}

func eventTexts(e Event) []string {
	var out []string
	if e.Text != "" {
		out = append(out, e.Text)
	}
	if e.ToolResult != nil && e.ToolResult.Text != "" {
		out = append(out, e.ToolResult.Text)
	}
	return out
}

// ok reports whether texts may be used: none was seen before, none names an
// avoided string, none matches an avoided pattern.
func (av *avoider) ok(texts ...string) bool {
	for _, t := range texts {
		if av.seen[t] {
			return false
		}
		lower := strings.ToLower(t)
		for _, l := range av.literals {
			if strings.Contains(lower, l) {
				return false
			}
		}
		if len(av.patterns) > 0 && anyMatch(av.patterns, t) {
			return false
		}
	}
	return true
}

// minProse is the least length of a prose filler event, in bytes.
const minProse = 100

// maxTries bounds the re-rolls of one filler event.
const maxTries = 200

// expandFiller generates f.Count events from firstSeq. Pairs of a call and
// its ok result are never split: when one slot is left, it is prose.
func expandFiller(f Filler, firstSeq int, av *avoider) []Event {
	g := &gen{r: rand.New(rand.NewPCG(f.Seed, 0x636f6d70616374)), topic: f.Topic}
	out := make([]Event, 0, f.Count)
	seq := firstSeq
	n := 0
	for len(out) < f.Count {
		left := f.Count - len(out)
		pair := left >= 2 && g.r.IntN(100) < 55
		done := false
		for try := 0; try < maxTries && !done; try++ {
			if pair {
				name, args, text := g.tool()
				callText := name + " " + fmt.Sprint(args)
				if !av.ok(text, callText) {
					continue
				}
				n++
				id := fmt.Sprintf("f%d-%d", f.Seed, n)
				call := Event{Seq: seq, Role: RoleAssistant, ToolCall: &ToolCall{ID: id, Name: name, Args: args}, Filler: true, Pos: f.Pos}
				res := Event{Seq: seq + 1, Role: RoleTool, ToolResult: &ToolResult{CallID: id, Status: StatusOK, Text: text}, Filler: true, Pos: f.Pos}
				av.see(res)
				out = append(out, call, res)
				seq += 2
				done = true
				continue
			}
			role, text := g.prose()
			if !av.ok(text) {
				continue
			}
			e := Event{Seq: seq, Role: role, Text: text, Filler: true, Pos: f.Pos}
			av.see(e)
			out = append(out, e)
			seq++
			done = true
		}
		if !done {
			av.failed = fmt.Sprintf("cannot generate %s filler that avoids the scenario's patterns and values after %d tries; is a pattern too broad?", f.Topic, maxTries)
			return out
		}
	}
	return out
}

// gen draws filler texts from a deterministic source.
type gen struct {
	r     *rand.Rand
	topic string
}

func (g *gen) pick(list ...string) string { return list[g.r.IntN(len(list))] }

func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

func (g *gen) hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[g.r.IntN(16)]
	}
	return string(b)
}

func (g *gen) tool() (name string, args map[string]any, text string) {
	switch g.topic {
	case "network":
		return g.networkTool()
	case "code":
		return g.codeTool()
	case "web":
		return g.webTool()
	default:
		return g.dataTool()
	}
}

func (g *gen) prose() (Role, string) {
	var list []func(*gen) string
	var users []func(*gen) string
	switch g.topic {
	case "network":
		list, users = networkNotes, networkAsks
	case "code":
		list, users = codeNotes, codeAsks
	case "web":
		list, users = webNotes, webAsks
	default:
		list, users = dataNotes, dataAsks
	}
	if g.r.IntN(100) < 30 {
		// Short asks get a second sentence, so that no event is trivially
		// small (about 20 tokens at least).
		text := users[g.r.IntN(len(users))](g)
		for len(text) < minProse {
			text += " " + users[g.r.IntN(len(users))](g)
		}
		return RoleUser, text
	}
	// Assistant notes vary in length: one to three observations.
	k := g.between(1, 3)
	text := list[g.r.IntN(len(list))](g)
	for i := 1; i < k || len(text) < minProse; i++ {
		text += " " + list[g.r.IntN(len(list))](g)
	}
	return RoleAssistant, text
}
