package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// peekSize is how much of the input detection may look at.
const peekSize = 1 << 20

// Detect looks at the start of the input (at most 1 MiB, without consuming
// it) and names its format. It returns an *InputError when no format fits.
func Detect(br *bufio.Reader) (Format, error) {
	head, err := br.Peek(peekSize)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return "", fmt.Errorf("reading input: %w", err)
	}
	return detectBytes(head)
}

func detectBytes(head []byte) (Format, error) {
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(trimmed) == 0 {
		return "", inputErrorf(0, "cannot detect the format: the input is empty")
	}
	switch trimmed[0] {
	case '[':
		return chatMarkers(trimmed), nil
	case '{':
	default:
		return "", inputErrorf(0, "cannot detect the format: the input is not JSON or JSONL")
	}
	// Look at the first few lines that parse as JSON objects.
	rest := trimmed
	for i := 0; i < 20 && len(rest) > 0; i++ {
		line := rest
		if j := bytes.IndexByte(rest, '\n'); j >= 0 {
			line, rest = rest[:j], rest[j+1:]
		} else {
			rest = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(line, &obj) != nil {
			continue // a malformed line, or part of a pretty-printed document
		}
		if f, ok := lineFormat(obj); ok {
			return f, nil
		}
	}
	return chatMarkers(trimmed), nil
}

// lineFormat recognises one JSONL line of a session log.
func lineFormat(obj map[string]json.RawMessage) (Format, bool) {
	var typ string
	if raw, ok := obj["type"]; ok {
		json.Unmarshal(raw, &typ)
	}
	_, payload := obj["payload"]
	switch typ {
	case "session_meta", "response_item", "turn_context", "event_msg", "compacted":
		if payload {
			return FormatCodex, true
		}
	case "user", "assistant", "summary", "system", "file-history-snapshot", "queue-operation":
		for _, k := range []string{"uuid", "parentUuid", "sessionId", "leafUuid"} {
			if _, ok := obj[k]; ok {
				return FormatClaudeCode, true
			}
		}
	case "message", "function_call", "function_call_output", "reasoning":
		if _, ok := obj["role"]; !ok || typ != "message" {
			return FormatCodex, true // legacy rollout: response items at top level
		}
	}
	if _, ok := obj["record_type"]; ok {
		return FormatCodex, true
	}
	if _, ok := obj["instructions"]; ok && typ == "" {
		if _, ok := obj["id"]; ok {
			return FormatCodex, true // legacy rollout's first line
		}
	}
	return "", false
}

// chatMarkers tells OpenAI Chat Completions from Anthropic Messages by the
// keys only one of them uses; plain text conversations read the same in both
// and are treated as OpenAI.
func chatMarkers(b []byte) Format {
	anthropic := 0
	openai := 0
	for _, m := range []string{`"tool_use"`, `"tool_result"`, `"tool_use_id"`, `"stop_reason"`, `"thinking"`} {
		anthropic += bytes.Count(b, []byte(m))
	}
	for _, m := range []string{`"tool_calls"`, `"tool_call_id"`, `"function_call"`, `"developer"`, `"tool"`} {
		openai += bytes.Count(b, []byte(m))
	}
	if anthropic > openai {
		return FormatAnthropic
	}
	return FormatOpenAI
}
