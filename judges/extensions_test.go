package judges_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/judges"
)

// TestJudgeSeesNoExtensions: the judge (of run --judge and of selftest
// --judge) reads the summary as the agent does, without `extensions` (never shown to the agent, where a provider's
// raw block or ciphertext lives); the rest of the document is intact.
func TestJudgeSeesNoExtensions(t *testing.T) {
	in := json.RawMessage(`{"schema_version":1,"covers_through":3,"text":"read-only","extensions":{"provider_compaction":{"signature":"SIG-abc"}}}`)
	got := string(judges.WithoutExtensions(in))
	if strings.Contains(got, "extensions") || strings.Contains(got, "SIG-abc") {
		t.Errorf("the judge would see extensions: %s", got)
	}
	if !strings.Contains(got, `"text":"read-only"`) || !strings.Contains(got, `"covers_through":3`) {
		t.Errorf("the rest of the document is lost: %s", got)
	}
	plain := json.RawMessage(`{"text":"x"}`)
	if string(judges.WithoutExtensions(plain)) != string(plain) {
		t.Errorf("a document without extensions changed")
	}
	if judges.WithoutExtensions(nil) != nil {
		t.Errorf("nil in, non-nil out")
	}
}
