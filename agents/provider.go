package agents

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// questionText is the last user turn of a provider agent: the probe's
// question and options, and how to answer.
func questionText(q Question) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Decision needed. %s\n\nOptions:\n", q.Question)
	for _, o := range q.Options {
		fmt.Fprintf(&b, "- %s: %s\n", o.Key, o.Description)
	}
	fmt.Fprintf(&b, "\nAnswer with only a JSON object {\"choice\": KEY, \"reason\": \"one sentence\"} where KEY is exactly one of: %s.", keys(q.Options))
	return b.String()
}

// promptText is the last user turn of a provider agent's request: the
// choice question, or the free-text one.
func promptText(req *Request) string {
	if req.FreeText() {
		return answerQuestionText(req.Probe)
	}
	return questionText(req.Probe)
}

// decisionFromText reads {"choice", "reason"} from a reply's text; the
// choice must be exactly one of the option keys (surrounding spaces aside).
func decisionFromText(text string, opts scenarios.Options) (choice, reason string, err error) {
	obj, err := providers.FirstJSONObject(text)
	if err != nil {
		return "", "", fmt.Errorf("the reply is not a JSON object: %w", err)
	}
	var v struct {
		Choice any `json:"choice"`
		Reason any `json:"reason"`
	}
	if err := json.Unmarshal(obj, &v); err != nil {
		return "", "", fmt.Errorf("the reply is not a JSON object: %w", err)
	}
	s, ok := v.Choice.(string)
	if !ok {
		return "", "", fmt.Errorf("the reply has no string \"choice\" (got %v)", v.Choice)
	}
	s = strings.TrimSpace(s)
	for _, o := range opts {
		if o.Key != s {
			continue
		}
		switch r := v.Reason.(type) {
		case string:
			reason = r
		case nil:
		default:
			b, _ := json.Marshal(r)
			reason = string(b)
		}
		return s, reason, nil
	}
	return "", "", fmt.Errorf("choice %q is not one of the options (%s)", s, keys(opts))
}

var errNoOptions = errors.New("the probe has no options")

// providerCompaction is the compaction of kind the compacted arm replays:
// the context's provider compaction when an agent of that kind made it,
// else nil (the summary, if any, is then shown as text).
func providerCompaction(c Context, kind string) *summary.ProviderCompaction {
	if c.Compaction != nil && c.Compaction.Provider == kind && c.Summary != nil {
		return c.Compaction
	}
	return nil
}

// systemText is the system prompt of a provider agent: rules, goal and,
// when the summary is not replayed as the provider's item, the summary.
func systemText(c Context, replayed bool) string {
	tc := transcript.Context{Rules: c.Rules, Goal: c.Goal}
	if !replayed {
		tc.Summary = c.Summary
	}
	return strings.TrimSpace(transcript.Header(tc))
}
