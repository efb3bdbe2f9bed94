package importer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/importer/suggest"
	"github.com/compact-eval/compact-eval/scenarios"
)

// write renders the scenario: header, suggested invariants as comments, the
// probe template, then the events read back from the spill one at a time.
func (b *builder) write(w io.Writer, rep *Report) error {
	id := b.scenarioID()
	rep.ID = id
	rep.Record, rep.Records = b.opts.Index, b.records
	rep.Events = len(b.metas)
	rep.Cut = b.cut
	for _, c := range b.recorded {
		rep.Recorded = append(rep.Recorded, c.boundary)
	}
	rep.Unresolved = len(b.callID)

	cw := &countingWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<20)
	var buf bytes.Buffer

	header := mapping(
		"version", intNode(scenarios.Version),
		"id", str(id),
		"title", str(b.title()),
		"tags", flowSeq(str("imported"), str(string(b.format))),
		"goal", str(b.goalText()),
		"rules", str(b.rulesText()),
	)
	if len(b.recorded) == 0 {
		header.Content = append(header.Content, str("compaction"), withStyle(mapping("at", flowSeq(intNode(b.cut))), yaml.FlowStyle))
		header.Content[len(header.Content)-2].HeadComment = b.cutComment()
	} else {
		header.Content = append(header.Content, str("recorded_compactions"), b.recordedNode())
		header.Content[len(header.Content)-2].HeadComment = "The compactions the agent made, kept from its log. Every summarizer is cut at their\n" +
			"boundaries; `run --summarizer recorded` checks each summary the agent continued from."
	}
	if err := encode(&buf, header); err != nil {
		return err
	}
	bw.Write(buf.Bytes())

	sugs := b.suggestions()
	rep.Tally = b.checkSuggestions(bytes.Clone(buf.Bytes()), sugs)
	rep.Tally.Capped = b.capped()
	for _, s := range sugs {
		if s.node != nil {
			rep.Suggestions++ // a note (s.node nil) suggests nothing
		}
	}
	b.writeSuggestions(bw, sugs, rep.Suggestions)

	probe := mapping("probes", seq(mapping(
		"id", str("next-step"),
		"question", str(scenarios.Placeholder+": a decision the agent must make after the last event, one that depends on something said early in the session."),
		"options", mapping(
			"correct", str(scenarios.Placeholder+": what a well-informed agent does"),
			"wrong", str(scenarios.Placeholder+": what an agent that forgot the early fact would do"),
		),
		"expect", str("correct"),
	)))
	probe.Content[0].HeadComment = "A probe template: rewrite the question and options, then add\n" +
		"requires: {correct: ['a pattern the early evidence matches']} so the reference agent needs the evidence."
	buf.Reset()
	if err := encode(&buf, probe); err != nil {
		return err
	}
	bw.WriteString("\n")
	bw.Write(buf.Bytes())

	bw.WriteString("\nevents:\n")
	if _, err := io.Copy(bw, b.store.reader()); err != nil {
		return fmt.Errorf("copying spilled events: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	rep.Warnings = b.warnings()
	if rep.Events > scenarios.MaxEvents {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the scenario has %d events; the loader accepts at most %d: import a shorter part of the session", rep.Events, scenarios.MaxEvents))
	}
	if cw.n > scenarios.MaxFileSize {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the scenario is %.1f MB; the loader reads at most %d MiB: re-import with --max-event-chars (for example 2000)", float64(cw.n)/1e6, scenarios.MaxFileSize>>20))
	}
	return nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// scenarioID is Options.ID, else the id made from the file's name and, for
// one record of several, the record's name (task_id, instance_id, id) or
// index.
func (b *builder) scenarioID() string {
	if b.opts.ID != "" {
		return b.opts.ID
	}
	if !b.each && b.records <= 1 {
		return SanitizeID(b.opts.Name)
	}
	rec := sanitize(b.record.name)
	if rec == "" {
		rec = strconv.Itoa(b.opts.Index)
	}

	if file := sanitize(fileStem(b.opts.Name)); file != "" {
		rec = file + "-" + rec
	}
	// The trial stays visible however long the name: a task run several
	// times gives one id a trial.
	if t := sanitize(b.record.trial); t != "" && len(t) <= 16 {
		suffix := "-trial-" + t
		if len(rec)+len(suffix) <= MaxIDLen {
			return rec + suffix
		}
		sum := sha256.Sum256([]byte(rec + suffix))
		h := "-" + hex.EncodeToString(sum[:4])
		return strings.TrimRight(rec[:MaxIDLen-len(suffix)-len(h)], "-") + h + suffix
	}
	return fitID(rec)
}

func (b *builder) title() string {
	t := fmt.Sprintf("Imported %s session %s (%d events", b.format, SanitizeID(b.opts.Name), len(b.metas))
	if b.opts.Name == "" {
		t = fmt.Sprintf("Imported %s session (%d events", b.format, len(b.metas))
	}
	if !b.first.IsZero() {
		f, l := b.first.UTC(), b.last.UTC()
		if f.Format("2006-01-02") == l.Format("2006-01-02") {
			t += fmt.Sprintf(", %s %s to %s UTC", f.Format("2006-01-02"), f.Format("15:04"), l.Format("15:04"))
		} else {
			t += fmt.Sprintf(", %s to %s UTC", f.Format("2006-01-02 15:04"), l.Format("2006-01-02 15:04"))
		}
	}
	t += ")"
	var rec []string
	if b.each || b.records > 1 {
		if n := b.record.name; n != "" {
			rec = append(rec, "task "+shorten(n, 80))
		}
		if n := b.record.trial; n != "" {
			rec = append(rec, "trial "+shorten(n, 20))
		}
		if n := b.record.reward; n != "" {
			rec = append(rec, "reward "+shorten(n, 20))
		}
	}
	if len(rec) > 0 {
		t += ": " + strings.Join(rec, ", ")
	}
	return t
}

// goalText asks the author for the goal, quoting the opening message's
// sentences that hold no suggested invariant's evidence: a goal that holds
// the evidence is never compacted, so a probe that needs it could never
// regress (validate warns about it).
func (b *builder) goalText() string {
	if b.goal == "" {
		return scenarios.Placeholder + ": state the session's goal."
	}
	var keep []string
	for _, sent := range suggest.SplitSentences(b.goal) {
		if !b.scan.HoldsEvidence(sent) {
			keep = append(keep, sent)
		}
	}
	if len(keep) == 0 {
		return scenarios.Placeholder + ": state the session's goal in your own words, without the rules and values the invariants check."
	}
	return scenarios.Placeholder + ": restate the goal without the rules and values the invariants check. The session opened with: " + shorten(strings.Join(keep, " "), 200)
}

func (b *builder) rulesText() string {
	if strings.TrimSpace(b.rules) != "" {
		return b.rules
	}
	return scenarios.Placeholder + ": the agent's standing instructions and tools (never compacted)."
}

// appendEvent renders one event as a YAML sequence item; the seq is a
// comment since events are numbered in order.
func appendEvent(buf []byte, r *rec, seq int) []byte {
	buf = append(buf, "- role: "...)
	buf = append(buf, r.role...)
	buf = append(buf, " # seq "...)
	buf = strconv.AppendInt(buf, int64(seq), 10)
	if r.note != "" {
		buf = append(buf, ": "...)
		buf = append(buf, r.note...)
	}
	buf = append(buf, '\n')
	if r.text != "" && r.kind != kindResult {
		buf = appendField(buf, 2, "text", r.text)
	}
	switch r.kind {
	case kindCall:
		buf = append(buf, "  tool_call:\n"...)
		buf = appendField(buf, 4, "id", r.callID)
		buf = appendField(buf, 4, "name", r.callName)
		if len(r.args) > 0 {
			if fast, ok := appendFlatArgs(buf, 4, r.args); ok {
				buf = fast
			} else {
				buf = appendNode(buf, 4, mapping("args", argsNode(r.args)))
			}
		}
	case kindResult:
		buf = append(buf, "  tool_result:\n"...)
		buf = appendField(buf, 4, "call_id", r.callID)
		buf = appendField(buf, 4, "status", r.status)
		if r.text != "" {
			buf = appendField(buf, 4, "text", r.text)
		}
	}
	return buf
}
