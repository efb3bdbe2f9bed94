package scenarios

import (
	"github.com/compact-eval/compact-eval/internal/yamlnode"
	"github.com/compact-eval/compact-eval/result"
	"gopkg.in/yaml.v3"
)

// stateInvariant returns the invariant of one of the typed-state types
// (approval, goal, next_step, handoff), its fields, and a function that
// sets its base once the mapping is read. seq, pat and text build the
// fields as invariant does for the other types.
func (d *decoder) stateInvariant(typ, what string,
	seq func(string, *int) yamlnode.Field,
	pat func(string, bool, *[]string) yamlnode.Field,
	text func(string, *string) yamlnode.Field,
) (Invariant, []yamlnode.Field, func(InvariantBase)) {
	optional := func(name string, dst *string) yamlnode.Field {
		f := text(name, dst)
		f.Required = false
		return f
	}
	names := func(name string, dst *[]string) yamlnode.Field {
		return yamlnode.Field{Name: name, Set: func(v *yaml.Node) { *dst = d.names(v, what+"."+name) }}
	}
	switch typ {
	case result.TypeApproval:
		c := &Approval{}
		return c, []yamlnode.Field{seq("source_seq", &c.SourceSeq), text("approver", &c.Approver), pat("match", true, &c.Match),
				names("scope", &c.Scope), optional("resource", &c.Resource), optional("expires", &c.Expires),
				{Name: "invalidated_by", Set: func(v *yaml.Node) { c.InvalidatedBy = d.Int(v, what+".invalidated_by") }}},
			func(b InvariantBase) { c.InvariantBase = b }
	case result.TypeGoal:
		c := &Goal{}
		return c, []yamlnode.Field{seq("source_seq", &c.SourceSeq), pat("match", true, &c.Match), pat("superseded", true, &c.Superseded)},
			func(b InvariantBase) { c.InvariantBase = b }
	case result.TypeNextStep:
		c := &NextStep{}
		return c, []yamlnode.Field{seq("source_seq", &c.SourceSeq), pat("match", true, &c.Match), pat("later", true, &c.Later), pat("gate", false, &c.Gate)},
			func(b InvariantBase) { c.InvariantBase = b }
	}
	c := &Handoff{}
	return c, []yamlnode.Field{seq("source_seq", &c.SourceSeq), text("session", &c.Session), pat("reason", true, &c.Reason),
			names("artifacts", &c.Artifacts), names("operations", &c.Operations)},
		func(b InvariantBase) { c.InvariantBase = b }
}
