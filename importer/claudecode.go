package importer

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ccLine is one line of a Claude Code session log.
type ccLine struct {
	Type             string `json:"type"`
	Subtype          string `json:"subtype"`
	UUID             string `json:"uuid"`
	ParentUUID       string `json:"parentUuid"`
	Timestamp        string `json:"timestamp"`
	IsSidechain      bool   `json:"isSidechain"`
	IsMeta           bool   `json:"isMeta"`
	IsCompactSummary bool   `json:"isCompactSummary"`
	Message          *struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	Summary         string          `json:"summary"`
	Content         json.RawMessage `json:"content"`
	CompactMetadata *struct {
		Trigger   string `json:"trigger"`
		PreTokens int    `json:"preTokens"`
	} `json:"compactMetadata"`
}

// parseClaudeCode reads a Claude Code session log in file order. Sidechain
// (sub-agent) lines and meta lines are dropped and counted; a compact
// boundary and the compact summary that follows it become one note; a
// "summary" line becomes a note too.
func parseClaudeCode(br *bufio.Reader, b *builder) error {
	lr := newLineReader(br, b.opts.MaxLineBytes)
	children := map[string]int{}
	branches := 0
	var l ccLine
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			return fmt.Errorf("reading input: %w", err)
		}
		if err == nil && len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		if err == nil {
			l = ccLine{}
			err = json.Unmarshal(line, &l)
			if err == nil && l.Type == "" {
				err = errors.New(`no "type" field`)
			}
		}
		if err != nil {
			if err := b.malformedLine(lr.line, err); err != nil {
				return err
			}
			continue
		}
		if err := claudeCodeLine(b, &l, children, &branches); err != nil {
			if err := b.malformedLine(lr.line, err); err != nil {
				return err
			}
		}
	}
	if branches > 0 {
		b.warns = append(b.warns, fmt.Sprintf("the log branches %d times (rewinds or retries); every branch was imported in file order", branches))
	}
	return nil
}

func claudeCodeLine(b *builder, l *ccLine, children map[string]int, branches *int) error {
	b.stamp(l.Timestamp)
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
		if l.Message == nil {
			return errors.New(`no "message" field`)
		}
		if l.IsCompactSummary {
			s, err := b.contentText(l.Message.Content)
			if err != nil {
				return err
			}
			return b.compactionNote(s)
		}
		if l.IsMeta {
			b.drop("meta lines (injected by the client)")
			return nil
		}
		role := l.Message.Role
		if role == "" {
			role = l.Type
		}
		return b.anthropicContent(role, l.Message.Content)
	case "summary":
		if strings.TrimSpace(l.Summary) == "" {
			b.drop("empty summary lines")
			return nil
		}
		return b.compactionNote(l.Summary)
	case "system":
		if l.Subtype == "compact_boundary" {
			desc := "conversation compacted here"
			if m := l.CompactMetadata; m != nil {
				desc = fmt.Sprintf("conversation compacted here (trigger %s, %d tokens before)", orDash(m.Trigger), m.PreTokens)
			}
			b.boundary(desc)
			return nil
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
