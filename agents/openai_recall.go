package agents

import (
	"context"
	"fmt"
	"slices"

	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/llm"
)

// decideRecall asks a probe on the recall arm (a choice, or a free-text
// answer with no correction round either): the chat of
// decideOnce with the recall tool offered, in the rounds recallRounds
// drives, each round's calls sent back as the assistant's tool_calls and
// one tool message per call. Each sample has a recall session of its own.
func (a *openAIAgent) decideRecall(ctx context.Context, req *Request) (*Decision, error) {
	msgs, tools := ChatMessages(req)
	tools = append(slices.DeleteFunc(tools, func(t openai.Tool) bool { return t.Function.Name == RecallToolName }),
		openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: RecallToolName, Description: RecallToolDescription, Parameters: RecallToolParameters}})
	d := &Decision{}
	who := "openai agent " + a.model
	var last openai.ChatCompletionMessage
	send := func(auto bool) (recallTurn, bool, error) {
		choice := "none"
		if auto {
			choice = "auto"
		}
		build := func(string) *llm.Request {
			cr := openai.ChatCompletionRequest{Model: a.model, Messages: msgs, Tools: tools, ToolChoice: choice}
			a.opts.Apply(&cr)
			return &llm.Request{Chat: cr, Trial: req.Trial, Accept: hasChoice}
		}
		out, err := a.client.ChatStructured(ctx, a.model, []string{llm.ModeText}, build)
		a.opts.Provenance(&d.Call, a.model, a.client.Host(), out)
		if err != nil {
			return recallTurn{}, false, fmt.Errorf("%s: %w", who, err)
		}
		last = out.Response.Choices[0].Message
		t := recallTurn{Text: last.Content}
		for _, c := range last.ToolCalls {
			t.Calls = append(t.Calls, toolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		return t, out.CacheHit, nil
	}
	feed := func(t recallTurn, results []string) {
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: last.Content, ToolCalls: last.ToolCalls})
		for i, c := range t.Calls {
			msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: c.ID, Content: results[i]})
		}
	}
	return recallConversation(d, req, who, send, feed)
}

// UsesRecall marks the openai: agent as a RecallUser: on the recall arm it
// is offered the recall tool (decideRecall).
func (a *openAIAgent) UsesRecall() {}
