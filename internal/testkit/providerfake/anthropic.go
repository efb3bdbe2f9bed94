package providerfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

var idRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

type aBlock struct {
	Type             string          `json:"type"`
	Text             *string         `json:"text"`
	ID               string          `json:"id"`
	Name             string          `json:"name"`
	Input            json.RawMessage `json:"input"`
	ToolUseID        string          `json:"tool_use_id"`
	Content          json.RawMessage `json:"content"`
	IsError          bool            `json:"is_error"`
	EncryptedContent *string         `json:"encrypted_content"`
	Signature        *string         `json:"signature"`
}

type aMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type aRequest struct {
	Model             *string           `json:"model"`
	MaxTokens         *int              `json:"max_tokens"`
	Messages          []aMessage        `json:"messages"`
	System            json.RawMessage   `json:"system"`
	Tools             []json.RawMessage `json:"tools"`
	ToolChoice        json.RawMessage   `json:"tool_choice"`
	Compaction        json.RawMessage   `json:"compaction"`
	ContextManagement json.RawMessage   `json:"context_management"`
}

// messages serves POST /v1/messages.
func (s *Server) messages(h http.Header, body []byte) (int, any, error) {
	if s.AnthropicKey != "" && h.Get("X-Api-Key") != s.AnthropicKey {
		return http.StatusUnauthorized, nil, errf("invalid x-api-key")
	}
	if h.Get("Authorization") != "" {
		return http.StatusBadRequest, nil, errf("the Messages API takes the key in x-api-key, not Authorization")
	}
	if v := h.Get("Anthropic-Version"); v != "2023-06-01" {
		return http.StatusBadRequest, nil, errf("anthropic-version: header is required (got %q)", v)
	}
	betas := map[string]bool{}
	for _, v := range h.Values("Anthropic-Beta") {
		for _, b := range strings.Split(v, ",") {
			betas[strings.TrimSpace(b)] = true
		}
	}
	var req aRequest
	dec := json.NewDecoder(strings.NewReader(string(body)))
	if err := dec.Decode(&req); err != nil {
		return http.StatusBadRequest, nil, errf("invalid JSON body: %v", err)
	}
	if req.Model == nil || *req.Model == "" {
		return http.StatusBadRequest, nil, errf("model: Field required")
	}
	if req.MaxTokens == nil || *req.MaxTokens < 1 {
		return http.StatusBadRequest, nil, errf("max_tokens: Field required")
	}
	if len(req.Messages) == 0 {
		return http.StatusBadRequest, nil, errf("messages: at least one message is required")
	}
	compacting := len(req.Compaction) > 0
	if compacting {
		if !betas[Beta] {
			return http.StatusBadRequest, nil, errf("compaction: requires the anthropic-beta header %s", Beta)
		}
		if len(req.ContextManagement) > 0 {
			return http.StatusBadRequest, nil, errf("compaction: cannot be combined with context_management")
		}
		var c struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(req.Compaction, &c) != nil || c.Type != "summarize" {
			return http.StatusBadRequest, nil, errf("compaction.type: Input should be 'summarize'")
		}
	}
	tools := map[string]bool{}
	var names []string
	for i, t := range req.Tools {
		var v struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"input_schema"`
		}
		if json.Unmarshal(t, &v) != nil || !idRE.MatchString(v.Name) || len(v.InputSchema) == 0 {
			return http.StatusBadRequest, nil, errf("tools.%d: a tool needs a name matching ^[a-zA-Z0-9_-]{1,64}$ and an input_schema", i)
		}
		if tools[v.Name] {
			return http.StatusBadRequest, nil, errf("tools: Tool names must be unique (%q)", v.Name)
		}
		tools[v.Name] = true
		names = append(names, v.Name)
	}
	if len(req.ToolChoice) > 0 {
		var tc struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(req.ToolChoice, &tc) != nil || (tc.Type != "none" && tc.Type != "auto" && tc.Type != "any" && tc.Type != "tool") {
			return http.StatusBadRequest, nil, errf("tool_choice: unknown type")
		}
		if tc.Type == "none" {
			names = nil
		}
	}
	var texts []string
	if len(req.System) > 0 {
		var sys []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(req.System, &sys); err != nil {
			var str string
			if json.Unmarshal(req.System, &str) != nil {
				return http.StatusBadRequest, nil, errf("system: want a string or a list of text blocks")
			}
			texts = append(texts, str)
		}
		for _, b := range sys {
			texts = append(texts, b.Text)
		}
	}
	compacted := false
	var prevUses map[string]bool
	for i, m := range req.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return http.StatusBadRequest, nil, errf("messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
		var blocks []aBlock
		if err := json.Unmarshal(m.Content, &blocks); err != nil {
			var str string
			if json.Unmarshal(m.Content, &str) != nil || str == "" {
				return http.StatusBadRequest, nil, errf("messages.%d.content: want a non-empty string or a list of blocks", i)
			}
			blocks = []aBlock{{Type: "text", Text: &str}}
		}
		if len(blocks) == 0 {
			return http.StatusBadRequest, nil, errf("messages.%d: content must not be empty", i)
		}
		uses := map[string]bool{}
		for j, b := range blocks {
			at := func(f string, args ...any) error {
				return errf("messages.%d.content.%d: "+f, append([]any{i, j}, args...)...)
			}
			switch b.Type {
			case "text":
				if b.Text == nil || strings.TrimSpace(*b.Text) == "" {
					return http.StatusBadRequest, nil, at("text content blocks must be non-empty")
				}
				texts = append(texts, *b.Text)
			case "tool_use":
				if m.Role != "assistant" {
					return http.StatusBadRequest, nil, at("tool_use blocks are only allowed in assistant messages")
				}
				if !idRE.MatchString(b.ID) || !idRE.MatchString(b.Name) {
					return http.StatusBadRequest, nil, at("tool_use.id and name must match ^[a-zA-Z0-9_-]{1,64}$")
				}
				if !tools[b.Name] {
					return http.StatusBadRequest, nil, at("tool_use %q: requests which include tool_use blocks must define the tool in tools", b.Name)
				}
				var obj map[string]any
				if json.Unmarshal(b.Input, &obj) != nil {
					return http.StatusBadRequest, nil, at("tool_use.input: Input should be an object")
				}
				uses[b.ID] = true
				texts = append(texts, b.Name+" "+string(b.Input))
			case "tool_result":
				if m.Role != "user" {
					return http.StatusBadRequest, nil, at("tool_result blocks are only allowed in user messages")
				}
				if !prevUses[b.ToolUseID] {
					return http.StatusBadRequest, nil, at("unexpected tool_use_id %q in tool_result blocks: each tool_result block must have a corresponding tool_use block in the previous message", b.ToolUseID)
				}
				delete(prevUses, b.ToolUseID)
				var str string
				if json.Unmarshal(b.Content, &str) == nil {
					texts = append(texts, str)
				} else {
					var parts []struct {
						Text string `json:"text"`
					}
					if json.Unmarshal(b.Content, &parts) != nil {
						return http.StatusBadRequest, nil, at("tool_result.content: want a string or text blocks")
					}
					for _, p := range parts {
						texts = append(texts, p.Text)
					}
				}
			case "compaction":
				if i != 0 || j != 0 {
					return http.StatusBadRequest, nil, at("a compaction block must be the first block of the first message")
				}
				if !betas[Beta] {
					return http.StatusBadRequest, nil, at("compaction blocks require the anthropic-beta header %s", Beta)
				}
				var content string
				if json.Unmarshal(b.Content, &content) != nil || content == "" {
					return http.StatusBadRequest, nil, at("compaction.content: must be a non-empty string")
				}
				if b.Signature == nil {
					return http.StatusBadRequest, nil, at("compaction.signature: Field required (send the block back as returned)")
				}
				want, ok := s.redeem(*b.Signature)
				if !ok || want != content {
					return http.StatusBadRequest, nil, at("compaction: invalid signature (the block must be sent back verbatim)")
				}
				compacted = true
				texts = append(texts, content)
			default:
				return http.StatusBadRequest, nil, at("unknown content block type %q", b.Type)
			}
		}
		if m.Role == "user" && len(prevUses) > 0 {
			for id := range prevUses {
				return http.StatusBadRequest, nil, errf("messages.%d: tool_use ids were found without tool_result blocks immediately after: %s", i, id)
			}
		}
		if m.Role == "assistant" {
			prevUses = uses
		} else {
			prevUses = nil
		}
	}
	in := tokens(strings.Join(texts, "\n"))
	if compacting {
		summary := s.summarize(texts)
		stop := "compaction"
		if s.Truncate {
			summary, stop = summary[:len(summary)/2], "max_tokens"
		}
		sig := s.issue("sig_", summary)
		enc := s.issue("enc_", summary)
		return http.StatusOK, map[string]any{
			"id": "msg_fake_compaction", "type": "message", "role": "assistant", "model": *req.Model,
			"content":     []any{map[string]any{"type": "compaction", "content": summary, "encrypted_content": enc, "signature": sig}},
			"stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": in, "output_tokens": tokens(summary)},
		}, nil
	}
	q := question("anthropic", texts, compacted)
	q.Tools = names
	calls, err := s.calls(q)
	if err != nil {
		return http.StatusInternalServerError, nil, err
	}
	if len(calls) > 0 {
		var content []any
		for i, c := range calls {
			content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_fake_%d_%d", s.Count(""), i),
				"name": c.Name, "input": json.RawMessage(c.Arguments)})
		}
		return http.StatusOK, map[string]any{
			"id": "msg_fake", "type": "message", "role": "assistant", "model": *req.Model,
			"content": content, "stop_reason": "tool_use", "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": in, "output_tokens": 20},
		}, nil
	}
	text, stop := s.replyText(q), "end_turn"
	if s.Truncate {
		text, stop = text[:len(text)/2], "max_tokens"
	}
	return http.StatusOK, map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": *req.Model,
		"content":     []any{map[string]any{"type": "text", "text": text}},
		"stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": in, "output_tokens": 12},
	}, nil
}
