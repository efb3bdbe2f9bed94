package providerfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

type rItem struct {
	Type             string          `json:"type"`
	ID               string          `json:"id"`
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	CallID           string          `json:"call_id"`
	Name             string          `json:"name"`
	Arguments        *string         `json:"arguments"`
	Output           *string         `json:"output"`
	EncryptedContent *string         `json:"encrypted_content"`
}

type rRequest struct {
	Model        *string           `json:"model"`
	Input        json.RawMessage   `json:"input"`
	Instructions string            `json:"instructions"`
	Tools        []json.RawMessage `json:"tools"`
	ToolChoice   json.RawMessage   `json:"tool_choice"`
}

// readInput checks a Responses API input and returns its texts, the user
// messages (kept by compaction) and whether it replays a compaction item.
func (s *Server) readInput(req *rRequest) (texts []string, users []string, compacted bool, err error) {
	if req.Model == nil || *req.Model == "" {
		return nil, nil, false, errf("Missing required parameter: 'model'.")
	}
	if req.Instructions != "" {
		texts = append(texts, req.Instructions)
	}
	var items []rItem
	if err := json.Unmarshal(req.Input, &items); err != nil {
		var str string
		if json.Unmarshal(req.Input, &str) != nil {
			return nil, nil, false, errf("Invalid type for 'input': expected a string or an array of input items.")
		}
		return append(texts, str), []string{str}, false, nil
	}
	if len(items) == 0 {
		return nil, nil, false, errf("Invalid 'input': empty array.")
	}
	calls := map[string]bool{}
	for i, it := range items {
		switch it.Type {
		case "message", "":
			switch it.Role {
			case "user", "assistant", "system", "developer":
			default:
				return nil, nil, false, errf("Invalid value for 'input[%d].role': %q.", i, it.Role)
			}
			t, ok := messageText(it.Content)
			if !ok {
				return nil, nil, false, errf("Invalid 'input[%d].content': expected a string or content parts.", i)
			}
			texts = append(texts, t)
			if it.Role == "user" {
				users = append(users, t)
			}
		case "function_call":
			if it.CallID == "" || !idRE.MatchString(it.Name) || it.Arguments == nil {
				return nil, nil, false, errf("Invalid 'input[%d]': a function_call needs call_id, name and arguments.", i)
			}
			calls[it.CallID] = true
			texts = append(texts, it.Name+" "+*it.Arguments)
		case "function_call_output":
			if !calls[it.CallID] {
				return nil, nil, false, errf("No tool call found for function call output with call_id %s.", it.CallID)
			}
			if it.Output == nil {
				return nil, nil, false, errf("Missing required parameter: 'input[%d].output'.", i)
			}
			texts = append(texts, *it.Output)
		case "compaction":
			if it.EncryptedContent == nil {
				return nil, nil, false, errf("Missing required parameter: 'input[%d].encrypted_content'.", i)
			}
			summary, ok := s.redeem(*it.EncryptedContent)
			if !ok {
				return nil, nil, false, errf("The encrypted content for item input[%d] could not be verified.", i)
			}
			compacted = true
			texts = append(texts, summary)
		default:
			return nil, nil, false, errf("Invalid value for 'input[%d].type': %q.", i, it.Type)
		}
	}
	return texts, users, compacted, nil
}

func messageText(raw json.RawMessage) (string, bool) {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str, true
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil || len(parts) == 0 {
		return "", false
	}
	var b []string
	for _, p := range parts {
		if p.Type != "input_text" && p.Type != "output_text" {
			return "", false
		}
		b = append(b, p.Text)
	}
	return strings.Join(b, ""), true
}

func (s *Server) openAIAuth(h http.Header) error {
	if s.OpenAIKey != "" && h.Get("Authorization") != "Bearer "+s.OpenAIKey {
		return errf("Incorrect API key provided.")
	}
	return nil
}

