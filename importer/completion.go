package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// A completion log records a request (its messages) with the reply the
// model gave to it: the last assistant turn of the session, often with
// the closing tool call, is only in the reply. completionKeys are the
// members beside the messages that may hold it.
var completionKeys = map[string]bool{"choices": true, "response": true, "completion": true}

// completionReply returns the reply a completion log holds in obj (an
// object's members): the first choice's message of a Chat Completions
// response (obj.choices, obj.response.choices, obj.response.body.choices
// as the Batch API writes it, obj.completion.choices), or a response
// that is itself an assistant message (Anthropic's, or a logger's). n is
// the number of choices.
func completionReply(obj map[string]json.RawMessage) (reply json.RawMessage, n int) {
	if r, n := firstChoice(obj["choices"]); r != nil {
		return r, n
	}
	for _, k := range []string{"response", "completion"} {
		var inner map[string]json.RawMessage
		if json.Unmarshal(obj[k], &inner) != nil {
			continue
		}
		if r, n := firstChoice(inner["choices"]); r != nil {
			return r, n
		}
		var body map[string]json.RawMessage
		if json.Unmarshal(inner["body"], &body) == nil {
			if r, n := firstChoice(body["choices"]); r != nil {
				return r, n
			}
		}
		var role string
		if json.Unmarshal(inner["role"], &role) == nil && role == "assistant" {
			return obj[k], 1
		}
	}
	return nil, 0
}

// firstChoice returns choices[0].message and the number of choices.
func firstChoice(raw json.RawMessage) (json.RawMessage, int) {
	var choices []struct {
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(raw, &choices) != nil || len(choices) == 0 || len(bytes.TrimSpace(choices[0].Message)) == 0 {
		return nil, 0
	}
	return choices[0].Message, len(choices)
}

// addReply adds the reply of a completion log after the request's
// messages, unless the messages already end with it (a log that also
// appends the reply to the conversation). It says so in a count, and
// warns when the response held several choices.
func (b *builder) addReply(d chatDialect, obj map[string]json.RawMessage) error {
	reply, n := completionReply(obj)
	if reply == nil {
		return nil
	}
	if b.lastMessage != nil && sameMessage(b.lastMessage, reply) {
		b.drop("completion replies already the last message (kept once)")
		return nil
	}
	if n > 1 {
		b.warns = append(b.warns, fmt.Sprintf("the completion holds %d choices; the first is kept as the reply", n))
	}
	b.counts["completion replies kept after the request's messages"]++
	return b.message(d, reply)
}

// sameMessage reports whether two messages have the same role, content
// and tool calls, whatever their other members and key order.
func sameMessage(a, b json.RawMessage) bool {
	norm := func(raw json.RawMessage) string {
		var m struct {
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			ToolCalls json.RawMessage `json:"tool_calls"`
		}
		if json.Unmarshal(raw, &m) != nil {
			return ""
		}
		var c, t bytes.Buffer
		json.Compact(&c, m.Content)
		json.Compact(&t, m.ToolCalls)
		return m.Role + "\x00" + c.String() + "\x00" + t.String()
	}
	na := norm(a)
	return na != "" && na == norm(b)
}
