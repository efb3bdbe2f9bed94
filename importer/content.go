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

// textOf returns the text of a content value: a string, null, or a list of
// parts whose text parts are joined by blank lines. The kinds of other parts
// (images, documents) are returned as drops. It touches no builder state, so
// it runs in the decoding workers.
func textOf(raw json.RawMessage) (text string, drops []string, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil, nil
	}
	if raw[0] == '"' {
		if s, ok := unquoteJSON(raw); ok {
			return s, nil, nil
		}
		var s string
		err := json.Unmarshal(raw, &s)
		return s, nil, err
	}
	var parts []block
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", nil, err
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
			drops = append(drops, "content parts of type "+p.Type)
		}
	}
	return sb.String(), drops, nil
}

// contentText is textOf with the drops counted.
func (b *builder) contentText(raw json.RawMessage) (string, error) {
	s, drops, err := textOf(raw)
	for _, d := range drops {
		b.drop(d)
	}
	return s, err
}

// content is an Anthropic message content, decoded: a plain text, or blocks
// whose tool results already have their text.
type content struct {
	text   string
	drops  []string
	blocks []block
	// outs[i] is the text of blocks[i] when it is a tool result.
	outs []string
}

// parseContent decodes an Anthropic content value (a string or blocks). Like
// textOf it touches no builder state.
func parseContent(raw json.RawMessage) (*content, error) {
	raw = bytes.TrimSpace(raw)
	c := &content{}
	if len(raw) == 0 || raw[0] != '[' {
		var err error
		c.text, c.drops, err = textOf(raw)
		return c, err
	}
	if err := json.Unmarshal(raw, &c.blocks); err != nil {
		return nil, err
	}
	c.outs = make([]string, len(c.blocks))
	for i, bl := range c.blocks {
		if !isResultBlock(bl.Type) {
			continue
		}
		out, drops, err := textOf(bl.Content)
		if err != nil {
			// Server tool results carry structured content: keep it as JSON.
			out, drops = string(bl.Content), nil
		}
		c.outs[i] = out
		c.drops = append(c.drops, drops...)
	}
	return c, nil
}

func isResultBlock(t string) bool {
	switch t {
	case "tool_result", "web_search_tool_result", "mcp_tool_result", "code_execution_tool_result":
		return true
	}
	return false
}

// addContent adds the events of one decoded Anthropic message: text blocks,
// tool_use blocks as calls (with the text before them), tool_result blocks as
// results. A user message's text is user text; tool results are tool events.
func (b *builder) addContent(role string, c *content) error {
	r, ok := chatRole(role)
	if !ok {
		b.drop("messages with role " + role)
		return nil
	}
	for _, d := range c.drops {
		b.drop(d)
	}
	if c.blocks == nil {
		return b.text(r, c.text)
	}
	var pending strings.Builder
	flush := func() error {
		s := pending.String()
		pending.Reset()
		return b.text(r, s)
	}
	for i, bl := range c.blocks {
		switch {
		case bl.Type == "text":
			if bl.Text == "" {
				continue
			}
			if pending.Len() > 0 {
				pending.WriteString("\n\n")
			}
			pending.WriteString(bl.Text)
		case bl.Type == "tool_use" || bl.Type == "server_tool_use" || bl.Type == "mcp_tool_use":
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
		case isResultBlock(bl.Type):
			if err := flush(); err != nil {
				return err
			}
			status := scenarios.StatusOK
			if bl.IsError {
				status = scenarios.StatusError
			}
			if err := b.result(bl.ToolUseID, status, c.outs[i]); err != nil {
				return err
			}
		case bl.Type == "thinking" || bl.Type == "redacted_thinking":
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
	case "user", "human": // "human" and "ai": LangChain's names
		return scenarios.RoleUser, true
	case "assistant", "model", "ai":
		return scenarios.RoleAssistant, true
	case "system", "developer":
		return scenarios.RoleSystem, true
	}
	return "", false
}

// argsJSON turns a call's arguments string into raw JSON: an object as is,
// anything else (invalid JSON, a bare string, a free-form tool input) wrapped
// as {"input": "…"}.
func argsJSON(s string) []byte {
	t := bytes.TrimSpace([]byte(s))
	if len(t) == 0 {
		return nil
	}
	if t[0] == '{' && json.Valid(t) {
		return t
	}
	wrapped, _ := json.Marshal(map[string]string{"input": s})
	return wrapped
}

// argsValue accepts arguments as a JSON object or as a string holding one
// (the OpenAI wire form).
func argsValue(raw json.RawMessage) []byte {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil
	case raw[0] == '"':
		return argsJSON(jsonString(raw))
	}
	return argsJSON(string(raw))
}
