package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ccLine is one line of a Claude Code session log.
type ccLine struct {
	Type             string `json:"type"`
	Subtype          string `json:"subtype"`
	UUID             string `json:"uuid"`
	ParentUUID       string `json:"parentUuid"`
	Timestamp        string `json:"timestamp"`
	Cwd              string `json:"cwd"`
	IsSidechain      bool   `json:"isSidechain"`
	IsMeta           bool   `json:"isMeta"`
	IsCompactSummary bool   `json:"isCompactSummary"`
	Message          *struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	Summary         string          `json:"summary"`
	Content         json.RawMessage `json:"content"`
	Operation       string          `json:"operation"` // a queue-operation's
	Reason          string          `json:"reason"`    // a queue-operation remove's (absorbed_mid_turn)
	CompactMetadata *struct {
		Trigger   string `json:"trigger"`
		PreTokens int    `json:"preTokens"`
	} `json:"compactMetadata"`
}

// ccDecoded is a Claude Code line decoded by a worker.
type ccDecoded struct {
	l       ccLine
	content *content // user and assistant messages
	summary string   // a compact summary's text
}

func decodeClaudeCode(line []byte) (any, error) { return decodeLine(line, false) }

// decodeLine decodes a line; the messages of sidechain lines only when
// sidechain is true.
func decodeLine(line []byte, sidechain bool) (any, error) {
	d := &ccDecoded{}
	if err := json.Unmarshal(line, &d.l); err != nil {
		return nil, err
	}
	l := &d.l
	if l.Type == "" {
		return nil, errors.New(`no "type" field`)
	}
	if (l.Type == "user" || l.Type == "assistant") && (!l.IsSidechain || sidechain) && !l.IsMeta {
		if l.Message == nil {
			return nil, errors.New(`no "message" field`)
		}
		var err error
		if l.IsCompactSummary {
			d.summary, _, err = textOf(l.Message.Content)
		} else {
			d.content, err = parseContent(l.Message.Content)
		}
		if err != nil {
			return nil, err
		}
		l.Message.Content = nil
	}
	return d, nil
}

// parseClaudeCode reads a Claude Code session log in file order. Sidechain
// (sub-agent) lines and meta lines are dropped and counted; a compact
// boundary and the compact summary that follows it become one recorded
// compaction (recorded.go); a "summary" line becomes a note.
func parseClaudeCode(br *bufio.Reader, b *builder) error {
	children := map[string]int{}
	branches := 0
	queue := &ccQueue{}
	side := sidechainOnly(br)
	if side {
		b.warns = append(b.warns, "every message of the log is a sidechain (isSidechain): it is a subagent's transcript, imported as the subagent's session")
	}
	decode := decodeClaudeCode
	if side {
		decode = decodeSidechain
	}
	err := forEachLine(br, b.opts.MaxLineBytes, decode, func(n int, v any, err error) error {
		if err == nil {
			d := v.(*ccDecoded)
			if side {
				// The subagent's lines are the session; a main-chain line
				// after them is what is dropped.
				if d.l.IsSidechain {
					d.l.IsSidechain = false
				} else if d.l.Type == "user" || d.l.Type == "assistant" {
					b.drop("main-chain lines in a subagent's transcript")
					return nil
				}
			}
			if d.l.Type == "queue-operation" {
				err = b.ccQueueOperation(queue, &d.l)
			} else {
				err = claudeCodeLine(b, d, children, &branches)
			}
		}
		if err != nil {
			return b.malformedLine(n, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if n := len(queue.texts); n > 0 {
		b.counts["messages typed while the agent worked that the log never delivers (queue-operation enqueue with no dequeue or remove)"] += n
	}
	if branches > 0 {
		b.warns = append(b.warns, fmt.Sprintf("the log branches %d times (rewinds or retries); every branch was imported in file order", branches))
	}
	return nil
}

func claudeCodeLine(b *builder, d *ccDecoded, children map[string]int, branches *int) error {
	l := &d.l
	b.stamp(l.Timestamp)
	b.setRoot(l.Cwd)
	if l.ParentUUID != "" && !l.IsSidechain && (l.Type == "user" || l.Type == "assistant") {
		children[l.ParentUUID]++
		if children[l.ParentUUID] == 2 {
			*branches++
		}
	}
	switch l.Type {
	case "user", "assistant":
		if l.IsSidechain {
			b.drop("sub-agent (sidechain) lines")
			return nil
		}
		if l.IsMeta {
			b.drop("meta lines (injected by the client)")
			return nil
		}
		if l.IsCompactSummary {
			return b.compaction(d.summary, compactionMeta{timestamp: l.Timestamp}, -1)
		}
		role := l.Message.Role
		if role == "" {
			role = l.Type
		}
		return b.addContent(role, d.content)
	case "summary":
		if strings.TrimSpace(l.Summary) == "" {
			b.drop("empty summary lines")
			return nil
		}
		return b.note(l.Summary)
	case "system":
		if l.Subtype == "compact_boundary" {
			m := compactionMeta{timestamp: l.Timestamp}
			if cm := l.CompactMetadata; cm != nil {
				m.trigger, m.preTokens = cm.Trigger, cm.PreTokens
			}
			return b.compactionStart(m)
		}
		b.drop("system lines of subtype " + orDash(l.Subtype))
		return nil
	}
	b.drop("lines of type " + l.Type)
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// decodeSidechain decodes a line of a subagent's transcript: as any line,
// its sidechain messages included.
func decodeSidechain(line []byte) (any, error) { return decodeLine(line, true) }

// sidechainOnly reports a log whose user and assistant lines, as far as
// the start of the input shows (up to the peek size), are all sidechain:
// a subagent's transcript, which Claude Code writes to a file of its own.
func sidechainOnly(br *bufio.Reader) bool {
	head, _ := br.Peek(peekSize)
	side, main := 0, 0
	for _, line := range bytes.Split(head, []byte("\n")) {
		var l struct {
			Type        string `json:"type"`
			IsSidechain bool   `json:"isSidechain"`
		}
		if json.Unmarshal(line, &l) != nil || (l.Type != "user" && l.Type != "assistant") {
			continue
		}
		if l.IsSidechain {
			side++
		} else {
			main++
		}
	}
	return side > 0 && main == 0
}
