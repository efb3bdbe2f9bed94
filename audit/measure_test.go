package audit

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/scenarios"
)

func ev(seq int, role scenarios.Role, text string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: role, Text: text}
}

func call(seq int, id, name string, args map[string]any) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: id, Name: name, Args: args}}
}

func res(seq int, id, status, text string) scenarios.Event {
	return scenarios.Event{Seq: seq, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: id, Status: status, Text: text}}
}

// Each rule of Repeat, with the call that meets it and the one that does
// not; the boundary is after seq 4, the next compaction after seq 20.
func TestRepeatedCalls(t *testing.T) {
	a := map[string]any{"path": "a.txt", "lines": 10}
	aReordered := map[string]any{"lines": 10, "path": "a.txt"}
	for _, tc := range []struct {
		name  string
		after []scenarios.Event
		want  []int // seqs counted
	}{
		{"same tool, arguments and result", []scenarios.Event{call(5, "c2", "read", aReordered), res(6, "c2", "ok", "hello\nworld")}, []int{5}},
		{"the result differs", []scenarios.Event{call(5, "c2", "read", a), res(6, "c2", "ok", "hello\nthere")}, nil},
		{"other arguments", []scenarios.Event{call(5, "c2", "read", map[string]any{"path": "b.txt", "lines": 10}), res(6, "c2", "ok", "hello\nworld")}, nil},
		{"another tool", []scenarios.Event{call(5, "c2", "cat", a), res(6, "c2", "ok", "hello\nworld")}, nil},
		{"no result yet", []scenarios.Event{call(5, "c2", "read", a)}, nil},
		{"twice after: counted once", []scenarios.Event{call(5, "c2", "read", a), res(6, "c2", "ok", "hello world"), call(7, "c3", "read", a), res(8, "c3", "ok", "hello\nworld")}, []int{5}},
		{"after the next compaction", []scenarios.Event{call(21, "c2", "read", a), res(22, "c2", "ok", "hello\nworld")}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := &scenarios.Scenario{Events: append([]scenarios.Event{ev(1, scenarios.RoleUser, "go"), call(2, "c1", "read", a), res(3, "c1", "ok", "hello\nworld"), ev(4, scenarios.RoleAssistant, "ok")}, tc.after...)}
			var got []int
			for _, r := range repeatedCalls(sc, 4, 20) {
				got = append(got, r.Seq)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	// A call that failed before the boundary is retried, not repeated.
	sc := &scenarios.Scenario{Events: []scenarios.Event{call(1, "c1", "run", a), res(2, "c1", "error", "boom"), call(3, "c2", "run", a), res(4, "c2", "error", "boom")}}
	if got := repeatedCalls(sc, 2, 0); len(got) != 0 {
		t.Errorf("a failed call repeated: %+v", got)
	}
}

// Each rule of Reopen; the boundary is after seq 10, the next compaction
// after seq 30.
func TestReopenedQuestions(t *testing.T) {
	asked := "Should the export use a semicolon or a comma as the delimiter?"
	for _, tc := range []struct {
		name   string
		before []scenarios.Event
		after  []scenarios.Event
		want   []int
	}{
		{"asked again in other words", []scenarios.Event{ev(2, scenarios.RoleAssistant, asked), ev(3, scenarios.RoleUser, "A comma.")},
			[]scenarios.Event{ev(12, scenarios.RoleAssistant, "Which delimiter should the export use: comma or semicolon?")}, []int{12}},
		{"never answered: the agent went on", []scenarios.Event{ev(2, scenarios.RoleAssistant, asked), call(3, "c1", "read", nil), res(4, "c1", "ok", "x")},
			[]scenarios.Event{ev(12, scenarios.RoleAssistant, asked)}, nil},
		{"answered by an interruption", []scenarios.Event{ev(2, scenarios.RoleAssistant, asked), ev(3, scenarios.RoleUser, "[Request interrupted by user]")},
			[]scenarios.Event{ev(12, scenarios.RoleAssistant, asked)}, nil},
		{"another question sharing two words", []scenarios.Event{ev(2, scenarios.RoleAssistant, asked), ev(3, scenarios.RoleUser, "A comma.")},
			[]scenarios.Event{ev(12, scenarios.RoleAssistant, "Should the export include the delimiter row of the report header too?")}, nil},
		{"a statement, not a question", []scenarios.Event{ev(2, scenarios.RoleAssistant, asked), ev(3, scenarios.RoleUser, "A comma.")},
			[]scenarios.Event{ev(12, scenarios.RoleAssistant, "The export uses a comma as the delimiter, not a semicolon.")}, nil},
		{"after the next compaction", []scenarios.Event{ev(2, scenarios.RoleAssistant, asked), ev(3, scenarios.RoleUser, "A comma.")},
			[]scenarios.Event{ev(31, scenarios.RoleAssistant, asked)}, nil},
		{"twice after: counted once", []scenarios.Event{ev(2, scenarios.RoleAssistant, asked), ev(3, scenarios.RoleUser, "A comma.")},
			[]scenarios.Event{ev(12, scenarios.RoleAssistant, asked), ev(13, scenarios.RoleUser, "Comma!"), ev(14, scenarios.RoleAssistant, asked)}, []int{12}},
		{"in Spanish", []scenarios.Event{ev(2, scenarios.RoleAssistant, "¿Uso punto y coma o coma como separador del CSV?"), ev(3, scenarios.RoleUser, "Coma.")},
			[]scenarios.Event{ev(12, scenarios.RoleAssistant, "¿El separador del CSV es coma o punto y coma?")}, []int{12}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := append([]scenarios.Event{ev(1, scenarios.RoleUser, "Export the invoices.")}, tc.before...)
			evs = append(append(evs, ev(10, scenarios.RoleAssistant, "Working.")), tc.after...)
			var got []int
			for _, r := range reopenedQuestions(&scenarios.Scenario{Events: evs}, 10, 30) {
				got = append(got, r.Seq)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// The windows hold at most window calls, nearest the boundary, since the
// previous compaction and before the next.
func TestErrorWindows(t *testing.T) {
	var evs []scenarios.Event
	for i := 1; i <= 30; i++ {
		id := string(rune('a'+i%26)) + string(rune('a'+i/26))
		status := "ok"
		if i%3 == 0 {
			status = "error"
		}
		evs = append(evs, call(2*i, id, "run", nil), res(2*i+1, id, status, ""))
	}
	before, after := errorWindows(&scenarios.Scenario{Events: evs}, 10, 40, 52, 5)
	if before != (Window{Calls: 5, Errors: 1, From: 32, To: 40}) { // calls 16..20: 18 failed
		t.Errorf("before %+v", before)
	}
	if after != (Window{Calls: 5, Errors: 2, From: 42, To: 50}) { // calls 21..25: 21 and 24 failed
		t.Errorf("after %+v", after)
	}
}
