package summarizers_test

import (
	"context"
	"testing"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/internal/tokens"
)

// TestResponsesTokensCountKeptItems: the size of an opaque compaction is
// the provider's output tokens plus the readable items it kept, which the
// next request pays for too (docs/providers.md). Counting the compaction
// item alone would make an output that keeps every user message look as
// small as one that keeps none, and pass the compression check unearned.
func TestResponsesTokensCountKeptItems(t *testing.T) {
	s, _ := newProvider(t, providers.KindResponses)
	resp, err := s.Summarize(context.Background(), providerRequest())
	if err != nil {
		t.Fatal(err)
	}
	pc := summary.ProviderCompactionOf(resp.Summary)
	kept := tokens.Default().Count("Keep the DB read-only.") // the one user message the fake keeps
	if want := resp.Call.Usage.CompletionTokens + kept; pc == nil || pc.Tokens != want {
		t.Errorf("provider tokens %+v, want output %d + kept %d = %d", pc, resp.Call.Usage.CompletionTokens, kept, want)
	}
}
