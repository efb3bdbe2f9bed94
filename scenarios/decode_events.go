package scenarios

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/internal/yamlnode"
	"github.com/compact-eval/compact-eval/result"
	"gopkg.in/yaml.v3"
)

// event decodes one event mapping (not a filler).
func (d *decoder) event(n *yaml.Node, what string) entry {
	var en entry
	e := &en.ev
	e.Pos = pos(n)
	var roleNode, textNode, callNode, resultNode *yaml.Node
	d.Mapping(n, what, []yamlnode.Field{
		{Name: "seq", Required: false, Set: func(v *yaml.Node) {
			en.hasSeq = true
			en.seqPos = pos(v)
			e.Seq = d.IntIn(v, what, ".seq")
			if e.Seq < 1 && v.Tag == "!!int" {
				d.Errorf(v, "%s.seq: must be 1 or more, got %d", what, e.Seq)
			}
		}},
		{Name: "role", Required: true, Set: func(v *yaml.Node) { roleNode = v; e.Role = Role(d.TextIn(v, what, ".role")) }},
		{Name: "text", Required: false, Set: func(v *yaml.Node) { textNode = v; e.Text = d.TextIn(v, what, ".text") }},
		{Name: "tool_call", Required: false, Set: func(v *yaml.Node) { callNode = v; e.ToolCall = d.toolCall(v, what) }},
		{Name: "tool_result", Required: false, Set: func(v *yaml.Node) {
			resultNode = v
			e.ToolResult = d.toolResult(v, what)
		}},
	})
	if roleNode == nil {
		return en
	}
	switch e.Role {
	case RoleSystem, RoleUser:
		if textNode == nil {
			d.Errorf(n, "%s: a %s event needs text", what, e.Role)
		}
	case RoleAssistant:
		if textNode == nil && callNode == nil {
			d.Errorf(n, "%s: an assistant event needs text or a tool_call", what)
		}
	case RoleTool:
		if resultNode == nil {
			d.Errorf(n, "%s: a tool event needs a tool_result", what)
		}
		if textNode != nil {
			d.Errorf(textNode, "%s: a tool event carries its text in tool_result.text", what)
		}
	default:
		d.Errorf(roleNode, "%s.role: %q is not a role (valid: system, user, assistant, tool)", what, e.Role)
		return en
	}
	if callNode != nil && e.Role != RoleAssistant {
		d.Errorf(callNode, "%s: tool_call is only allowed on assistant events, not %s", what, e.Role)
	}
	if resultNode != nil && e.Role != RoleTool {
		d.Errorf(resultNode, "%s: tool_result is only allowed on tool events, not %s", what, e.Role)
	}
	return en
}

func (d *decoder) toolCall(n *yaml.Node, event string) *ToolCall {
	c := &ToolCall{}
	d.Mapping(n, event+".tool_call", []yamlnode.Field{
		{Name: "id", Required: true, Set: func(v *yaml.Node) {
			c.ID = d.TextIn(v, event, ".tool_call.id")
			if v.Kind == yaml.ScalarNode && strings.TrimSpace(c.ID) == "" {
				d.Errorf(v, "%s.tool_call.id: empty", event)
			}
		}},
		{Name: "name", Required: true, Set: func(v *yaml.Node) {
			c.Name = d.TextIn(v, event, ".tool_call.name")
			if v.Kind == yaml.ScalarNode && strings.TrimSpace(c.Name) == "" {
				d.Errorf(v, "%s.tool_call.name: empty", event)
			}
		}},
		{Name: "args", Required: false, Set: func(v *yaml.Node) {
			if v.Kind != yaml.MappingNode { // no d.Kind: it would build the name for every call
				d.Errorf(v, "%s.tool_call.args: want a mapping, got %s", event, yamlnode.Describe(v))
				return
			}
			c.Args = nodeValue(v).(map[string]any)
		}},
	})
	return c
}

// nodeValue converts a YAML node (aliases already refused) to the values
// encoding/json writes: map[string]any, []any, string, int, float64, bool,
// nil. Scalars that do not parse as their tag says stay text.
func nodeValue(n *yaml.Node) any {
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = nodeValue(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			l[i] = nodeValue(c)
		}
		return l
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil
		case "!!bool", "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err == nil {
				return v
			}
		}
		return n.Value
	case yaml.DocumentNode:
		if len(n.Content) > 0 {
			return nodeValue(n.Content[0])
		}
	}
	return nil
}

// jsonable turns YAML-decoded values into values encoding/json can write
// (map[any]any keys become strings).
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
		return x
	}
	return v
}

