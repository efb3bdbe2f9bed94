package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/scenarios"
)

func call(seq int, id string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: id, Name: "run", Args: map[string]any{"n": seq}}}
}

func result(seq int, id, status, text string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: id, Status: status, Text: text}}
}

func say(seq int, role scenarios.Role, text string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: role, Text: text}
}

// shape is a compact picture of a message list: role, call ids, call id of a
// tool message, synthetic marker.
func shape(msgs []Message) []string {
	var out []string
	for _, m := range msgs {
		s := m.Role
		for _, c := range m.Calls {
			s += " call:" + c.ID
		}
		if m.CallID != "" {
			s += " for:" + m.CallID
		}
		if m.Synthetic {
			s += " synthetic"
		}
		out = append(out, s)
	}
	return out
}

func TestEventMessages(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events []scenarios.Event
		want   []string
		// contents, when set, are the messages' texts.
		contents []string
	}{
		{
			name:   "call then result",
			events: []scenarios.Event{say(1, "user", "go"), call(2, "c1"), result(3, "c1", "ok", "done")},
			want:   []string{"user", "assistant call:c1", "tool for:c1"},
		},
		{
			name:   "parallel calls are one assistant message, results in call order",
			events: []scenarios.Event{call(1, "a"), call(2, "b"), result(3, "b", "ok", "B"), result(4, "a", "ok", "A")},
			want:   []string{"assistant call:a call:b", "tool for:a", "tool for:b"},
		},
		{
			name:   "a late result moves up to its call",
			events: []scenarios.Event{call(1, "a"), say(2, "user", "still there?"), result(3, "a", "ok", "A")},
			want:   []string{"assistant call:a", "tool for:a", "user"},
		},
		{
			name:   "a call with no result gets a synthetic reply",
			events: []scenarios.Event{call(1, "a"), say(2, "user", "next")},
			want:   []string{"assistant call:a", "tool for:a synthetic", "user"},
		},
		{
			name:   "a result whose call is not in the context is text, not an orphan",
			events: []scenarios.Event{result(5, "gone", "ok", "late"), say(6, "user", "ok")},
			want:   []string{"user", "user"},
		},
		{
			name:     "a second result for one call is kept as text",
			events:   []scenarios.Event{call(1, "a"), result(2, "a", "ok", "1"), result(3, "a", "ok", "2")},
			want:     []string{"assistant call:a", "tool for:a", "user"},
			contents: []string{"", "1", "[tool result for a, call not shown] 2"},
		},
		{
			name:     "a call that carries text starts a new assistant message",
			events:   []scenarios.Event{call(1, "a"), withText(call(2, "b"), "Now b."), result(3, "a", "ok", "A"), result(4, "b", "", "B")},
			want:     []string{"assistant call:a", "tool for:a", "assistant call:b", "tool for:b"},
			contents: []string{"", "A", "Now b.", "B"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs := EventMessages(tc.events)
			if diff := cmp.Diff(tc.want, shape(msgs)); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if tc.contents != nil {
				var got []string
				for _, m := range msgs {
					got = append(got, m.Content)
				}
				if diff := cmp.Diff(tc.contents, got); diff != "" {
					t.Errorf("contents (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func withText(e scenarios.Event, text string) scenarios.Event {
	e.Text = text
	return e
}

func TestTextShowsStatusAndUnresolved(t *testing.T) {
	got := Text(Context{
		Rules: "be careful", Goal: "find it", Summary: []byte(`{"schema_version":1,"covers_through":2}`),
		Events: []scenarios.Event{call(3, "m1"), result(4, "m1", "timeout", "no answer"), call(5, "m2")},
	})
	for _, want := range []string{
		"Rules: be careful\n", "Goal: find it\n", `{"schema_version":1,"covers_through":2}`,
		"[#3 assistant call m1] run({\"n\":3})\n",
		"[#4 tool m1] [timeout] no answer\n",
		"[tool m2] " + NoResult + "\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("text lacks %q:\n%s", want, got)
		}
	}
}

func TestNoSummaryNoHeaderLine(t *testing.T) {
	for _, s := range [][]byte{nil, []byte("null")} {
		if h := Header(Context{Goal: "g", Summary: s}); strings.Contains(h, "Summary") {
			t.Errorf("Header with summary %q mentions a summary:\n%s", s, h)
		}
	}
}

// fmtMessage is the text form of a message as the formatted-print version
// of writeMessage wrote it: the reference the direct writes must match byte
// for byte.
func fmtMessage(m Message) string {
	var b strings.Builder
	seq := ""
	if len(m.Seqs) > 0 {
		seq = fmt.Sprintf("#%d ", m.Seqs[0])
	}
	switch {
	case len(m.Calls) > 0:
		if m.Content != "" {
			fmt.Fprintf(&b, "[%sassistant] %s\n", seq, m.Content)
		}
		for _, c := range m.Calls {
			fmt.Fprintf(&b, "[#%d assistant call %s] %s(%s)\n", c.Seq, c.ID, c.Name, c.Arguments)
		}
	case m.Role == Tool:
		fmt.Fprintf(&b, "[%stool %s] %s\n", seq, m.CallID, m.Content)
	default:
		fmt.Fprintf(&b, "[%s%s] %s\n", seq, m.Role, m.Content)
	}
	return b.String()
}

// Every kind of message renders exactly as the formatted-print version did,
// and messageLen is never short (a grown buffer is not grown again).
func TestMessageTextMatchesFormatted(t *testing.T) {
	msgs := []Message{
		{Role: User, Content: "hello", Seqs: []int{1}},
		{Role: User, Content: "no seq"},
		{Role: Assistant, Content: "", Seqs: []int{7}},
		{Role: Assistant, Content: "thinking % and %d", Seqs: []int{12345678901}},
		{Role: Assistant, Content: "calling", Seqs: []int{3, 4}, Calls: []Call{
			{ID: "call_a", Name: "kubectl", Arguments: `{"cmd":"get pods"}`, Seq: 3},
			{ID: "c%b", Name: "read", Arguments: "{}", Seq: 4}}},
		{Role: Assistant, Seqs: []int{9}, Calls: []Call{{ID: "x", Name: "n", Arguments: "{}", Seq: 9}}},
		{Role: Tool, CallID: "call_a", Content: "[error] boom\nline two", Seqs: []int{5}},
		{Role: Tool, CallID: "call_b", Content: NoResult, Synthetic: true},
		{Role: "system", Content: "ünïcode ✓ \x00 tail", Seqs: []int{0}},
		{Role: User, Content: "", Seqs: []int{-2}},
	}
	for _, m := range msgs {
		got, want := MessageText(m), fmtMessage(m)
		if got != want {
			t.Errorf("MessageText(%+v)\n got %q\nwant %q", m, got, want)
		}
		if n := messageLen(&m); n < len(got) {
			t.Errorf("messageLen %d < %d for %q", n, len(got), got)
		}
	}
	var b strings.Builder
	WriteEvents(&b, nil)
	if b.Len() != 0 {
		t.Errorf("no events wrote %q", b.String())
	}
}
