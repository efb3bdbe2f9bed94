package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/compact-eval/compact-eval/providers"
)

// decideRecall asks a probe on the recall arm (a choice, or a free-text
// answer with no correction round either) through the Responses
// API: the input of decideOnce with the recall function declared, in the
// rounds recallRounds drives (tool_choice auto, then none). A reply's
// function_call items go back as input items, each followed by its
// function_call_output. Each sample has a recall session of its own; there
// is no correction turn.
func (a *responsesAgent) decideRecall(ctx context.Context, req *Request) (*Decision, error) {
	d := &Decision{}
	d.Call.Spec = providers.KindResponses + ":" + a.model
	r, err := ResponsesBody(a.model, a.opts, req)
	if err != nil {
		return d, fmt.Errorf("openai-responses agent %s: %w", a.model, err)
	}
	r.Tools = append(slices.DeleteFunc(r.Tools, func(t providers.ResponsesTool) bool { return t.Name == RecallToolName }),
		providers.ResponsesTool{Type: "function", Name: RecallToolName, Description: RecallToolDescription, Parameters: RecallToolParameters})
	send := func(auto bool) (recallTurn, bool, error) {
		r.ToolChoice = "none"
		if auto {
			r.ToolChoice = "auto"
		}
		var t recallTurn
		_, hit, err := a.sendReply(ctx, d, r, req.Trial, func(rr *responsesReply) error {
			t = recallTurn{Text: rr.text()}
			for _, o := range rr.Output {
				if o.Type == "function_call" {
					t.Calls = append(t.Calls, toolCall{ID: o.CallID, Name: o.Name, Arguments: o.Arguments})
				}
			}
			if len(t.Calls) == 0 && t.Text == "" {
				return fmt.Errorf("the reply has no output text and no function call (status %q)", rr.Status)
			}
			return nil
		})
		return t, hit, err
	}
	feed := func(t recallTurn, results []string) {
		r.Input = slices.Clone(r.Input)
		add := func(it providers.ResponsesItem) {
			b, _ := json.Marshal(it)
			r.Input = append(r.Input, b)
		}
		if t.Text != "" {
			add(providers.ResponsesItem{Type: "message", Role: "assistant", Content: t.Text})
		}
		for _, c := range t.Calls {
			add(providers.ResponsesItem{Type: "function_call", CallID: c.ID, Name: c.Name, Arguments: c.Arguments})
		}
		for i, c := range t.Calls {
			add(providers.ResponsesItem{Type: "function_call_output", CallID: c.ID, Output: results[i]})
		}
	}
	return recallConversation(d, req, "openai-responses agent "+a.model, send, feed)
}

// UsesRecall marks the openai-responses: agent as a RecallUser: on the
// recall arm it is offered the recall tool (decideRecall).
func (a *responsesAgent) UsesRecall() {}
