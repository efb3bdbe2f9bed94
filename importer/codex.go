package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/scenarios"
)

// codexLine is one line of a Codex CLI rollout file. Older rollouts write
// response items at the top level, with no payload.
type codexLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// codexItem is a response item (and the few other payloads the importer
// reads).
type codexItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	ID        string          `json:"id"`
	Output    json.RawMessage `json:"output"`
	Action    json.RawMessage `json:"action"`
	Status    string          `json:"status"`
	Message   string          `json:"message"` // compacted
	// Legacy rollouts.
	RecordType   string `json:"record_type"`
	Instructions string `json:"instructions"`
}

// parseCodex reads a Codex rollout: messages, function/custom/local-shell
// calls and their outputs; compacted items become notes; session metadata,
// turn contexts, reasoning and event messages (which repeat the response
// items for the UI) are dropped and counted.
func parseCodex(br *bufio.Reader, b *builder) error {
	lr := newLineReader(br, b.opts.MaxLineBytes)
	for {
		line, err := lr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			return fmt.Errorf("reading input: %w", err)
		}
		if err == nil && len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err == nil {
			err = codexRecord(b, line)
		}
		if err != nil {
			if err := b.malformedLine(lr.line, err); err != nil {
				return err
			}
		}
	}
}

func codexRecord(b *builder, line []byte) error {
	var l codexLine
	if err := json.Unmarshal(line, &l); err != nil {
		return err
	}
	b.stamp(l.Timestamp)
	payload := l.Payload
	typ := l.Type
	switch typ {
	case "session_meta", "turn_context":
		b.drop(typ + " lines")
		return nil
	case "event_msg":
		var ev struct {
			Type string `json:"type"`
		}
		json.Unmarshal(payload, &ev)
		b.drop("event_msg lines (UI events repeating the response items)")
		return nil
	case "compacted":
		var it codexItem
		if err := json.Unmarshal(payload, &it); err != nil {
			return err
		}
		return b.compactionNote(it.Message)
	case "response_item":
	default:
		if len(payload) == 0 {
			// Legacy rollout: the line is the item itself.
			payload = line
			typ = "response_item"
		}
	}
	if typ != "response_item" {
		b.drop("lines of type " + typ)
		return nil
	}
	var it codexItem
	if err := json.Unmarshal(payload, &it); err != nil {
		return err
	}
	return codexResponseItem(b, &it)
}

func codexResponseItem(b *builder, it *codexItem) error {
	switch it.Type {
	case "message":
		text, err := b.contentText(it.Content)
		if err != nil {
			return err
		}
		role, ok := chatRole(it.Role)
		if !ok {
			b.drop("messages with role " + it.Role)
			return nil
		}
		if role == scenarios.RoleUser && injectedContext(text) {
			// Context the CLI injects as a user message is not the user's word.
			role = scenarios.RoleSystem
		}
		return b.text(role, text)
	case "function_call":
		return b.call("", firstOf(it.CallID, it.ID), it.Name, argsJSON(it.Arguments))
	case "custom_tool_call":
		args, _ := json.Marshal(map[string]string{"input": it.Input})
		return b.call("", firstOf(it.CallID, it.ID), it.Name, args)
	case "local_shell_call":
		var args []byte
		if len(it.Action) > 0 {
			args, _ = json.Marshal(map[string]json.RawMessage{"action": it.Action})
		}
		// Its output, when there is one, arrives as a function_call_output.
		return b.call("", firstOf(it.CallID, it.ID), "local_shell", args)
	case "function_call_output", "custom_tool_call_output":
		text, status := codexOutput(it.Output)
		return b.result(it.CallID, status, text)
	case "reasoning":
		b.drop("reasoning items")
		return nil
	case "":
		if it.RecordType != "" {
			b.drop("state records")
			return nil
		}
		if it.Instructions != "" || it.ID != "" {
			b.drop("session_meta lines")
			return nil
		}
		return errors.New(`no "type" field`)
	}
	b.drop("response items of type " + it.Type)
	return nil
}

// injectedContext reports whether a user message is context the Codex CLI
// adds by itself (environment, AGENTS.md instructions).
func injectedContext(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range []string{"<environment_context>", "<user_instructions>", "# AGENTS.md instructions"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

var exitCodeLine = regexp.MustCompile(`(?m)^(?:Exit code|Process exited with code):? (-?\d+)`)

// codexOutput reads a function call output: a string that may hold JSON
// {"output": …, "metadata": {"exit_code": N}}, or plain text that may start
// with "Exit code: N"; or an object {"content": …, "success": bool}.
func codexOutput(raw json.RawMessage) (string, string) {
	raw = bytes.TrimSpace(raw)
	var s string
	if len(raw) > 0 && raw[0] == '"' {
		if json.Unmarshal(raw, &s) != nil {
			return string(raw), scenarios.StatusOK
		}
		var wrapped struct {
			Output   *string `json:"output"`
			Metadata struct {
				ExitCode *int `json:"exit_code"`
			} `json:"metadata"`
		}
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") && json.Unmarshal([]byte(t), &wrapped) == nil && wrapped.Output != nil {
			status := scenarios.StatusOK
			if c := wrapped.Metadata.ExitCode; c != nil && *c != 0 {
				status = scenarios.StatusError
			}
			return *wrapped.Output, status
		}
		status := scenarios.StatusOK
		if m := exitCodeLine.FindStringSubmatch(firstLines(s, 4)); m != nil {
			if c, err := strconv.Atoi(m[1]); err == nil && c != 0 {
				status = scenarios.StatusError
			}
		}
		return s, status
	}
	var obj struct {
		Content json.RawMessage `json:"content"`
		Success *bool           `json:"success"`
	}
	if len(raw) > 0 && raw[0] == '{' && json.Unmarshal(raw, &obj) == nil {
		status := scenarios.StatusOK
		if obj.Success != nil && !*obj.Success {
			status = scenarios.StatusError
		}
		var text string
		if json.Unmarshal(obj.Content, &text) != nil {
			text = string(obj.Content)
		}
		return text, status
	}
	return string(raw), scenarios.StatusOK
}

func firstLines(s string, n int) string {
	i := 0
	for k := 0; k < n; k++ {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s
		}
		i += j + 1
	}
	return s[:i]
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