func (d *decoder) toolResult(n *yaml.Node, event string) *ToolResult {
	r := &ToolResult{Status: StatusOK}
	d.Mapping(n, event+".tool_result", []yamlnode.Field{
		{Name: "call_id", Required: true, Set: func(v *yaml.Node) { r.CallID = d.TextIn(v, event, ".tool_result.call_id") }},
		{Name: "status", Required: false, Set: func(v *yaml.Node) {
			r.Status = d.TextIn(v, event, ".tool_result.status")
			switch r.Status {
			case StatusOK, StatusError, StatusTimeout:
			default:
				if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
					d.Errorf(v, "%s.tool_result.status: %q is not a status (valid: ok, error, timeout)", event, r.Status)
				}
			}
		}},
		{Name: "text", Required: false, Set: func(v *yaml.Node) { r.Text = d.TextIn(v, event, ".tool_result.text") }},
	})
	return r
}

func (d *decoder) filler(n *yaml.Node, what string) *Filler {
	f := &Filler{Pos: pos(n)}
	d.Mapping(n, what+".filler", []yamlnode.Field{
		{Name: "count", Required: true, Set: func(v *yaml.Node) {
			f.Count = d.Int(v, what+".filler.count")
			if v.Tag == "!!int" && (f.Count < 1 || f.Count > MaxFillerCount) {
				d.Errorf(v, "%s.filler.count: %d is not in 1..%d", what, f.Count, MaxFillerCount)
				f.Count = 0
			}
		}},
		{Name: "seed", Required: true, Set: func(v *yaml.Node) {
			seed := d.Int(v, what+".filler.seed")
			if seed < 0 {
				d.Errorf(v, "%s.filler.seed: must not be negative", what)
			}
			f.Seed = uint64(max(seed, 0))
		}},
		{Name: "topic", Required: true, Set: func(v *yaml.Node) {
			f.Topic = d.Text(v, what+".filler.topic")
			if v.Kind == yaml.ScalarNode && !slices.Contains(FillerTopics, f.Topic) {
				d.Errorf(v, "%s.filler.topic: %q is not a topic (valid: %s)", what, f.Topic, strings.Join(FillerTopics, ", "))
				f.Topic = ""
			}
		}},
	})
	return f
}

// events decodes and numbers the events list, expanding filler.
//
// Numbering: seq is given on every event of the list or on none. Without
// seq, events (filler included) are numbered 1, 2, … in order. With seq,
// filler events take the seqs right after the event before them (1 when
// the filler comes first), and the next explicit seq must be greater than
// the last of them.
func (d *decoder) events(n *yaml.Node, s *Scenario) []Event {
	if !d.List(n, "events") {
		return nil
	}
	if len(n.Content) == 0 {
		d.Errorf(n, "events: empty; a scenario needs at least one event")
		return nil
	}
	if !d.underEventLimit(n.Content, 0, "events") {
		return nil
	}
	entries := make([]entry, 0, len(n.Content))
	withSeq, withoutSeq := 0, 0
	var firstWith, firstWithout *yaml.Node
	seeds := map[uint64]result.Pos{}
	for i, item := range n.Content {
		what := "events[" + strconv.Itoa(i) + "]"
		if item.Kind == yaml.MappingNode && len(item.Content) >= 2 && item.Content[0].Value == "filler" {
			if len(item.Content) > 2 {
				d.Errorf(item.Content[2], "%s: a filler entry has only the key \"filler\", not %q", what, item.Content[2].Value)
			}
			f := d.filler(item.Content[1], what)
			if f.Count > 0 && f.Topic != "" {
				if p, dup := seeds[f.Seed]; dup {
					d.Errorf(item.Content[1], "%s.filler.seed: seed %d already used at line %d; each filler needs its own seed", what, f.Seed, p.Line)
					continue
				}
				seeds[f.Seed] = f.Pos
				entries = append(entries, entry{filler: f})
			}
			continue
		}
		en := d.event(item, what)
		if en.hasSeq {
			withSeq++
			if firstWith == nil {
				firstWith = item
			}
		} else {
			withoutSeq++
			if firstWithout == nil {
				firstWithout = item
			}
		}
		entries = append(entries, en)
	}
	if withSeq > 0 && withoutSeq > 0 {
		d.Errorf(firstWithout, "events: seq is given on some events (first at line %d) but not on this one; give it on every event or on none", firstWith.Line)
		return nil
	}
	explicit := withSeq > 0
	if d.npatterns > MaxPatterns {
		return nil // refused already; expanding filler would check every pattern
	}
	av := newAvoider(s)
	for _, en := range entries {
		if en.filler == nil {
			av.see(en.ev)
		}
	}
	total := 0
	for _, en := range entries {
		if en.filler != nil {
			total += en.filler.Count
		} else {
			total++
		}
	}
	out := make([]Event, 0, min(total, MaxEvents))
	last := 0
	lastPos := result.Pos{}
	for _, en := range entries {
		if en.filler != nil {
			if len(out)+en.filler.Count > MaxEvents {
				d.errorAt(en.filler.Pos, "filler of %d events makes the scenario longer than %d events", en.filler.Count, MaxEvents)
				return out
			}
			fe := expandFiller(*en.filler, last+1, av)
			if av.failed != "" {
				d.errorAt(en.filler.Pos, "filler seed %d: %s", en.filler.Seed, av.failed)
				av.failed = ""
			}
			out = append(out, fe...)
			if len(fe) > 0 {
				last = fe[len(fe)-1].Seq
				lastPos = en.filler.Pos
			}
			continue
		}
		e := en.ev
		if explicit {
			if e.Seq <= last && e.Seq >= 1 {
				if lastPos.Line > 0 && len(out) > 0 && out[len(out)-1].Filler {
					d.errorAt(en.seqPos, "seq %d must be greater than %d, the last seq of the filler at line %d (filler events take the seqs right after the event before them)", e.Seq, last, lastPos.Line)
				} else {
					d.errorAt(en.seqPos, "seq %d must be greater than %d, the seq before it (seqs rise strictly)", e.Seq, last)
				}
			}
		} else {
			e.Seq = last + 1
		}
		last = max(last, e.Seq)
		lastPos = e.Pos
		out = append(out, e)
	}
	return out
}

