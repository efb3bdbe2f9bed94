package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
	"github.com/compact-eval/compact-eval/scenarios"
)

// codexLine is one line of a Codex CLI rollout file. Older rollouts write
// response items at the top level, with no payload.
type codexLine struct {
	Timestamp string     `json:"timestamp"`
	Type      string     `json:"type"`
	Payload   *codexItem `json:"payload"`
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
	Trigger   string          `json:"trigger"` // compacted, where a version writes it
	Cwd       string          `json:"cwd"`     // session_meta's and turn_context's
	// Source is a session_meta's: "cli", or the subagent spawn that
	// started the session ({"subagent": {"thread_spawn": {…}}}).
	Source json.RawMessage `json:"source"`
	// Info is a token_count event's: the last request's token usage.
	Info *struct {
		LastTokenUsage *struct {
			TotalTokens int `json:"total_tokens"`
		} `json:"last_token_usage"`
	} `json:"info"`
	// Legacy rollouts.
	RecordType   string `json:"record_type"`
	Instructions string `json:"instructions"`
}

// codexDecoded is a rollout line decoded by a worker.
type codexDecoded struct {
	l      codexLine
	item   *codexItem // the response item (legacy rollouts: the line itself)
	text   string     // a message's text or a call output's text
	status string     // a call output's status
	drops  []string
}

func decodeCodex(line []byte) (any, error) {
	d := &codexDecoded{}
	if err := json.Unmarshal(line, &d.l); err != nil {
		return nil, err
	}
	switch d.l.Type {
	case "session_meta", "turn_context", "event_msg", "compacted":
		return d, nil
	case "response_item":
		if d.l.Payload == nil {
			return nil, errors.New("response_item line without a payload")
		}
		d.item = d.l.Payload
	default:
		if d.l.Payload != nil {
			return d, nil
		}
		// Legacy rollout: the line is the item itself.
		d.item = &codexItem{}
		if err := json.Unmarshal(line, d.item); err != nil {
			return nil, err
		}
	}
	var err error
	switch d.item.Type {
	case "message":
		d.text, d.drops, err = textOf(d.item.Content)
	case "function_call_output", "custom_tool_call_output":
		d.text, d.status = codexOutput(d.item.Output)
	}
	d.item.Content, d.item.Output = nil, nil
	return d, err
}

// parseCodex reads a Codex rollout: messages, function/custom/local-shell
// calls and their outputs; compacted items become recorded compactions
// (the context size of the last token_count event before one is its
// pre-compaction size); session metadata,
// turn contexts, reasoning and event messages (which repeat the response
// items for the UI) are dropped and counted.
func parseCodex(br *bufio.Reader, b *builder) error {
	err := forEachLine(br, b.opts.MaxLineBytes, decodeCodex, func(n int, v any, err error) error {
		if err == nil {
			err = codexRecord(b, v.(*codexDecoded))
		}
		if err != nil {
			return b.malformedLine(n, err)
		}
		return nil
	})
	if n := b.compactionEvents - b.compactedItems; err == nil && n > 0 {
		// A remote compaction keeps its summary encrypted: the log says
		// a compaction happened and holds nothing to audit.
		b.warns = append(b.warns, fmt.Sprintf("%d compaction events (context_compacted) with no compacted item holding their summary (a remote compaction keeps it encrypted): nothing to audit", n))
	}
	return err
}

func codexRecord(b *builder, d *codexDecoded) error {
	b.stamp(d.l.Timestamp)
	switch d.l.Type {
	case "session_meta", "turn_context":
		if d.l.Type == "session_meta" && d.l.Payload != nil {
			b.spawnCall = codexSpawnCall(d.l.Payload.Source)
		}
		if d.l.Payload != nil {
			b.setRoot(d.l.Payload.Cwd)
		}
		b.drop(d.l.Type + " lines")
		return nil
	case "event_msg":
		if p := d.l.Payload; p != nil && p.Type == "token_count" && p.Info != nil && p.Info.LastTokenUsage != nil {
			b.lastTokens = p.Info.LastTokenUsage.TotalTokens
		}
		if p := d.l.Payload; p != nil && p.Type == "context_compacted" {
			b.compactionEvents++
		}
		b.drop("event_msg lines (UI events repeating the response items)")
		return nil
	case "compacted":
		p := d.l.Payload
		if p == nil {
			return errors.New("compacted line without a payload")
		}
		b.compactedItems++
		return b.compaction(p.Message, compactionMeta{trigger: p.Trigger, preTokens: b.lastTokens, timestamp: d.l.Timestamp}, -1)
	}
	if d.item == nil {
		b.drop("lines of type " + d.l.Type)
		return nil
	}
	for _, x := range d.drops {
		b.drop(x)
	}
	return codexResponseItem(b, d)
}

