package llm_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
)

// modeReq is a request for mode, with the same question whatever the mode.
func modeReq(question string) func(mode string) *llm.Request {
	return func(mode string) *llm.Request {
		r := chatReq(question)
		switch mode {
		case llm.ModeJSONSchema:
			r.Chat.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
				JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: "verdict", Schema: rawSchema(`{"type":"object"}`), Strict: true}}
		case llm.ModeJSONObject:
			r.Chat.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
		}
		return r
	}
}

type rawSchema string

func (s rawSchema) MarshalJSON() ([]byte, error) { return []byte(s), nil }

// sentModes is the response_format type of each request srv received
// ("text" for none).
func sentModes(srv *llmtest.Server) []string {
	var out []string
	for _, r := range srv.Requests() {
		m := llm.ModeText
		if f := r.Chat.ResponseFormat; f != nil {
			m = string(f.Type)
		}
		out = append(out, m)
	}
	return out
}

// Two callers of one model with different lists of modes (an agent that
// starts at json_object, a judge at json_schema): an answer to the first
// says nothing of the second's stronger mode, so the judge still asks in
// json_schema, whichever finished first. Remembering "the mode that
// worked" made the judge's mode depend on timing: the same question went
// out in two modes within one run (run_dry_run's plan was one request
// short), and a rerun's cache missed it.
func TestChatStructuredAnswerIsNotARefusal(t *testing.T) {
	llm.ForgetOutputModes()
	t.Cleanup(llm.ForgetOutputModes)
	srv := llmtest.New(t)
	srv.SetDefault(func(llmtest.Request) llmtest.Reply { return llmtest.Text(`{"ok":true}`) })
	c, _ := newClient(t, srv, nil)
	ctx := context.Background()
	agent := []string{llm.ModeJSONObject, llm.ModeText}
	judge := []string{llm.ModeJSONSchema, llm.ModeJSONObject, llm.ModeText}
	if out, err := c.ChatStructured(ctx, "test-model", agent, modeReq("agent's question")); err != nil || out.Mode != llm.ModeJSONObject {
		t.Fatalf("agent: mode %q, err %v", out.Mode, err)
	}
	for range 2 {
		out, err := c.ChatStructured(ctx, "test-model", judge, modeReq("judge's question"))
		if err != nil || out.Mode != llm.ModeJSONSchema {
			t.Fatalf("judge after the agent: mode %q, err %v; want json_schema", out.Mode, err)
		}
	}
	// The judge's second question is the first's, answered by the cache.
	if diff := cmp.Diff([]string{"json_object", "json_schema"}, sentModes(srv)); diff != "" {
		t.Errorf("modes sent (-want +got):\n%s", diff)
	}
}

// A refusal is shared: once the endpoint refused json_schema for a model,
// every caller of it starts at the next mode, and other models do not.
func TestChatStructuredRefusalShared(t *testing.T) {
	llm.ForgetOutputModes()
	t.Cleanup(llm.ForgetOutputModes)
	srv := llmtest.New(t)
	srv.RejectFormats("json_schema")
	srv.SetDefault(func(llmtest.Request) llmtest.Reply { return llmtest.Text(`{"ok":true}`) })
	c, _ := newClient(t, srv, nil)
	ctx := context.Background()
	modes := []string{llm.ModeJSONSchema, llm.ModeJSONObject, llm.ModeText}
	out, err := c.ChatStructured(ctx, "test-model", modes, modeReq("summarizer's question"))
	if err != nil || out.Mode != llm.ModeJSONObject || !cmp.Equal(out.FallbackFrom, []string{"json_schema"}) {
		t.Fatalf("first call: mode %q, fallback %v, err %v", out.Mode, out.FallbackFrom, err)
	}
	if !c.RefusedMode("test-model", llm.ModeJSONSchema) || c.RefusedMode("test-model", llm.ModeJSONObject) || c.RefusedMode("other-model", llm.ModeJSONSchema) {
		t.Errorf("refusals remembered: json_schema %v, json_object %v, other model's json_schema %v; want true, false, false",
			c.RefusedMode("test-model", llm.ModeJSONSchema), c.RefusedMode("test-model", llm.ModeJSONObject), c.RefusedMode("other-model", llm.ModeJSONSchema))
	}
	if out, err := c.ChatStructured(ctx, "test-model", modes, modeReq("judge's question")); err != nil || out.Mode != llm.ModeJSONObject || len(out.FallbackFrom) != 0 {
		t.Fatalf("second caller: mode %q, fallback %v, err %v; want json_object at once", out.Mode, out.FallbackFrom, err)
	}
	if diff := cmp.Diff([]string{"json_schema", "json_object", "json_object"}, sentModes(srv)); diff != "" {
		t.Errorf("modes sent (-want +got):\n%s", diff)
	}
}
