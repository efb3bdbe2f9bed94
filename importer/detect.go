package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// peekSize is how much of the input detection may look at.
const peekSize = 1 << 20

// Detection is what Detect found: the format, and for a file whose chat
// messages sit below the top level (records of a benchmark, an export
// wrapper), the JSON pointer to them within each record.
type Detection struct {
	Format Format
	// MessagesPath is the pointer to the messages inside each record
	// ("" when the messages are where the format expects them).
	MessagesPath string
	// Records is true when the input holds several sessions, one a record.
	Records bool
}

// String reads like "openai (messages at /traj of each record)".
func (d Detection) String() string {
	s := string(d.Format)
	switch {
	case d.MessagesPath != "" && d.Records:
		s += " (messages at " + d.MessagesPath + " of each record)"
	case d.MessagesPath != "":
		s += " (messages at " + d.MessagesPath + ")"
	case d.Records && d.Format == FormatCompactBench:
		s += " (one case a record)"
	case d.Records:
		s += " (one session a record)"
	}
	return s
}

// Detect looks at the start of the input (at most 1 MiB, without consuming
// it) and names its format. It returns an *InputError when no format fits.
func Detect(br *bufio.Reader) (Format, error) {
	d, err := DetectInput(br)
	return d.Format, err
}

// DetectInput is Detect with where the messages are.
func DetectInput(br *bufio.Reader) (Detection, error) {
	head, err := br.Peek(peekSize)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return Detection{}, fmt.Errorf("reading input: %w", err)
	}
	return detectBytes(head, len(head) < peekSize)
}

func detectBytes(head []byte, whole bool) (Detection, error) {
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(trimmed) == 0 {
		return Detection{}, inputErrorf(0, "cannot detect the format: the input is empty")
	}
	switch trimmed[0] {
	case '[':
		return detectDocument(trimmed)
	case '{':
	default:
		return Detection{}, inputErrorf(0, "cannot detect the format: the input is not JSON or JSONL")
	}
	if !isJSONL(trimmed, whole) && !mostlyLines(trimmed) && !anyLineFormat(trimmed) {
		return detectDocument(trimmed)
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
			continue // a malformed line
		}
		if f, ok := lineFormat(obj); ok {
			return Detection{Format: f}, nil
		}
		if _, ok := obj["resourceSpans"]; ok {
			return Detection{Format: FormatOTel}, nil // OTLP JSON, one request a line
		}
		if isLangSmithRun(obj) {
			return Detection{Format: FormatLangSmith}, nil // LangSmith runs, one a line
		}
		sh := shapeOf(line)
		if isCompactBenchCase(sh, "") {
			return Detection{Format: FormatCompactBench, Records: !oneLine(trimmed, whole)}, nil
		}
		if isOHEvent(sh[""]) {
			return Detection{Format: FormatOpenHands}, nil
		}
		if oneLine(trimmed, whole) {
			return detectDocument(trimmed) // one document that fits on a line
		}
		if isOHEvent(sh["/history/*"]) || isOHEvent(sh["/events/*"]) || ohPairs(sh, "/history") {
			return Detection{Format: FormatOpenHands, Records: true}, nil
		}
		if _, ok := obj["role"]; ok {
			return Detection{Format: chatMarkers(trimmed)}, nil
		}
		if _, ok := obj["messages"]; ok {
			return Detection{Format: chatMarkers(trimmed), Records: true}, nil
		}
		if ps := sh.messagesPaths(); len(ps) > 0 {
			return Detection{Format: chatMarkers(trimmed), MessagesPath: ps[0], Records: true}, nil
		}
	}
	return Detection{Format: chatMarkers(trimmed)}, nil
}

