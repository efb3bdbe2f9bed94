package judges_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/judges"
)

// TestRedactEveryField: a secret an agent or summarizer leaked never
// reaches a judge, whichever field carries it: the fact, its events, the
// summary, the free-text probe and, above all, the agent's answer (an
// agent that repeats a token it saw is the common leak).
func TestRedactEveryField(t *testing.T) {
	const secret = "ghp_S3cretT0kenValue9876"
	r := redact.New([]redact.Secret{{ID: "tok", Value: secret}})
	inv := judges.NewInvariantRequest("sc", 1, &judges.Fact{ID: "f", Statement: "token " + secret, Events: []judges.Quote{{Seq: 1, Text: "set " + secret}}},
		json.RawMessage(`{"text":"the token is `+secret+`"}`))
	ans := judges.NewAnswerRequest("sc", &judges.Probe{Question: "what is " + secret, Expected: "it is " + secret, Rubric: []string{"no " + secret}}, "I saw "+secret)
	judges.Redact(r, inv)
	judges.Redact(r, ans)
	for _, req := range []*judges.Request{inv, ans} {
		b, _ := json.Marshal(req)
		if strings.Contains(string(b), secret) || strings.Contains(string(b), secret[:12]) {
			t.Errorf("the %s request still carries the secret: %s", req.Kind, b)
		}
		if !json.Valid(req.Summary) && len(req.Summary) > 0 {
			t.Errorf("the redacted summary is not JSON: %s", req.Summary)
		}
	}
	if ans.Answer == nil || !strings.HasPrefix(*ans.Answer, "I saw ") {
		t.Errorf("the answer's other words were lost: %v", ans.Answer)
	}
}
