package importer

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/compact-eval/compact-eval/scenarios"
)

// openaiMessage is one Chat Completions message.
type openaiMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	// Text is the content under the name some datasets give it.
	Text    json.RawMessage `json:"text"`
	Name    string          `json:"name"`
	Refusal string          `json:"refusal"`
	// Arguments are a string holding JSON (the wire form) or, as many
	// datasets and logs store them, the JSON object itself.
	ToolCalls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolCallID   string `json:"tool_call_id"`
	FunctionCall *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function_call"`
}

func (b *builder) openaiMessage(m *openaiMessage) error {
	content := m.Content
	if c := bytes.TrimSpace(content); (len(c) == 0 || string(c) == "null") && len(m.Text) > 0 {
		content = m.Text
	}
	text, err := b.contentText(content)
	if err != nil {
		return fmt.Errorf("content: %w", err)
	}
	if text == "" && m.Refusal != "" {
		text = m.Refusal
	}
	switch m.Role {
	case "tool":
		return b.result(m.ToolCallID, scenarios.StatusOK, text)
	case "function":
		// Legacy function calling: the reply names the function, not a call id.
		id := "function-" + m.Name
		if !b.openCall(id) {
			b.drop("function replies with no open call")
			return nil
		}
		return b.result(id, scenarios.StatusOK, text)
	case "assistant":
		calls := 0
		for _, tc := range m.ToolCalls {
			if err := b.call(text, tc.ID, tc.Function.Name, argsValue(tc.Function.Arguments)); err != nil {
				return err
			}
			text = ""
			calls++
		}
		if m.FunctionCall != nil {
			if err := b.call(text, "function-"+m.FunctionCall.Name, m.FunctionCall.Name, argsValue(m.FunctionCall.Arguments)); err != nil {
				return err
			}
			text = ""
		}
		return b.text(scenarios.RoleAssistant, text)
	}
	r, ok := chatRole(m.Role)
	if !ok {
		b.drop("messages with role " + m.Role)
		return nil
	}
	return b.text(r, text)
}
