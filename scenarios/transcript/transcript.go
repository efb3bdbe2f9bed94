// Package transcript renders an agent context (rules, goal, summary, events)
// in one way for everyone: as chat messages for model-backed agents, and as
// text for the reference agent, for summarizer prompts and for token counts.
//
// The rendering is a valid chat transcript: every tool result comes right
// after the assistant message holding its call, a result whose call is not in
// the context is shown as plain text (never as an orphaned tool message), and
// a call with no result gets a synthetic tool message saying so, because a
// chat API refuses a call without a reply and the agent must see the
// operation as unresolved.
package transcript

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/scenarios"
)

// Message roles.
const (
	System    = "system"
	User      = "user"
	Assistant = "assistant"
	Tool      = "tool"
)

// NoResult is the content of the synthetic reply to a call with no result.
const NoResult = "[no result recorded: the outcome of this operation is unknown]"

// Call is a tool call inside an assistant message.
type Call struct {
	ID        string
	Name      string
	Arguments string // JSON object
	Seq       int
}

// Message is one chat message.
type Message struct {
	Role      string
	Content   string
	Calls     []Call // assistant messages only
	CallID    string // tool messages only
	Seqs      []int  // the events this message renders
	Synthetic bool   // a NoResult reply made up by the renderer
}

// Context is what to render.
type Context struct {
	Rules string
	Goal  string
	// Summary is the active summary document (JSON), nil if none.
	Summary json.RawMessage
	Events  []scenarios.Event
}

// Messages renders c as chat messages: one system message with rules, goal and
// summary, then the events.
func Messages(c Context) []Message {
	msgs := []Message{{Role: System, Content: Header(c)}}
	return append(msgs, EventMessages(c.Events)...)
}

// Header is the text of the system message: rules, goal and the summary.
func Header(c Context) string {
	var b strings.Builder
	if c.Rules != "" {
		b.WriteString("Rules: ")
		b.WriteString(c.Rules)
		b.WriteString("\n")
	}
	if c.Goal != "" {
		b.WriteString("Goal: ")
		b.WriteString(c.Goal)
		b.WriteString("\n")
	}
	if len(c.Summary) > 0 && string(c.Summary) != "null" {
		b.WriteString("Summary of earlier events:\n")
		b.Write(c.Summary)
		b.WriteString("\n")
	}
	return b.String()
}

// EventMessages renders events as chat messages. Consecutive assistant tool
// calls are grouped into one assistant message, and their results follow it
// in call order, wherever they appear in the history.
func EventMessages(events []scenarios.Event) []Message {
	results := map[string]scenarios.Event{}
	calls := map[string]bool{}
	for _, e := range events {
		if e.ToolCall != nil {
			calls[e.ToolCall.ID] = true
		}
	}
	for _, e := range events {
		if e.ToolResult != nil && calls[e.ToolResult.CallID] {
			if _, dup := results[e.ToolResult.CallID]; !dup {
				results[e.ToolResult.CallID] = e
			}
		}
	}
	used := map[int]bool{} // seqs of results already placed
	var out []Message
	for i := 0; i < len(events); i++ {
		e := events[i]
		switch {
		case e.ToolCall != nil:
			m := Message{Role: Assistant, Content: e.Text}
			j := i
			for ; j < len(events) && events[j].ToolCall != nil && events[j].Role == scenarios.RoleAssistant; j++ {
				c := events[j]
				if j > i && c.Text != "" {
					break
				}
				m.Calls = append(m.Calls, Call{ID: c.ToolCall.ID, Name: c.ToolCall.Name, Arguments: Args(c.ToolCall.Args), Seq: c.Seq})
				m.Seqs = append(m.Seqs, c.Seq)
			}
			i = j - 1
			out = append(out, m)
			for _, c := range m.Calls {
				r, ok := results[c.ID]
				if !ok {
					out = append(out, Message{Role: Tool, CallID: c.ID, Content: NoResult, Synthetic: true})
					continue
				}
				used[r.Seq] = true
				out = append(out, Message{Role: Tool, CallID: c.ID, Content: ResultText(*r.ToolResult), Seqs: []int{r.Seq}})
			}
		case e.ToolResult != nil:
			if used[e.Seq] {
				continue
			}
			// A result whose call is not in this context: keep its words,
			// as text, so nothing is lost and no message is orphaned.
			out = append(out, Message{Role: User, Content: fmt.Sprintf("[tool result for %s, call not shown] %s", e.ToolResult.CallID, ResultText(*e.ToolResult)), Seqs: []int{e.Seq}})
		default:
			role := string(e.Role)
			if role == Tool {
				role = User
			}
			out = append(out, Message{Role: role, Content: e.Text, Seqs: []int{e.Seq}})
		}
	}
	return out
}

