package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/compact-eval/compact-eval/providers"
)

// decideRecall asks a probe on the recall arm (a choice, or a free-text
// answer with no correction round either) through the Messages
// API: the request of decideOnce with the recall tool declared, in the
// rounds recallRounds drives (tool_choice auto, then none). A reply's
// tool_use blocks go back as the assistant's turn, and their results as one
// user turn of tool_result blocks (is_error for a refused call). Each
// sample has a recall session of its own; there is no correction turn.
func (a *anthropicAgent) decideRecall(ctx context.Context, req *Request) (*Decision, error) {
	d := &Decision{}
	d.Call.Spec = providers.KindAnthropic + ":" + a.model
	p, err := AnthropicParams(a.model, a.maxTokens(), req)
	if err != nil {
		return d, fmt.Errorf("anthropic agent %s: %w", a.model, err)
	}
	props, rest := recallSchemaParts()
	p.Tools = append(slices.DeleteFunc(p.Tools, func(t anthropic.BetaToolUnionParam) bool {
		return t.OfTool != nil && t.OfTool.Name == RecallToolName
	}), anthropic.BetaToolUnionParam{OfTool: &anthropic.BetaToolParam{
		Name: RecallToolName, Description: anthropic.String(RecallToolDescription),
		InputSchema: anthropic.BetaToolInputSchemaParam{Properties: props, ExtraFields: rest},
	}})
	send := func(auto bool) (recallTurn, bool, error) {
		if auto {
			p.ToolChoice = anthropic.BetaToolChoiceUnionParam{OfAuto: &anthropic.BetaToolChoiceAutoParam{}}
		} else {
			p.ToolChoice = anthropic.BetaToolChoiceUnionParam{OfNone: &anthropic.BetaToolChoiceNoneParam{}}
		}
		var t recallTurn
		_, hit, err := a.sendMessage(ctx, d, p, req.Trial, func(m *anthropic.BetaMessage) error {
			t = recallTurn{Text: messageText(m)}
			for _, c := range m.Content {
				if c.Type == "tool_use" {
					t.Calls = append(t.Calls, toolCall{ID: c.ID, Name: c.Name, Arguments: string(c.Input)})
				}
			}
			if len(t.Calls) == 0 && t.Text == "" {
				return fmt.Errorf("the reply has no text and no tool call (stop_reason %q)", m.StopReason)
			}
			return nil
		})
		return t, hit, err
	}
	feed := func(t recallTurn, results []string) {
		var calls, answers []anthropic.BetaContentBlockParamUnion
		if t.Text != "" {
			calls = append(calls, anthropic.NewBetaTextBlock(t.Text))
		}
		for i, c := range t.Calls {
			calls = append(calls, anthropic.NewBetaToolUseBlock(c.ID, json.RawMessage(c.Arguments), c.Name))
			answers = append(answers, anthropic.NewBetaToolResultBlock(c.ID, results[i], isRecallError(results[i])))
		}
		p.Messages = append(p.Messages,
			anthropic.BetaMessageParam{OfAssistant: &anthropic.BetaAssistantMessageParam{Content: calls}},
			anthropic.NewBetaUserMessage(answers...))
	}
	return recallConversation(d, req, "anthropic agent "+a.model, send, feed)
}

// UsesRecall marks the anthropic: agent as a RecallUser: on the recall arm
// it is offered the recall tool (decideRecall).
func (a *anthropicAgent) UsesRecall() {}