// underEventLimit reports whether items, after already events, stay within
// MaxEvents, filler counted at its count; if not, it reports the entry that
// crosses the limit. It runs before any entry is decoded, so that the limit
// holds for explicit events as it does for filler.
func (d *decoder) underEventLimit(items []*yaml.Node, already int, what string) bool {
	explicit, filler := 0, 0
	for i, item := range items {
		if item.Kind == yaml.MappingNode && len(item.Content) >= 2 && item.Content[0].Value == "filler" {
			filler += fillerCount(item.Content[1])
		} else {
			explicit++
		}
		if already+explicit+filler > MaxEvents {
			prior := ""
			if already > 0 {
				prior = fmt.Sprintf("%d before the arrivals, ", already)
			}
			d.Errorf(item, "%s[%d]: this entry takes the scenario past %d events (%s%d explicit and %d of filler by here, of %d entries in the list): a scenario holds at most %d events, filler and arrivals included",
				what, i, MaxEvents, prior, explicit, filler, len(items), MaxEvents)
			return false
		}
	}
	return true
}

// fillerCount is the count a filler mapping asks for, or 0 when it is not a
// valid count (decoding the filler reports that).
func fillerCount(n *yaml.Node) int {
	if n.Kind != yaml.MappingNode {
		return 0
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "count" {
			c, err := strconv.Atoi(n.Content[i+1].Value)
			if err != nil || c < 1 || c > MaxFillerCount {
				return 0
			}
			return c
		}
	}
	return 0
}

func (d *decoder) arrivals(n *yaml.Node, s *Scenario) []Event {
	if n.Kind == yaml.SequenceNode && !d.underEventLimit(n.Content, len(s.Events), "arrivals") {
		return nil
	}
	var out []Event
	last := s.LastSeq()
	withSeq := 0
	d.Items(n, "arrivals", func(item *yaml.Node, what string) {
		if item.Kind == yaml.MappingNode && len(item.Content) >= 2 && item.Content[0].Value == "filler" {
			d.Errorf(item, "%s: filler is not allowed in arrivals", what)
			return
		}
		en := d.event(item, what)
		e := en.ev
		if en.hasSeq {
			withSeq++
			if e.Seq <= last && e.Seq >= 1 {
				d.errorAt(en.seqPos, "%s.seq: %d must be greater than %d (arrivals come after the last event and rise strictly)", what, e.Seq, last)
			}
		} else {
			if withSeq > 0 {
				d.Errorf(item, "%s: seq is given on some arrivals but not on this one; give it on every arrival or on none", what)
			}
			e.Seq = last + 1
		}
		last = max(last, e.Seq)
		out = append(out, e)
	})
	return out
}