// detectDocument recognises one JSON document by the shape of its start.
func detectDocument(t []byte) (Detection, error) {
	sh := shapeOf(t)
	top := sh[""]
	if _, ok := top["resourceSpans"]; ok {
		return Detection{Format: FormatOTel}, nil // OTLP JSON trace data
	}
	if isLangSmithShape(top) || isLangSmithShape(sh["/*"]) || isLangSmithShape(sh["/runs/*"]) {
		return Detection{Format: FormatLangSmith}, nil // LangSmith runs
	}
	switch {
	case isCompactBenchCase(sh, ""):
		return Detection{Format: FormatCompactBench}, nil
	case isCompactBenchCase(sh, "/*"):
		return Detection{Format: FormatCompactBench, Records: true}, nil
	case isSWEHistory(sh["/history/*"]) || isSWEHistory(sh["/trajectory/*"]) || isMiniSWEAgent(sh):
		return Detection{Format: FormatSWEAgent}, nil
	case isOHEvent(sh["/*"]) || ohPairs(sh, ""):
		return Detection{Format: FormatOpenHands}, nil
	case isOHEvent(sh["/history/*"]) || isOHEvent(sh["/events/*"]) || isOHEvent(sh["/trajectory/*"]) || ohPairs(sh, "/history"):
		return Detection{Format: FormatOpenHands}, nil
	case isOHEvent(sh["/*/history/*"]) || isOHEvent(sh["/*/events/*"]) || ohPairs(sh, "/*/history"):
		return Detection{Format: FormatOpenHands, Records: true}, nil
	}
	if t[0] == '[' {
		if chatRoles[sh["/*"]["role"]] {
			if isMiniMessages(t) {
				return Detection{Format: FormatSWEAgent}, nil
			}
			return Detection{Format: chatMarkers(t)}, nil
		}
		// An array of records: messages somewhere inside each.
		for _, p := range sh.messagesPaths() {
			if strings.HasPrefix(p, "/*/") && !strings.Contains(p[3:], "*") {
				return Detection{Format: chatMarkers(t), MessagesPath: p[2:], Records: true}, nil
			}
		}
		if sh["/*"] == nil {
			if _, ok := sh["/*/*"]; ok {
				return Detection{Format: chatMarkers(t), Records: true}, nil // conversations
			}
			return Detection{Format: chatMarkers(t)}, nil
		}
		return Detection{}, inputErrorf(0, "cannot detect the format: a JSON array of objects with neither chat messages nor agent events (name the format with --from, and the messages with --messages-path)")
	}
	if _, ok := top["messages"]; ok || top == nil {
		return Detection{Format: chatMarkers(t)}, nil
	}
	for _, p := range sh.messagesPaths() {
		if !strings.Contains(p, "*") {
			return Detection{Format: chatMarkers(t), MessagesPath: p}, nil
		}
	}
	return Detection{Format: chatMarkers(t)}, nil
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

// mostlyLines reports whether at least two of the first 20 lines are whole
// JSON objects: JSONL whose first line is broken. (A pretty-printed
// document has at most one such line, its last element.)
func mostlyLines(t []byte) bool {
	n := 0
	for i := 0; i < 20 && len(t) > 0; i++ {
		line := t
		if j := bytes.IndexByte(t, '\n'); j >= 0 {
			line, t = t[:j], t[j+1:]
		} else {
			t = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] == '{' && json.Valid(line) {
			n++
		}
	}
	return n >= 2
}

// anyLineFormat reports whether one of the first 20 lines is a line of a
// session log (Claude Code, Codex).
func anyLineFormat(t []byte) bool {
	for i := 0; i < 20 && len(t) > 0; i++ {
		line := t
		if j := bytes.IndexByte(t, '\n'); j >= 0 {
			line, t = t[:j], t[j+1:]
		} else {
			t = nil
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(bytes.TrimSpace(line), &obj) == nil {
			if _, ok := lineFormat(obj); ok {
				return true
			}
		}
	}
	return false
}

// oneLine reports whether the whole input is a single line.
func oneLine(t []byte, whole bool) bool {
	i := bytes.IndexByte(t, '\n')
	return whole && (i < 0 || len(bytes.TrimSpace(t[i+1:])) == 0)
}

// isMiniSWEAgent reports whether a document is a mini-swe-agent trajectory:
// {info: {…, mini_version}, messages, trajectory_format: "mini-swe-agent-…"}
// (the format name comes last, so a large file is known by its info).
func isMiniSWEAgent(sh shape) bool {
	if _, ok := sh[""]["messages"]; !ok {
		return false
	}
	_, version := sh["/info"]["mini_version"]
	return version || strings.HasPrefix(sh[""]["trajectory_format"], "mini-swe-agent")
}

// isMiniMessages reports a bare array of chat messages that is a
// mini-swe-agent trajectory saved without its wrapper: no tool calls, the
// commands in fenced bash blocks, and the outputs in the user messages
// that open with mini-swe-agent's "<returncode>".
func isMiniMessages(t []byte) bool {
	rc := bytes.Contains(t, []byte("<returncode>")) || bytes.Contains(t, []byte(`\u003creturncode\u003e`))
	return rc && !bytes.Contains(t, []byte(`"tool_calls"`)) &&
		(bytes.Contains(t, []byte("```bash")) || bytes.Contains(t, []byte("```mswea_bash_command")))
}

// isLangSmithShape recognises a LangSmith run by its keys: a run_type with
// inputs or outputs.
func isLangSmithShape(keys map[string]string) bool {
	_, typ := keys["run_type"]
	_, in := keys["inputs"]
	_, out := keys["outputs"]
	return typ && (in || out)
}

// isLangSmithRun is isLangSmithShape for a decoded JSONL line (a run, or
// the runs query's answer).
func isLangSmithRun(obj map[string]json.RawMessage) bool {
	keys := map[string]string{}
	for k := range obj {
		keys[k] = ""
	}
	if isLangSmithShape(keys) {
		return true
	}
	runs := lsList(obj["runs"])
	if len(runs) == 0 {
		return false
	}
	var first map[string]json.RawMessage
	if json.Unmarshal(runs[0], &first) != nil {
		return false
	}
	keys = map[string]string{}
	for k := range first {
		keys[k] = ""
	}
	return isLangSmithShape(keys)
}