func usage(in, out int) map[string]any {
	return map[string]any{"input_tokens": in, "output_tokens": out, "total_tokens": in + out,
		"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
}

// compact serves POST /v1/responses/compact: the user messages are kept,
// everything else becomes one opaque compaction item.
func (s *Server) compact(h http.Header, body []byte) (int, any, error) {
	if err := s.openAIAuth(h); err != nil {
		return http.StatusUnauthorized, nil, err
	}
	var req rRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return http.StatusBadRequest, nil, errf("We could not parse the JSON body of your request.")
	}
	if len(req.Tools) > 0 || len(req.ToolChoice) > 0 {
		return http.StatusBadRequest, nil, errf("Unknown parameter: 'tools'.")
	}
	texts, users, _, err := s.readInput(&req)
	if err != nil {
		return http.StatusBadRequest, nil, err
	}
	summary := s.summarize(texts)
	enc := s.issue("gAAAA", summary)
	var output []any
	for i, u := range users {
		output = append(output, map[string]any{"id": "msg_fake_" + string(rune('a'+i%26)), "type": "message", "status": "completed", "role": "user",
			"content": []any{map[string]any{"type": "input_text", "text": u}}})
	}
	if !s.NoCompactionItem {
		output = append(output, map[string]any{"id": "cmp_fake", "type": "compaction", "encrypted_content": enc})
	}
	return http.StatusOK, map[string]any{
		"id": "resp_fake_compaction", "object": "response.compaction", "created_at": 1764547200,
		"output": output, "usage": usage(tokens(strings.Join(texts, "\n")), tokens(summary)),
	}, nil
}

// responses serves POST /v1/responses.
func (s *Server) responses(h http.Header, body []byte) (int, any, error) {
	if err := s.openAIAuth(h); err != nil {
		return http.StatusUnauthorized, nil, err
	}
	var req rRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return http.StatusBadRequest, nil, errf("We could not parse the JSON body of your request.")
	}
	var names []string
	for i, t := range req.Tools {
		var v struct {
			Type string `json:"type"`
			Name string `json:"name"`
		}
		if json.Unmarshal(t, &v) != nil || v.Type != "function" || !idRE.MatchString(v.Name) {
			return http.StatusBadRequest, nil, errf("Invalid 'tools[%d]'.", i)
		}
		if slices.Contains(names, v.Name) {
			return http.StatusBadRequest, nil, errf("Invalid 'tools': duplicate function name %q.", v.Name)
		}
		names = append(names, v.Name)
	}
	if len(req.ToolChoice) > 0 {
		var choice string
		if json.Unmarshal(req.ToolChoice, &choice) != nil || (choice != "none" && choice != "auto" && choice != "required") {
			return http.StatusBadRequest, nil, errf("Invalid value for 'tool_choice'.")
		}
		if choice == "none" {
			names = nil
		}
	}
	texts, _, compacted, err := s.readInput(&req)
	if err != nil {
		return http.StatusBadRequest, nil, err
	}
	q := question("responses", texts, compacted)
	q.Tools = names
	calls, err := s.calls(q)
	if err != nil {
		return http.StatusInternalServerError, nil, err
	}
	if len(calls) > 0 {
		var output []any
		for i, c := range calls {
			n := fmt.Sprintf("%d_%d", s.Count(""), i)
			output = append(output, map[string]any{"id": "fc_fake_" + n, "type": "function_call", "status": "completed",
				"call_id": "call_fake_" + n, "name": c.Name, "arguments": c.Arguments})
		}
		return http.StatusOK, map[string]any{
			"id": "resp_fake", "object": "response", "created_at": 1764547200, "status": "completed", "model": *req.Model,
			"output": output, "usage": usage(tokens(strings.Join(texts, "\n")), 20),
		}, nil
	}
	text := s.replyText(q)
	reply := map[string]any{
		"id": "resp_fake", "object": "response", "created_at": 1764547200, "status": "completed", "model": *req.Model,
		"output": []any{map[string]any{"id": "msg_fake", "type": "message", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}},
		"usage": usage(tokens(strings.Join(texts, "\n")), 12),
	}
	if s.Truncate {
		reply["status"], reply["incomplete_details"] = "incomplete", map[string]any{"reason": "max_output_tokens"}
		reply["output"] = []any{map[string]any{"id": "msg_fake", "type": "message", "status": "incomplete", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": text[:len(text)/2], "annotations": []any{}}}}}
	}
	return http.StatusOK, reply, nil
}
