package summarizers_test

import (
	"testing"

	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
	"github.com/compact-eval/compact-eval/summarizers"
)

// EventsText renders the events unless the caller handed the rendering
// over, and then asks for it only when a summarizer needs it.
func TestEventsText(t *testing.T) {
	req := summarizers.NewRequest()
	req.Events = []scenarios.Event{{Seq: 1, Role: "user", Text: "deploy to staging only"}}
	want := transcript.EventsText(req.Events)
	if got := req.EventsText(); got != want {
		t.Fatalf("EventsText() = %q, want %q", got, want)
	}
	asked := 0
	req.SetEventsText(func() string { asked++; return want })
	if asked != 0 {
		t.Fatal("the text was rendered before anyone asked")
	}
	if got := req.EventsText(); got != want || asked != 1 {
		t.Fatalf("EventsText() = %q after %d calls", got, asked)
	}
}
