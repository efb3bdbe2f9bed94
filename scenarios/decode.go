package scenarios

import (
	"fmt"
	"regexp"

	"github.com/compact-eval/compact-eval/internal/yamlnode"
	"github.com/compact-eval/compact-eval/result"
	"gopkg.in/yaml.v3"
)

func pos(n *yaml.Node) result.Pos { return result.Pos(yamlnode.PosOf(n)) }

// decoder turns a yaml.Node tree into a Scenario, collecting every problem
// in errs; the embedded yamlnode.Decoder reads the generic parts.
type decoder struct {
	yamlnode.Decoder
	file      string
	errs      ErrorList
	npatterns int // patterns decoded so far, for MaxPatterns
}

func newDecoder(file string) *decoder {
	d := &decoder{file: file}
	d.Report = func(p yamlnode.Pos, msg string) {
		d.errs = append(d.errs, &Error{File: d.file, Pos: result.Pos(p), Msg: msg})
	}
	return d
}

func (d *decoder) errorAt(p result.Pos, format string, args ...any) {
	d.errs.add(d.file, p, format, args...)
}

// refuseAliases reports the first alias, and how many more there are (a
// bomb holds thousands), or a nesting deeper than maxDepth.
func (d *decoder) refuseAliases(root *yaml.Node) {
	aliases, deep := yamlnode.Aliases(root, maxDepth)
	if deep != nil {
		d.Errorf(deep, "YAML nested deeper than %d levels", maxDepth)
	}
	if len(aliases) > 0 {
		more := ""
		if len(aliases) > 1 {
			more = fmt.Sprintf(" (%d aliases in this file)", len(aliases))
		}
		d.Errorf(aliases[0], "YAML alias *%s: aliases are not allowed in scenario files, write the value out%s", aliases[0].Value, more)
	}
}

// refuseTags reports every explicit tag but the core ones: a scenario is
// text, numbers, booleans, lists and mappings. "!!binary" was accepted as
// its base64 text; a local tag ("!secret") was silently dropped.
func (d *decoder) refuseTags(root *yaml.Node) {
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Style&yaml.TaggedStyle != 0 {
			switch n.Tag {
			case "!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq":
			case "!!binary":
				d.Errorf(n, "tag !!binary: a scenario holds text, not binary data; write the value as text")
			default:
				d.Errorf(n, "tag %s is not supported: a scenario holds plain YAML values (text, numbers, booleans, lists, mappings); remove the tag", n.Tag)
			}
		}
		for i := len(n.Content) - 1; i >= 0; i-- {
			stack = append(stack, n.Content[i])
		}
	}
}

// maxDepth bounds the nesting of a scenario file; real ones nest about 6
// levels deep (tool arguments can add a few).
const maxDepth = 64

// patterns decodes a pattern or a list of patterns (at least one).
func (d *decoder) patterns(n *yaml.Node, what string) []string {
	if n.Kind == yaml.ScalarNode {
		d.countPatterns(n, 1)
		return []string{d.Text(n, what)}
	}
	if !d.Kind(n, yaml.SequenceNode, what, "a pattern or a list of patterns") {
		return nil
	}
	if len(n.Content) == 0 {
		d.Errorf(n, "%s: empty list of patterns", what)
		return nil
	}
	d.countPatterns(n, len(n.Content))
	out := d.Texts(n, what)
	for i, p := range out {
		if p == "" {
			d.Errorf(n.Content[i], "%s[%d]: empty pattern matches everything", what, i)
		}
	}
	return out
}

// countPatterns adds k patterns, the first of them at n (or in the list
// n), and reports the one that crosses MaxPatterns.
func (d *decoder) countPatterns(n *yaml.Node, k int) {
	before := d.npatterns
	d.npatterns += k
	if before > MaxPatterns || d.npatterns <= MaxPatterns {
		return
	}
	at := n
	if n.Kind == yaml.SequenceNode {
		at = n.Content[MaxPatterns-before]
	}
	d.Errorf(at, "this pattern takes the scenario past %d patterns: a scenario holds no more than %d patterns (invariants and probes together)", MaxPatterns, MaxPatterns)
}

// entry is an events list item before numbering: an event or a filler.
type entry struct {
	ev     Event
	hasSeq bool
	seqPos result.Pos
	filler *Filler
}