func codexResponseItem(b *builder, d *codexDecoded) error {
	it := d.item
	switch it.Type {
	case "message":
		role, ok := chatRole(it.Role)
		if !ok {
			b.drop("messages with role " + it.Role)
			return nil
		}
		if role == scenarios.RoleUser && injectedContext(d.text) {
			// Context the CLI injects as a user message is not the user's
			// word; AGENTS.md, which it injects too, is (the user wrote
			// the file): it stays a user turn, read for the user's rules.
			role = scenarios.RoleSystem
		}
		return b.text(role, d.text)
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
		return b.result(it.CallID, d.status, d.text)
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

// codexSpawnCall returns the id of the call that spawned a Codex
// subagent's session from a session_meta's source, "" for any other
// session. A subagent forked with its parent's history replays that
// history up to the spawn call, whose output only the parent's log holds.
func codexSpawnCall(source json.RawMessage) string {
	var src struct {
		Subagent struct {
			ThreadSpawn struct {
				SpawnCallID string `json:"spawn_call_id"`
			} `json:"thread_spawn"`
		} `json:"subagent"`
	}
	if len(source) == 0 || source[0] != '{' || json.Unmarshal(source, &src) != nil {
		return ""
	}
	return src.Subagent.ThreadSpawn.SpawnCallID
}

// injectedContext reports whether a user message is context the Codex CLI
// adds by itself (the environment, the permissions, the mode), not a
// project instruction file.
func injectedContext(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range []string{"<environment_context>", "<permissions instructions>", "<collaboration_mode>", "<apps_instructions>", "<skills_instructions>", "<plugins_instructions>"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

var exitCodeLine = lazyre.New(`(?m)^(?:Exit code|Process exited with code):? (-?\d+)`)

// codexOutput reads a function call output: a string that may hold JSON
// {"output": …, "metadata": {"exit_code": N}}, or plain text that may start
// with "Exit code: N"; a list of content items; or an object
// {"content": …, "success": bool}.
func codexOutput(raw json.RawMessage) (string, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		s, ok := unquoteJSON(raw)
		if !ok && json.Unmarshal(raw, &s) != nil {
			return string(raw), scenarios.StatusOK
		}
		if text, status, ok := wrappedOutput(s); ok {
			return text, status
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
	if len(raw) > 0 && raw[0] == '[' {
		// Newer rollouts: a list of content items (input_text, input_image).
		if text, _, err := textOf(raw); err == nil {
			return text, scenarios.StatusOK
		}
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

// wrappedOutput reads the common shape {"output":"…","metadata":{"exit_code":N,…}}
// without a second full JSON pass; it reports false for any other shape.
func wrappedOutput(s string) (text, status string, ok bool) {
	const prefix = `{"output":`
	if !strings.HasPrefix(s, prefix) {
		return "", "", false
	}
	rest := s[len(prefix):]
	end := stringEnd(rest)
	if end < 0 {
		return "", "", false
	}
	text, ok = unquoteJSON([]byte(rest[:end]))
	if !ok {
		return "", "", false
	}
	rest = rest[end:]
	if !strings.HasSuffix(rest, "}") || len(rest) > 4096 {
		return "", "", false
	}
	var meta struct {
		Metadata struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	if rest != "}" {
		if rest[0] != ',' || json.Unmarshal([]byte("{"+rest[1:]), &meta) != nil {
			return "", "", false
		}
	}
	status = scenarios.StatusOK
	if c := meta.Metadata.ExitCode; c != nil && *c != 0 {
		status = scenarios.StatusError
	}
	return text, status, true
}
