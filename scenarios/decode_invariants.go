package scenarios

import (
	"strings"

	"github.com/compact-eval/compact-eval/internal/yamlnode"
	"github.com/compact-eval/compact-eval/result"
	"gopkg.in/yaml.v3"
)

func (d *decoder) invariants(n *yaml.Node) []Invariant {
	var out []Invariant
	ids := map[string]int{}
	d.Items(n, "invariants", func(item *yaml.Node, what string) {
		inv := d.invariant(item, what)
		if inv == nil {
			return
		}
		if id := inv.InvariantID(); id != "" {
			if line, dup := ids[id]; dup {
				d.Errorf(item, "%s: duplicate invariant id %q (first at line %d)", what, id, line)
			}
			ids[id] = item.Line
		}
		out = append(out, inv)
	})
	return out
}

func (d *decoder) invariant(n *yaml.Node, what string) Invariant {
	if !d.Kind(n, yaml.MappingNode, what, "a mapping") {
		return nil
	}
	var typ string
	var typeNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "type" {
			typeNode = n.Content[i+1]
			typ = d.Text(typeNode, what+".type")
			break
		}
	}
	if typeNode == nil {
		d.Errorf(n, "%s: missing required field \"type\" (valid: %s)", what, strings.Join(result.InvariantTypes, ", "))
		return nil
	}
	base := InvariantBase{Pos: pos(n)}
	common := []yamlnode.Field{
		{Name: "id", Required: true, Set: func(v *yaml.Node) {
			base.ID = d.Text(v, what+".id")
			if v.Kind == yaml.ScalarNode && strings.TrimSpace(base.ID) == "" {
				d.Errorf(v, "%s.id: empty", what)
			}
		}},
		{Name: "type", Required: true, Set: func(*yaml.Node) {}},
	}
	seqField := func(name string, dst *int) yamlnode.Field {
		return yamlnode.Field{Name: name, Required: true, Set: func(v *yaml.Node) { *dst = d.Int(v, what+"."+name) }}
	}
	pat := func(name string, required bool, dst *[]string) yamlnode.Field {
		return yamlnode.Field{Name: name, Required: required, Set: func(v *yaml.Node) { *dst = d.patterns(v, what+"."+name) }}
	}
	text := func(name string, dst *string) yamlnode.Field {
		return yamlnode.Field{Name: name, Required: true, Set: func(v *yaml.Node) {
			*dst = d.Text(v, what+"."+name)
			if v.Kind == yaml.ScalarNode && *dst == "" {
				d.Errorf(v, "%s.%s: empty", what, name)
			}
		}}
	}
	var inv Invariant
	var fields []yamlnode.Field
	switch typ {
	case result.TypeConstraint:
		c := &Constraint{}
		fields = []yamlnode.Field{seqField("source_seq", &c.SourceSeq), pat("match", true, &c.Match),
			{Name: "target", Set: func(v *yaml.Node) { c.Target = d.names(v, what+".target") }}}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypeRefutedHypothesis:
		c := &RefutedHypothesis{}
		fields = []yamlnode.Field{seqField("hypothesis_seq", &c.HypothesisSeq), seqField("refuted_by_seq", &c.RefutedBySeq),
			pat("match", true, &c.Match), pat("conclusion", false, &c.Conclusion)}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypeArtifact:
		c := &Artifact{}
		fields = []yamlnode.Field{
			{Name: "paths", Required: true, Set: func(v *yaml.Node) { c.Paths = d.Texts(v, what+".paths") }},
			{Name: "required", Required: true, Set: func(v *yaml.Node) { c.Required = d.Texts(v, what+".required") }},
			{Name: "digests", Required: false, Set: func(v *yaml.Node) {
				if !d.Kind(v, yaml.MappingNode, what+".digests", "a mapping of path to digest") {
					return
				}
				c.Digests = map[string]string{}
				for i := 0; i+1 < len(v.Content); i += 2 {
					c.Digests[d.Text(v.Content[i], what+".digests key")] = d.Text(v.Content[i+1], what+".digests["+v.Content[i].Value+"]")
				}
			}},
		}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypePendingOperation:
		c := &PendingOperation{}
		fields = []yamlnode.Field{text("op_id", &c.OpID), seqField("call_seq", &c.CallSeq)}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypeCorrection:
		c := &Correction{}
		fields = []yamlnode.Field{text("old", &c.Old), text("new", &c.New), text("subject", &c.Subject), seqField("source_seq", &c.SourceSeq)}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypeQuantity:
		c := &Quantity{}
		fields = []yamlnode.Field{
			{Name: "value", Required: true, Set: func(v *yaml.Node) { c.Value = d.Number(v, what+".value") }},
			text("unit", &c.Unit),
			pat("match", false, &c.Match),
		}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypeSecret:
		c := &Secret{}
		fields = []yamlnode.Field{text("value", &c.Value)}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypeApproval, result.TypeGoal, result.TypeNextStep, result.TypeHandoff:
		var set func(InvariantBase)
		inv, fields, set = d.stateInvariant(typ, what, seqField, pat, text)
		defer func() { set(base) }()
	default:
		if typeNode.Kind == yaml.ScalarNode {
			d.Errorf(typeNode, "%s.type: %q is not an invariant type (valid: %s)", what, typ, strings.Join(result.InvariantTypes, ", "))
		}
		return nil
	}
	d.Mapping(n, what+" ("+typ+")", append(common, fields...))
	return inv
}

// names reads a name or a list of names (a constraint's target).
func (d *decoder) names(n *yaml.Node, what string) []string {
	if n.Kind == yaml.ScalarNode {
		if v := d.Text(n, what); strings.TrimSpace(v) != "" {
			return []string{v}
		}
		d.Errorf(n, "%s: empty", what)
		return nil
	}
	if !d.Kind(n, yaml.SequenceNode, what, "a name or a list of names") {
		return nil
	}
	out := d.Texts(n, what)
	for i, v := range out {
		if strings.TrimSpace(v) == "" {
			d.Errorf(n.Content[i], "%s[%d]: empty", what, i)
		}
	}
	return out
}
