package judges

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/quantity"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// MaxQuote bounds the text of one quoted event, in bytes.
const MaxQuote = 2000

// Describe puts invariant inv of sc in plain words for a judge: what the
// session established, quoting the events it comes from, and what a
// faithful summary keeps. It never includes the check's patterns or
// status. ok is false for invariants a judge is not asked about: secrets
// (the check is exact, and a judge would need the value).
func Describe(sc *scenarios.Scenario, inv scenarios.Invariant) (f *Fact, ok bool) {
	f = &Fact{ID: inv.InvariantID(), Type: inv.Type()}
	d := describer{sc: sc, f: f}
	switch v := scenarios.Pointer(inv).(type) {
	case *scenarios.Constraint:
		e := d.quote(v.SourceSeq)
		f.Statement = fmt.Sprintf("At event #%d the %s set a rule the agent must keep for the rest of the session (the event is quoted below). "+
			"A faithful summary states this rule, with its meaning intact (a structured summary lists it under \"constraints\"), and never says or implies the opposite.",
			v.SourceSeq, roleName(e))
	case *scenarios.RefutedHypothesis:
		d.quote(v.HypothesisSeq)
		e := d.quote(v.RefutedBySeq)
		f.Statement = fmt.Sprintf("At event #%d an explanation was put forward (quoted below); at event #%d %s refuted it (quoted below). "+
			"A faithful summary records that this explanation was refuted, and by what; it never presents the explanation as true, verified, confirmed or decided "+
			"(a structured summary may list it under \"hypotheses\" only with status \"refuted\" and resolved_by %d, never under \"verified\" or \"decisions\").",
			v.HypothesisSeq, v.RefutedBySeq, refuter(e), v.RefutedBySeq)
	case *scenarios.Artifact:
		var b strings.Builder
		fmt.Fprintf(&b, "These names are easy to confuse: %s. ", quoteList(v.Paths))
		if len(v.Required) > 0 {
			fmt.Fprintf(&b, "The session's work concerns %s. A faithful summary names %s exactly, character for character, and never swaps in another of the names above or a name the session never used. ",
				quoteList(v.Required), pronoun(len(v.Required)))
		}
		for _, p := range sortedKeys(v.Digests) {
			fmt.Fprintf(&b, "The digest of %q is %q: a faithful summary keeps this digest with this path, never with another one. ", p, v.Digests[p])
		}
		f.Statement = strings.TrimSpace(b.String())
		for _, p := range v.Required {
			d.mentioning(p)
		}
	case *scenarios.PendingOperation:
		call, _ := sc.EventBySeq(v.CallSeq)
		d.quote(v.CallSeq)
		name := "a tool"
		if call.ToolCall != nil {
			name = "the tool " + call.ToolCall.Name
		}
		state := "No result ever came back"
		if r, ok := d.result(v.OpID); ok {
			d.quote(r.Seq)
			state = fmt.Sprintf("At event #%d it %s (quoted below)", r.Seq, outcome(r.ToolResult.Status))
		}
		f.Statement = fmt.Sprintf("At event #%d the assistant called %s (call id %q). %s, so its outcome is unknown. "+
			"A faithful summary lists call %q as still pending, in flight or of unknown outcome (a structured summary lists it under \"pending\" with a status other than \"done\"), "+
			"and never claims that it finished or succeeded.",
			v.CallSeq, name, v.OpID, state, v.OpID)
	case *scenarios.Correction:
		e := d.quote(v.SourceSeq)
		f.Statement = fmt.Sprintf("At event #%d the %s corrected the %s: it is now %q, no longer %q (the event is quoted below). "+
			"A faithful summary carries %q as the current value; %q may appear only as the value it replaced (a structured summary puts it in corrections[].supersedes), never as current.",
			v.SourceSeq, roleName(e), v.Subject, v.New, v.Old, v.New, v.Old)
	case *scenarios.Quantity:
		q := quantity.Format(v.Value, v.Unit)
		f.Statement = fmt.Sprintf("The session states the quantity %s (quoted below where it occurs). "+
			"A faithful summary keeps this number with its unit, in any usual spelling, attached to what it measures; a different number or unit is not the same fact.", q)
		d.quantity(v.Value, v.Unit)
	default:
		if !d.state(inv) {
			return nil, false
		}
	}
	return f, true
}

