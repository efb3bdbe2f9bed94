package agents

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/providers"
)

// recorded is a summarizer: as an agent it is refused, saying so.
func TestRecordedIsNoAgent(t *testing.T) {
	spec, err := providers.ParseSpec("recorded")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(spec, providers.Options{}); err == nil || !strings.Contains(err.Error(), "recorded is a summarizer") {
		t.Errorf("New(recorded) = %v, want a refusal that says it is a summarizer", err)
	}
}
