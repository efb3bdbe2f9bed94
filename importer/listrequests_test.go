package importer_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/internal/testkit/suggestions"
	"github.com/compact-eval/compact-eval/scenarios"
)

// acceptedOpenAI imports an OpenAI messages session with every event
// compacted and returns the scenario with every suggestion accepted, and
// the import's output.
func acceptedOpenAI(t *testing.T, session string) (*scenarios.Scenario, string) {
	t.Helper()
	var out bytes.Buffer
	if _, err := importer.Import(strings.NewReader(session), &out, importer.Options{Format: importer.FormatOpenAI, Cut: importer.Cut{Fraction: 1}}); err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.LoadBytes("session.yaml", suggestions.Accept(out.Bytes()))
	if err != nil {
		t.Fatalf("load with every suggestion: %v\n%s", err, out.String())
	}
	if errs := scenarios.LintScenario(s); len(errs) > 0 {
		t.Fatalf("an accepted suggestion does not lint: %v\n%s", errs, out.String())
	}
	return s, out.String()
}

// nextSteps are a scenario's next_step invariants' first patterns.
func nextSteps(s *scenarios.Scenario) []*scenarios.NextStep {
	var out []*scenarios.NextStep
	for _, inv := range s.Invariants {
		if n, ok := inv.(*scenarios.NextStep); ok {
			out = append(out, n)
		}
	}
	return out
}

func openAICall(id, name, args string) string {
	return `{"role": "assistant", "content": null, "tool_calls": [{"id": "` + id + `", "type": "function", "function": {"name": "` + name + `", "arguments": ` + jsonString(args) + `}}]}`
}

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

// Several requests in one sentence: each that no call carried out is a
// next step of its own, and each is kept (selftest's summary quotes the
// sentence, and the reader reads only a list's first step: the later
// ones are matched from the list's first verb too).
func TestListedRequestsEachANextStep(t *testing.T) {
	session := `[
 {"role": "user", "content": "Hi, this is order W8812. Please update the shipping address to 14 Elm Road, add gift wrapping, and remove the spare charger."},
 ` + openAICall("c1", "modify_order_address", `{"order_id": "W8812", "address": "14 Elm Road"}`) + `,
 {"role": "tool", "tool_call_id": "c1", "content": "{\"order_id\": \"W8812\", \"address\": \"14 Elm Road\"}"},
 {"role": "assistant", "content": "The shipping address has been updated, and gift wrapping has been added to W8812."}
]`
	s, out := acceptedOpenAI(t, session)
	steps := nextSteps(s)
	if len(steps) != 2 {
		t.Fatalf("%d next steps, want 2 (gift wrapping, reported added and never added; the charger, never removed):\n%s", len(steps), out)
	}
	for _, n := range steps {
		if n.SourceSeq != 1 {
			t.Errorf("next step %s from seq %d, want 1 (the request)", n.ID, n.SourceSeq)
		}
	}
	for _, want := range []string{"gift wrapping", "spare charger"} {
		found := false
		for _, n := range steps {
			found = found || strings.Contains(strings.Join(n.Match, " "), strings.Fields(want)[1])
		}
		if !found {
			t.Errorf("no next step for %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "left out") {
		t.Errorf("a listed request was left out: no summary could pass it:\n%s", out)
	}
	// The twin: every request of the list carried out, none suggested.
	done := `[
 {"role": "user", "content": "Hi, this is order W8812. Please update the shipping address to 14 Elm Road, add gift wrapping, and remove the spare charger."},
 ` + openAICall("c1", "modify_order_address", `{"order_id": "W8812", "address": "14 Elm Road"}`) + `,
 {"role": "tool", "tool_call_id": "c1", "content": "{\"order_id\": \"W8812\"}"},
 ` + openAICall("c2", "add_gift_wrapping", `{"order_id": "W8812"}`) + `,
 {"role": "tool", "tool_call_id": "c2", "content": "{\"order_id\": \"W8812\"}"},
 ` + openAICall("c3", "remove_item", `{"order_id": "W8812", "item": "spare charger"}`) + `,
 {"role": "tool", "tool_call_id": "c3", "content": "{\"order_id\": \"W8812\"}"},
 {"role": "assistant", "content": "The address is updated, gift wrapping has been added and the charger removed."}
]`
	s, out = acceptedOpenAI(t, done)
	if n := nextSteps(s); len(n) != 0 {
		t.Errorf("%d next steps for a list whose every request a call carried out, want none:\n%s", len(n), out)
	}
}
