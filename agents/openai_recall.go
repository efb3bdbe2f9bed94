package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/llm"
)

// RecallToolName is the name of the recall tool a model agent is offered
// on the recall arm.
const RecallToolName = "recall"

// RecallToolDescription is what a model agent is told the recall tool
// does.
const RecallToolDescription = "Reload events of this session that the summary replaced. " +
	"Give seqs (the event numbers the summary cites, e.g. its source_seq values) to get those events, " +
	"or query (a few words) to search the stored events, best match first. " +
	"Each call returns a few events; the number of calls is limited."

// RecallToolParameters is the JSON Schema of the recall tool's arguments.
var RecallToolParameters = json.RawMessage(`{"type":"object","properties":{` +
	`"seqs":{"type":"array","items":{"type":"integer"},"description":"seqs of the events to reload"},` +
	`"query":{"type":"string","description":"words to search the stored events for"}},` +
	`"additionalProperties":false}`)

// recallArgs are the recall tool's arguments.
type recallArgs struct {
	Seqs  []int   `json:"seqs"`
	Query *string `json:"query"`
}

// runRecall runs one recall tool call with the given JSON arguments and
// returns what the agent is told: the events' text, or why nothing came
// back.
func runRecall(rc *Recall, arguments string) string {
	var args recallArgs
	if err := json.Unmarshal([]byte(arguments), &args); err != nil {
		return "error: the arguments are not a JSON object {\"seqs\": [...]} or {\"query\": \"...\"}: " + err.Error()
	}
	var got []RecalledEvent
	var err error
	switch {
	case (args.Query != nil) == (len(args.Seqs) > 0):
		return "error: give either seqs or query"
	case args.Query != nil:
		got, err = rc.Search(*args.Query)
	default:
		got, err = rc.Get(args.Seqs)
	}
	if err != nil {
		return "error: " + err.Error()
	}
	text := RecallText(got)
	if calls := rc.Calls(); len(calls) > 0 {
		if m := calls[len(calls)-1].Missing; len(m) > 0 {
			text += fmt.Sprintf("(no stored event with seq %v)\n", m)
		}
	}
	return text + fmt.Sprintf("(%d recall calls left)", rc.Left())
}

// decideRecall asks a choice probe on the recall arm: the chat of
// decideOnce with the recall tool offered (tool_choice auto), each round's
// recall calls run and their results sent back as tool messages, until
// the model answers; once the budget is spent (or after twice as many
// rounds as calls) tool_choice is none. A call to another tool gets a tool
// message saying only recall can run. Each sample has a recall session of
// its own.
func (a *openAIAgent) decideRecall(ctx context.Context, req *Request) (*Decision, error) {
	rc := req.Recall.Store().Session(req.Recall.Limits())
	msgs, tools := ChatMessages(req)
	tools = append(tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
		Name: RecallToolName, Description: RecallToolDescription, Parameters: RecallToolParameters}})
	d := &Decision{}
	hit := true
	finish := func(err error) (*Decision, error) {
		d.Call.CacheHit = hit
		d.RecallCalls = rc.Calls()
		if err != nil {
			return d, fmt.Errorf("openai agent %s: %w", a.model, err)
		}
		return d, nil
	}
	for round := 0; ; round++ {
		choice := "auto"
		if rc.Left() == 0 || round >= 2*rc.Limits().Calls {
			choice = "none"
		}
		build := func(string) *llm.Request {
			cr := openai.ChatCompletionRequest{Model: a.model, Messages: msgs, Tools: tools, ToolChoice: choice}
			a.opts.Apply(&cr)
			return &llm.Request{Chat: cr, Trial: req.Trial, Accept: hasChoice}
		}
		out, err := a.client.ChatStructured(ctx, a.model, []string{llm.ModeText}, build)
		a.opts.Provenance(&d.Call, a.model, a.client.Host(), out)
		if err != nil {
			return finish(err)
		}
		hit = hit && out.CacheHit
		m := out.Response.Choices[0].Message
		if len(m.ToolCalls) == 0 || choice == "none" {
			if m.Content == "" && len(m.ToolCalls) > 0 {
				return finish(errors.New("the reply called a tool after the recall budget was spent"))
			}
			d.Choice, d.Reason, err = decisionFromText(m.Content, req.Probe.Options)
			return finish(err)
		}
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: m.Content, ToolCalls: m.ToolCalls})
		for _, c := range m.ToolCalls {
			text := "error: only the recall tool can be called now; answer with the JSON object when you are done"
			if c.Function.Name == RecallToolName {
				text = runRecall(rc, c.Function.Arguments)
			}
			msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: c.ID, Content: text})
		}
	}
}

// UsesRecall marks the openai: agent as a RecallUser: on the recall arm it
// is offered the recall tool (decideRecall).
func (a *openAIAgent) UsesRecall() {}
