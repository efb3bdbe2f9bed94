package scenarios

import (
	"strings"

	"github.com/compact-eval/compact-eval/internal/yamlnode"
	"gopkg.in/yaml.v3"
)

func (d *decoder) probes(n *yaml.Node) []Probe {
	var out []Probe
	ids := map[string]int{}
	d.Items(n, "probes", func(item *yaml.Node, what string) {
		p := Probe{Pos: pos(item)}
		var options, expect, answer, rubric, requires *yaml.Node
		d.Mapping(item, what, []yamlnode.Field{
			{Name: "id", Required: true, Set: func(v *yaml.Node) { p.ID = d.Text(v, what+".id") }},
			{Name: "question", Required: true, Set: func(v *yaml.Node) { p.Question = d.Text(v, what+".question") }},
			{Name: "options", Set: func(v *yaml.Node) { options = v }},
			{Name: "expect", Set: func(v *yaml.Node) { expect = v }},
			{Name: "answer", Set: func(v *yaml.Node) { answer = v }},
			{Name: "rubric", Set: func(v *yaml.Node) { rubric = v }},
			{Name: "requires", Set: func(v *yaml.Node) { requires = v }},
		})
		switch {
		case options != nil && answer != nil:
			d.Errorf(answer, "%s: give options and expect (a choice probe) or answer (a free-text probe), not both", what)
		case answer != nil:
			d.freeText(&p, what, answer, rubric, requires)
			if expect != nil {
				d.Errorf(expect, "%s.expect: a free-text probe has no expect: answer is the expected answer", what)
			}
		case options == nil:
			d.Errorf(item, "%s: missing required field \"options\" (or \"answer\", for a free-text probe)", what)
		default:
			d.choice(&p, what, options, requires)
			if expect == nil {
				d.Errorf(item, "%s: missing required field \"expect\"", what)
			} else {
				p.Expect = d.Text(expect, what+".expect")
			}
			if rubric != nil {
				d.Errorf(rubric, "%s.rubric: only a free-text probe (answer:) has a rubric", what)
			}
		}
		if p.ID != "" {
			if line, dup := ids[p.ID]; dup {
				d.Errorf(item, "%s: duplicate probe id %q (first at line %d)", what, p.ID, line)
			}
			ids[p.ID] = item.Line
		}
		out = append(out, p)
	})
	return out
}

// choice decodes a choice probe's options and requires.
func (d *decoder) choice(p *Probe, what string, v, requires *yaml.Node) {
	if d.Kind(v, yaml.MappingNode, what+".options", "a mapping of key to description") {
		if len(v.Content) < 4 {
			d.Errorf(v, "%s.options: a probe needs at least two options", what)
		}
		seen := map[string]int{}
		for j := 0; j+1 < len(v.Content); j += 2 {
			k := d.Text(v.Content[j], what+".options key")
			if line, dup := seen[k]; dup {
				d.Errorf(v.Content[j], "%s.options: duplicate option %q (first at line %d)", what, k, line)
				continue
			}
			seen[k] = v.Content[j].Line
			p.Options = append(p.Options, Option{Key: k, Description: d.Text(v.Content[j+1], what+".options."+k)})
		}
	}
	if requires == nil || !d.Kind(requires, yaml.MappingNode, what+".requires", "a mapping of option key to patterns") {
		return
	}
	seen := map[string]int{}
	for j := 0; j+1 < len(requires.Content); j += 2 {
		k := d.Text(requires.Content[j], what+".requires key")
		if line, dup := seen[k]; dup {
			d.Errorf(requires.Content[j], "%s.requires: duplicate option %q (first at line %d)", what, k, line)
			continue
		}
		seen[k] = requires.Content[j].Line
		p.Requires = append(p.Requires, Requirement{Option: k, Patterns: d.patterns(requires.Content[j+1], what+".requires."+k), Pos: pos(requires.Content[j])})
	}
}

// freeText decodes a free-text probe's answer, rubric (a line or a list
// of lines) and requires (a pattern or a list of patterns: what the answer
// is derived from).
func (d *decoder) freeText(p *Probe, what string, answer, rubric, requires *yaml.Node) {
	p.Answer = d.Text(answer, what+".answer")
	if answer.Kind == yaml.ScalarNode && strings.TrimSpace(p.Answer) == "" {
		d.Errorf(answer, "%s.answer: empty: write the expected answer in words", what)
	}
	if rubric != nil {
		if rubric.Kind == yaml.ScalarNode {
			p.Rubric = []string{d.Text(rubric, what+".rubric")}
		} else if d.Kind(rubric, yaml.SequenceNode, what+".rubric", "a line or a list of lines") {
			p.Rubric = d.Texts(rubric, what+".rubric")
		}
		for i, r := range p.Rubric {
			if strings.TrimSpace(r) == "" {
				d.Errorf(rubric, "%s.rubric[%d]: empty line", what, i)
			}
		}
	}
	if requires != nil {
		if requires.Kind == yaml.MappingNode {
			d.Errorf(requires, "%s.requires: a free-text probe's requires is a pattern or a list of patterns (what its answer is derived from), not a mapping of options", what)
			return
		}
		p.Requires = []Requirement{{Option: AnswerKey, Patterns: d.patterns(requires, what+".requires"), Pos: pos(requires)}}
	}
}