func (d *decoder) scenario(doc *yaml.Node) *Scenario {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	s := &Scenario{Pos: pos(root)}
	var eventsNode, arrivalsNode, compactionNode *yaml.Node
	ok := d.Mapping(root, "scenario", []yamlnode.Field{
		{Name: "version", Required: true, Set: func(v *yaml.Node) {
			s.Version = d.Int(v, "version")
			if v.Tag == "!!int" && s.Version != Version {
				d.Errorf(v, "version: %s is not supported (this compact-eval reads version %d)", v.Value, Version)
			}
		}},
		{Name: "id", Required: true, Set: func(v *yaml.Node) {
			s.ID = d.Text(v, "id")
			s.IDPos = pos(v)
			if s.ID != "" && !idRE.MatchString(s.ID) {
				d.Errorf(v, "id %q: want lowercase letters, digits and '-', starting with a letter or digit", s.ID)
			}
		}},
		{Name: "title", Required: false, Set: func(v *yaml.Node) { s.Title, s.TitlePos = d.Text(v, "title"), pos(v) }},
		{Name: "tags", Required: false, Set: func(v *yaml.Node) { s.Tags = d.Texts(v, "tags") }},
		{Name: "goal", Required: false, Set: func(v *yaml.Node) { s.Goal, s.GoalPos = d.Text(v, "goal"), pos(v) }},
		{Name: "rules", Required: false, Set: func(v *yaml.Node) { s.Rules, s.RulesPos = d.Text(v, "rules"), pos(v) }},
		{Name: "context_window", Required: false, Set: func(v *yaml.Node) {
			s.ContextWindow = d.Int(v, "context_window")
			if s.ContextWindow < 0 {
				d.Errorf(v, "context_window: must be positive, got %d", s.ContextWindow)
			}
		}},
		{Name: "compaction", Required: false, Set: func(v *yaml.Node) { s.Compaction, compactionNode = d.compaction(v), v }},
		{Name: "events", Required: true, Set: func(v *yaml.Node) { eventsNode = v }},
		{Name: "arrivals", Required: false, Set: func(v *yaml.Node) { arrivalsNode = v }},
		{Name: "invariants", Required: false, Set: func(v *yaml.Node) { s.Invariants = d.invariants(v) }},
		{Name: "probes", Required: false, Set: func(v *yaml.Node) { s.Probes = d.probes(v) }},
		{Name: "recorded_compactions", Required: false, Set: func(v *yaml.Node) { s.Recorded = d.recorded(v) }},
	})
	if !ok {
		return s
	}
	if eventsNode != nil {
		s.Events = d.events(eventsNode, s)
	}
	if arrivalsNode != nil {
		s.Arrivals = d.arrivals(arrivalsNode, s)
	}
	d.recordedCuts(s, compactionNode)
	return s
}

// idRE is the form of scenario ids (docs/formats.md §2).
var idRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

func (d *decoder) compaction(n *yaml.Node) Compaction {
	c := Compaction{Pos: pos(n)}
	d.Mapping(n, "compaction", []yamlnode.Field{
		{Name: "at", Required: false, Set: func(v *yaml.Node) {
			if !d.Kind(v, yaml.SequenceNode, "compaction.at", "a list of seqs") {
				return
			}
			for i, e := range v.Content {
				c.At = append(c.At, d.Int(e, fmt.Sprintf("compaction.at[%d]", i)))
				c.AtPos = append(c.AtPos, pos(e))
			}
		}},
		{Name: "threshold_tokens", Required: false, Set: func(v *yaml.Node) {
			c.ThresholdTokens = d.Int(v, "compaction.threshold_tokens")
			if c.ThresholdTokens < 0 {
				d.Errorf(v, "compaction.threshold_tokens: must be positive, got %d", c.ThresholdTokens)
			}
		}},
		{Name: "threshold_fraction", Required: false, Set: func(v *yaml.Node) {
			c.ThresholdFraction = d.Number(v, "compaction.threshold_fraction")
			if v.Tag == "!!int" || v.Tag == "!!float" {
				if !(c.ThresholdFraction > 0 && c.ThresholdFraction <= 1) {
					d.Errorf(v, "compaction.threshold_fraction: %s is not in (0, 1]", v.Value)
				}
			}
		}},
		{Name: "reserve_tokens", Required: false, Set: func(v *yaml.Node) {
			c.ReserveTokens = d.Int(v, "compaction.reserve_tokens")
			if c.ReserveTokens < 0 {
				d.Errorf(v, "compaction.reserve_tokens: must not be negative, got %d", c.ReserveTokens)
			}
		}},
		{Name: "keep_recent", Required: false, Set: func(v *yaml.Node) {
			c.KeepRecent = d.Int(v, "compaction.keep_recent")
			if c.KeepRecent < 0 {
				d.Errorf(v, "compaction.keep_recent: must not be negative, got %d", c.KeepRecent)
			}
		}},
		{Name: "rebuild", Required: false, Set: func(v *yaml.Node) {
			c.Rebuild = d.Text(v, "compaction.rebuild")
			if c.Rebuild != "" && c.Rebuild != RebuildIterative && c.Rebuild != RebuildFromSource || v.Tag == "!!str" && c.Rebuild == "" {
				d.Errorf(v, "compaction.rebuild: %q is not a rebuild mode (valid: %s, %s)", c.Rebuild, RebuildIterative, RebuildFromSource)
			}
		}},
		{Name: "max_ratio", Required: false, Set: func(v *yaml.Node) {
			c.MaxRatio = d.Number(v, "compaction.max_ratio")
			if v.Tag == "!!int" || v.Tag == "!!float" {
				if !(c.MaxRatio > 0 && c.MaxRatio <= 1) {
					d.Errorf(v, "compaction.max_ratio: %s is not in (0, 1]", v.Value)
				}
			}
		}},
	})
	return c
}
