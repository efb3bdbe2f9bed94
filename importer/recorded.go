package importer

import (
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/scenarios"
)

// recordedComp is a compaction the log records: where it cut (the number
// of events before it, which is the seq of the last one it covered), the
// summary the agent continued from and its provenance. The scenario keeps
// it under recorded_compactions (docs/import.md, "Recorded compactions").
type recordedComp struct {
	boundary  int
	summary   string
	trigger   string // scenarios.RecordedManual, RecordedAuto or ""
	preTokens int
	timestamp string // RFC 3339, or "" when the log has none (or no zone)
}

// compactionMeta is what a log says about a compaction besides its text.
type compactionMeta struct {
	trigger   string
	preTokens int
	timestamp string
}

// rfc3339 returns s when it is an RFC 3339 time, else "": a time without a
// zone (OpenHands writes local time) cannot be placed, and is left out.
func rfc3339(s string) string {
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		return ""
	}
	return s
}

// normTrigger maps a log's trigger word to manual or auto ("" when it is
// neither).
func normTrigger(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "manual", "user", "slash_command":
		return scenarios.RecordedManual
	case "auto", "automatic", "context_limit", "token_limit":
		return scenarios.RecordedAuto
	}
	return ""
}

// compactionStart records a compaction boundary whose summary text may
// follow (Claude Code's compact_boundary line): it covers every event so
// far. A second boundary before any text leaves the first as a note.
func (b *builder) compactionStart(m compactionMeta) error {
	if err := b.flushPending(); err != nil {
		return err
	}
	b.pending = &recordedComp{boundary: len(b.metas), trigger: normTrigger(m.trigger), preTokens: max(m.preTokens, 0), timestamp: rfc3339(m.timestamp)}
	return nil
}

// compaction records the summary text of a compaction: the one a boundary
// announced, else a compaction of its own covering the first `boundary`
// events (boundary < 0: every event so far). A compaction with no text, or
// before the first event (a session continued from another file), cannot
// be audited: it becomes a system event, a note, as before.
func (b *builder) compaction(summary string, m compactionMeta, boundary int) error {
	c := recordedComp{boundary: boundary, trigger: normTrigger(m.trigger), preTokens: max(m.preTokens, 0), timestamp: rfc3339(m.timestamp)}
	if c.boundary < 0 || c.boundary > len(b.metas) {
		c.boundary = len(b.metas)
	}
	if p := b.pending; p != nil {
		b.pending = nil
		c.boundary = p.boundary
		c.trigger = firstNonEmpty(c.trigger, p.trigger)
		c.timestamp = firstNonEmpty(p.timestamp, c.timestamp)
		if c.preTokens == 0 {
			c.preTokens = p.preTokens
		}
	}
	c.summary = strings.TrimSpace(summary)
	switch {
	case c.summary == "":
		b.counts["compactions with no summary text (kept as notes)"]++
		return b.put(rec{kind: kindText, role: scenarios.RoleSystem, text: "[earlier compaction summary] (the log records a compaction here but not its summary)"})
	case c.boundary == 0:
		b.counts["compactions before the first event, a session continued from another (kept as notes)"]++
		return b.put(rec{kind: kindText, role: scenarios.RoleSystem, text: b.trim("[earlier compaction summary] " + c.summary)})
	}
	if n := len(b.recorded); n > 0 && b.recorded[n-1].boundary >= c.boundary {
		// No event since the last compaction: the later summary is
		// the one the agent continued from.
		b.warns = append(b.warns, fmt.Sprintf("two compactions at seq %d with no event between them: the later one is kept", c.boundary))
		b.recorded[n-1] = c
		return nil
	}
	b.recorded = append(b.recorded, c)
	return nil
}

// note adds a system event for what a log says about an earlier
// compaction that cannot be audited ("summary" lines of Claude Code, a
// condensation that kept no summary).
func (b *builder) note(text string) error {
	b.counts["earlier compactions kept as notes"]++
	text = strings.TrimSpace(text)
	if text == "" {
		text = "(the log records a compaction here but not its summary)"
	}
	return b.put(rec{kind: kindText, role: scenarios.RoleSystem, text: b.trim("[earlier compaction summary] " + text)})
}

// flushPending turns a boundary no summary text followed into a note.
func (b *builder) flushPending() error {
	p := b.pending
	if p == nil {
		return nil
	}
	b.pending = nil
	desc := "conversation compacted here"
	if p.trigger != "" || p.preTokens > 0 {
		desc = fmt.Sprintf("conversation compacted here (trigger %s, %d tokens before)", orDash(p.trigger), p.preTokens)
	}
	b.counts["compactions with no summary text (kept as notes)"]++
	return b.put(rec{kind: kindText, role: scenarios.RoleSystem, text: "[earlier compaction summary] " + desc})
}

// placeRecorded moves each recorded boundary that would split a tool call
// from its result back to the last event that splits none (with a
// warning), drops one that then meets the boundary before it, and reports
// whether any compaction is left.
func (b *builder) placeRecorded() bool {
	if len(b.recorded) == 0 {
		return false
	}
	// open[p] > 0: cutting after p events splits a call from its result.
	open := make([]int32, len(b.metas)+1)
	for i, m := range b.metas {
		if m.kind == kindCall && m.result > int32(i) {
			open[i+1]++
			open[m.result+1]--
		}
	}
	var run int32
	for p := range open {
		run += open[p]
		open[p] = run
	}
	kept := b.recorded[:0]
	prev := 0
	for _, c := range b.recorded {
		at := c.boundary
		for at > prev && open[at] > 0 {
			at--
		}
		switch {
		case at <= prev:
			b.warns = append(b.warns, fmt.Sprintf("the compaction after seq %d splits a tool call from its result and no seq after the compaction before it can take it: dropped", c.boundary))
			continue
		case at != c.boundary:
			b.warns = append(b.warns, fmt.Sprintf("the compaction after seq %d splits a tool call from its result: its boundary moved to seq %d", c.boundary, at))
			c.boundary = at
		}
		kept = append(kept, c)
		prev = at
	}
	b.recorded = kept
	return len(kept) > 0
}

// recordedNode renders recorded_compactions: provenance first, the summary
// last as a block of text.
func (b *builder) recordedNode() *yaml.Node {
	list := seq()
	for _, c := range b.recorded {
		kv := []any{"boundary", intNode(c.boundary), "tool", str(string(b.format))}
		if c.trigger != "" {
			kv = append(kv, "trigger", str(c.trigger))
		}
		if c.preTokens > 0 {
			kv = append(kv, "pre_tokens", intNode(c.preTokens))
		}
		if c.timestamp != "" {
			kv = append(kv, "timestamp", str(c.timestamp))
		}
		summary := str(c.summary)
		if strings.Contains(c.summary, "\n") {
			summary.Style = yaml.LiteralStyle
		}
		kv = append(kv, "summary", summary)
		list.Content = append(list.Content, mapping(kv...))
	}
	return list
}