// ResultText is a tool result's text, prefixed with its status when not ok.
func ResultText(r scenarios.ToolResult) string {
	if r.Status != "" && r.Status != scenarios.StatusOK {
		return "[" + r.Status + "] " + r.Text
	}
	return r.Text
}

// Args renders tool arguments as a JSON object with sorted keys.
func Args(args map[string]any) string {
	if len(args) == 0 {
		return "{}"
	}
	b, err := json.Marshal(args)
	if err != nil {
		keys := make([]string, 0, len(args))
		for k := range args {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return fmt.Sprintf("%v", keys)
	}
	return string(b)
}

// Text renders c as plain text, one line per message, in the message order
// of Messages. This is what the reference agent reads and what token counts
// measure.
func Text(c Context) string {
	var b strings.Builder
	b.WriteString(Header(c))
	WriteEvents(&b, c.Events)
	return b.String()
}

// EventsText renders only events.
func EventsText(events []scenarios.Event) string {
	var b strings.Builder
	WriteEvents(&b, events)
	return b.String()
}

// WriteEvents writes the text form of events to b.
func WriteEvents(b *strings.Builder, events []scenarios.Event) {
	msgs := EventMessages(events)
	n := 0
	for i := range msgs {
		n += messageLen(&msgs[i])
	}
	b.Grow(n)
	for i := range msgs {
		writeMessage(b, &msgs[i])
	}
}

// writeMessage writes m's text form: one line per message, and one per
// tool call of an assistant message, each opened by [#seq role].
func writeMessage(b *strings.Builder, m *Message) {
	var num [20]byte
	open := func() {
		b.WriteByte('[')
		if len(m.Seqs) > 0 {
			b.WriteByte('#')
			b.Write(strconv.AppendInt(num[:0], int64(m.Seqs[0]), 10))
			b.WriteByte(' ')
		}
	}
	switch {
	case len(m.Calls) > 0:
		if m.Content != "" {
			open()
			b.WriteString("assistant] ")
			b.WriteString(m.Content)
			b.WriteByte('\n')
		}
		for _, c := range m.Calls {
			b.WriteString("[#")
			b.Write(strconv.AppendInt(num[:0], int64(c.Seq), 10))
			b.WriteString(" assistant call ")
			b.WriteString(c.ID)
			b.WriteString("] ")
			b.WriteString(c.Name)
			b.WriteByte('(')
			b.WriteString(c.Arguments)
			b.WriteString(")\n")
		}
	case m.Role == Tool:
		open()
		b.WriteString("tool ")
		b.WriteString(m.CallID)
		b.WriteString("] ")
		b.WriteString(m.Content)
		b.WriteByte('\n')
	default:
		open()
		b.WriteString(m.Role)
		b.WriteString("] ")
		b.WriteString(m.Content)
		b.WriteByte('\n')
	}
}

// messageLen bounds the length of m's text form from above (a seq takes at
// most 20 digits), so that a buffer grown by it is never grown again.
func messageLen(m *Message) int {
	n := len(m.Content) + len(m.Role) + len(m.CallID) + 48
	for _, c := range m.Calls {
		n += len(c.ID) + len(c.Name) + len(c.Arguments) + 48
	}
	return n
}

// MessageText is the text form of one message, exactly as Text writes it.
// Callers that count tokens per message (the runner does, once per event)
// use it so that their sums match Text.
func MessageText(m Message) string {
	var b strings.Builder
	b.Grow(messageLen(&m))
	writeMessage(&b, &m)
	return b.String()
}