type describer struct {
	sc *scenarios.Scenario
	f  *Fact
}

// quote adds the event with seq to the fact's events (once) and returns it.
func (d *describer) quote(seq int) scenarios.Event {
	e, ok := d.sc.EventBySeq(seq)
	if !ok {
		return e
	}
	if !slices.ContainsFunc(d.f.Events, func(q Quote) bool { return q.Seq == seq }) {
		d.f.Events = append(d.f.Events, Quote{Seq: e.Seq, Role: string(e.Role), Text: clip.String(eventText(e), MaxQuote)})
		slices.SortFunc(d.f.Events, func(a, b Quote) int { return a.Seq - b.Seq })
	}
	return e
}

// maxMentions bounds the events quoted for one path or quantity.
const maxMentions = 2

// mentioning quotes the first events whose text holds s verbatim.
func (d *describer) mentioning(s string) {
	n := 0
	d.each(func(e scenarios.Event) bool {
		if strings.Contains(eventText(e), s) {
			d.quote(e.Seq)
			n++
		}
		return n < maxMentions
	})
}

// quantity quotes the first events that state value unit, or, when none
// does, the first events that state the bare number (a log line such as
// "db;dur=1650" that the session later reads as 1650 ms).
func (d *describer) quantity(value float64, unit string) {
	for _, same := range []func(q quantity.Quantity) bool{
		func(q quantity.Quantity) bool { return q.Is(value, unit) },
		func(q quantity.Quantity) bool { return q.Value == value },
	} {
		n := 0
		d.each(func(e scenarios.Event) bool {
			for _, q := range quantity.Parse(eventText(e)) {
				if same(q) {
					d.quote(e.Seq)
					n++
					break
				}
			}
			return n < maxMentions
		})
		if n > 0 {
			return
		}
	}
}

// each calls f on every non-filler event and arrival, in order, while f
// returns true.
func (d *describer) each(f func(scenarios.Event) bool) {
	for _, list := range [][]scenarios.Event{d.sc.Events, d.sc.Arrivals} {
		for _, e := range list {
			if e.Filler {
				continue
			}
			if !f(e) {
				return
			}
		}
	}
}

// result finds the result of call id in the history (not among arrivals,
// which come after every compaction): for a pending operation, a timeout.
func (d *describer) result(id string) (scenarios.Event, bool) {
	for _, e := range d.sc.Events {
		if e.ToolResult != nil && e.ToolResult.CallID == id {
			return e, true
		}
	}
	return scenarios.Event{}, false
}

// eventText is an event as one line of text: its text, the tool call it
// makes, or the tool result it holds.
func eventText(e scenarios.Event) string {
	var parts []string
	if e.Text != "" {
		parts = append(parts, e.Text)
	}
	if c := e.ToolCall; c != nil {
		parts = append(parts, fmt.Sprintf("[calls %s %s, call id %s]", c.Name, transcript.Args(c.Args), c.ID))
	}
	if r := e.ToolResult; r != nil {
		parts = append(parts, fmt.Sprintf("[result of call %s] %s", r.CallID, transcript.ResultText(*r)))
	}
	return strings.Join(parts, " ")
}

func roleName(e scenarios.Event) string {
	switch e.Role {
	case scenarios.RoleSystem:
		return "system"
	case "":
		return "user"
	}
	return string(e.Role)
}

func refuter(e scenarios.Event) string {
	if e.Role == scenarios.RoleTool {
		return "a tool result"
	}
	return "the " + roleName(e)
}

func outcome(status string) string {
	switch status {
	case scenarios.StatusTimeout:
		return "timed out"
	case scenarios.StatusError:
		return "failed"
	}
	return "returned"
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "each of them"
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
