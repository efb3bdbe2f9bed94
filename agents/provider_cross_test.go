package agents_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/testkit/providerfake"
)

// TestProviderAgentReadsOtherProvidersSummaryAsText: an openai-responses:
// agent given an anthropic: summary cannot replay Anthropic's block, so it
// must show the summary's text in its instructions; if it took the other
// provider's compaction as its own, the compacted arm would see no summary
// at all and every probe would look like a compaction regression.
func TestProviderAgentReadsOtherProvidersSummaryAsText(t *testing.T) {
	fake, s, _ := setup(t, providers.KindAnthropic)
	o := providers.Options{OpenAI: providers.OpenAIOptions{BaseURL: fake.URL + "/v1", APIKey: canary, NoCache: true}}
	a, err := agents.New(providers.Spec{Kind: providers.KindResponses, Name: "m", Raw: "openai-responses:m"}, o)
	if err != nil {
		t.Fatal(err)
	}
	req := compacted(t, s)
	var doc struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(req.Context.FullSummary, &doc); err != nil || doc.Text == "" {
		t.Fatalf("anthropic summary %s has no text", req.Context.FullSummary)
	}
	var seen providerfake.Question
	fake.Answer = func(q providerfake.Question) string { seen = q; return q.Keys[0] }
	if _, err := a.Decide(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	reqs := fake.Requests()
	body := string(reqs[len(reqs)-1].Body)
	var sent agents.ResponsesRequest
	if err := json.Unmarshal([]byte(body), &sent); err != nil {
		t.Fatal(err)
	}
	const first = "Keep the DB read-only." // compacted: only the summary holds it
	if !strings.Contains(doc.Text, first) {
		t.Fatalf("the fake's summary lost %q: %s", first, doc.Text)
	}
	if !strings.Contains(sent.Instructions, first) {
		t.Errorf("instructions do not show the anthropic summary's text %q:\n%s", first, sent.Instructions)
	}
	if strings.Contains(body, `"type":"compaction"`) || seen.Compacted {
		t.Errorf("the request replays a compaction it cannot have: %s", body)
	}
}
