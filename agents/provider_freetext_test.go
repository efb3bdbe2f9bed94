package agents_test

import (
	"context"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/testkit/providerfake"
)

// TestProviderAgentsFreeText: anthropic: and openai-responses: agents
// answer a free-text probe in words on both arms (issue 12 item 3 applies
// to every model agent): the request asks for {"answer"} and lists no
// options, the compacted arm still replays the provider's item, and the
// answer read back is the model's words, never a parse of a choice.
func TestProviderAgentsFreeText(t *testing.T) {
	for _, kind := range []string{providers.KindAnthropic, providers.KindResponses} {
		t.Run(kind, func(t *testing.T) {
			fake, s, a := setup(t, kind)
			fake.Answer = func(q providerfake.Question) string {
				if !q.FreeText {
					t.Errorf("a free-text question reached the fake as a choice question (keys %v)", q.Keys)
				}
				if q.Compacted {
					return "The DB stays read-only, per the compacted rule."
				}
				return "The DB stays read-only."
			}
			for _, tc := range []struct {
				req  *agents.Request
				want string
			}{{compacted(t, s), "The DB stays read-only, per the compacted rule."}, {full(), "The DB stays read-only."}} {
				tc.req.Kind = agents.KindAnswer
				tc.req.Probe = agents.Question{ID: "ft", Question: "What must stay true of the DB?"}
				n := len(fake.Requests())
				d, err := a.Decide(context.Background(), tc.req)
				if err != nil {
					t.Fatalf("%s arm: %v", tc.req.Arm, err)
				}
				if d.Answer != tc.want || d.Choice != "" {
					t.Errorf("%s arm: answer %q choice %q, want answer %q", tc.req.Arm, d.Answer, d.Choice, tc.want)
				}
				reqs := fake.Requests()[n:]
				if len(reqs) != 1 {
					t.Fatalf("%s arm: %d requests, want 1", tc.req.Arm, len(reqs))
				}
				body := string(reqs[0].Body)
				if !strings.Contains(body, `What must stay true of the DB?`) || !strings.Contains(body, `\"answer\"`) || strings.Contains(body, "Options:") {
					t.Errorf("%s arm: the request does not ask for a free-text answer: %s", tc.req.Arm, body)
				}
			}
		})
	}
}
