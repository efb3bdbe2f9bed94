package importer

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/compact-eval/compact-eval/scenarios"
)

// block is one content block or content part, in the union of the shapes
// OpenAI, Anthropic, Claude Code and Codex use.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// contentText returns the text of a content value: a string, null, or a list
// of parts whose text parts are joined by blank lines. Other parts (images,
// documents, thinking) are counted as dropped.
func (b *builder) contentText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var parts []block
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	var sb strings.Builder
	for _, p := range parts {
		switch p.Type {
		case "text", "input_text", "output_text", "":
			if p.Text == "" {
				continue
			}
			if sb.Len() > 0 {
				sb.WriteString("\n\n")
			}
			sb.WriteString(p.Text)
		default:
			b.drop("content parts of type " + p.Type)
		}
	}
	return sb.String(), nil
}

// anthropicContent adds the events of one Anthropic message: text blocks,
// tool_use blocks as calls (with the text before them), tool_result blocks as
// results. A user message's text is user text; tool results are tool events.
func (b *builder) anthropicContent(role string, raw json.RawMessage) error {
	r, ok := chatRole(role)
	if !ok {
		b.drop("messages with role " + role)
		return nil
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		s, err := b.contentText(raw)
		if err != nil {
			return err
		}
		return b.text(r, s)
	}
	var blocks []block
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return err
	}
	var pending strings.Builder
	flush := func() error {
		s := pending.String()
		pending.Reset()
		return b.text(r, s)
	}
	for _, bl := range blocks {
		switch bl.Type {
		case "text":
			if bl.Text == "" {
				continue
			}
			if pending.Len() > 0 {
				pending.WriteString("\n\n")
			}
			pending.WriteString(bl.Text)
		case "tool_use", "server_tool_use", "mcp_tool_use":
			text := pending.String()
			pending.Reset()
			if r != scenarios.RoleAssistant {
				if err := b.text(r, text); err != nil {
					return err
				}
				text = ""
			}
			if err := b.call(text, bl.ID, bl.Name, bl.Input); err != nil {
				return err
			}
		case "tool_result", "web_search_tool_result", "mcp_tool_result", "code_execution_tool_result":
			if err := flush(); err != nil {
				return err
			}
			out, err := b.contentText(bl.Content)
			if err != nil {
				// Server tool results carry structured content: keep it as JSON.
				out = string(bl.Content)
			}
			status := scenarios.StatusOK
			if bl.IsError {
				status = scenarios.StatusError
			}
			if err := b.result(bl.ToolUseID, status, out); err != nil {
				return err
			}
		case "thinking", "redacted_thinking":
			b.drop("thinking blocks")
		default:
			b.drop("content blocks of type " + bl.Type)
		}
	}
	return flush()
}

// chatRole maps a chat role to an event role.
func chatRole(role string) (scenarios.Role, bool) {
	switch role {
	case "user":
		return scenarios.RoleUser, true
	case "assistant", "model":
		return scenarios.RoleAssistant, true
	case "system", "developer":
		return scenarios.RoleSystem, true
	}
	return "", false
}
