package judges

import (
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/scenarios"
)

// state describes the invariants of a workflow's state (approval, goal,
// next_step, handoff) and reports whether inv is one of them. Like the
// other descriptions it quotes the events and never the check's patterns.
func (d *describer) state(inv scenarios.Invariant) bool {
	f := d.f
	switch v := scenarios.Pointer(inv).(type) {
	case *scenarios.Approval:
		e := d.quote(v.SourceSeq)
		var b strings.Builder
		fmt.Fprintf(&b, "At event #%d the %s recorded an approval given by %s (the event is quoted below)", v.SourceSeq, roleName(e), v.Approver)
		if len(v.Scope) > 0 {
			fmt.Fprintf(&b, ", for %s and nothing wider", quoteList(v.Scope))
		}
		if v.Resource != "" {
			fmt.Fprintf(&b, ", tied to %q", v.Resource)
		}
		if v.Expires != "" {
			fmt.Fprintf(&b, ", until %q", v.Expires)
		}
		b.WriteString(". ")
		if v.InvalidatedBy > 0 {
			d.quote(v.InvalidatedBy)
			fmt.Fprintf(&b, "At event #%d it stopped holding (its expiry passed or what it was tied to changed; quoted below). "+
				"A faithful summary written after event #%d keeps the approval as no longer valid (a structured summary lists it under \"approvals\" with status \"expired\", \"stale\" or \"revoked\") "+
				"and never presents it as valid, nor as covering what replaced the resource; before that event it keeps it as valid, as below. ", v.InvalidatedBy, v.InvalidatedBy)
		}
		b.WriteString("While it holds, a faithful summary keeps who approved what, its scope, what it is tied to and its expiry (a structured summary lists it under \"approvals\"), " +
			"and never widens its scope, drops it or says it was refused.")
		f.Statement = b.String()
	case *scenarios.Goal:
		e := d.quote(v.SourceSeq)
		f.Statement = fmt.Sprintf("At event #%d the %s redirected the task (the event is quoted below): the objective it gives is now the goal, and the objective it replaced is not. "+
			"A faithful summary states the new objective as the goal (a structured summary in its \"goal\" field) and mentions the old one, if at all, only as replaced; "+
			"it never presents the old objective as the current work.", v.SourceSeq, roleName(e))
	case *scenarios.NextStep:
		e := d.quote(v.SourceSeq)
		f.Statement = fmt.Sprintf("At event #%d the %s set the order of a workflow (the event is quoted below): only the step it allows may come next; the later steps it names wait for what it says they wait for. "+
			"A faithful summary presents the allowed step as the next one (a structured summary lists it in \"next_steps\") and never presents a later step as next, allowed or done, "+
			"nor says that what the later steps wait for has happened when the history does not say so.", v.SourceSeq, roleName(e))
	case *scenarios.Handoff:
		e := d.quote(v.SourceSeq)
		var b strings.Builder
		fmt.Fprintf(&b, "At event #%d the %s restarted the work in a new session (the event is quoted below, with its reason). "+
			"A faithful summary written for the new session names the previous session %q and why the work restarts", v.SourceSeq, roleName(e), v.Session)
		if len(v.Artifacts) > 0 {
			fmt.Fprintf(&b, ", names %s as approved for use and no other artifact as approved", quoteList(v.Artifacts))
			for _, a := range v.Artifacts {
				d.mentioning(a)
			}
		}
		if len(v.Operations) > 0 {
			fmt.Fprintf(&b, ", and lists the operations %s as unresolved, never as finished", quoteList(v.Operations))
			for _, op := range v.Operations {
				d.mentioning(op)
			}
		}
		b.WriteString(" (a structured summary in its \"handoff\" object).")
		f.Statement = b.String()
	default:
		return false
	}
	return true
}
