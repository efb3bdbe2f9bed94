package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/result"

	"gopkg.in/yaml.v3"

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
		"compaction", withStyle(mapping("at", flowSeq(intNode(b.cut))), yaml.FlowStyle),
	)
	header.Content[len(header.Content)-2].HeadComment = "The cut lands near two thirds of the session, moved so that it splits no tool call from its result."
	if err := encode(&buf, header); err != nil {
		return err
	}
	bw.Write(buf.Bytes())

	sugs := b.suggestions()
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
	rec := sanitize(b.recordName)
	if rec == "" {
		rec = strconv.Itoa(b.opts.Index)
	}
	if file := sanitize(fileStem(b.opts.Name)); file != "" {
		rec = file + "-" + rec
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
	return t + ")"
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
	for _, sent := range splitSentences(b.goal) {
		if !b.scan.holdsEvidence(sent) {
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

// suggestion is one suggested invariant: why (a comment) and the node.
type suggestion struct {
	why  string
	node *yaml.Node
}

func (b *builder) suggestions() []suggestion {
	s := b.scan
	var out []suggestion
	seqOf := func(idx int) int { return idx + 1 }
	for i, c := range s.constraints {
		out = append(out, suggestion{
			why: fmt.Sprintf("constraint: %s at seq %d said %q", b.metas[c.idx].role, seqOf(c.idx), shorten(c.sentence, 100)),
			node: mapping("id", str(fmt.Sprintf("constraint-%d", i+1)), "type", str(result.TypeConstraint),
				"source_seq", intNode(seqOf(c.idx)), "match", flowSeq(str(c.pattern))),
		})
	}
	// Pending operations: unresolved calls up to the cut, in order. A call
	// after the cut stays in the tail, where no summary can lose it.
	idxs := make([]int, 0, len(b.callID))
	tail := 0
	for idx := range b.callID {
		if seqOf(idx) > b.cut {
			tail++
			continue
		}
		idxs = append(idxs, idx)
	}
	sort.Ints(idxs)
	for i, idx := range idxs {
		if i == maxPending {
			out = append(out, suggestion{why: fmt.Sprintf("%d more unresolved calls not listed", len(idxs)-maxPending)})
			break
		}
		op := b.callID[idx]
		out = append(out, suggestion{
			why: fmt.Sprintf("pending operation: the call at seq %d never got a result", seqOf(idx)),
			node: mapping("id", str(fmt.Sprintf("pending-%d", i+1)), "type", str(result.TypePendingOperation),
				"op_id", str(op), "call_seq", intNode(seqOf(idx))),
		})
	}
	if tail > 0 {
		out = append(out, suggestion{why: fmt.Sprintf("%d unresolved calls after the cut are not suggested: they stay in the tail", tail)})
	}
	for i, g := range s.artifactGroups() {
		req, reqIdx, edited := s.required(g)
		paths := make([]*yaml.Node, len(g))
		for k, p := range g {
			paths[k] = str(p)
		}
		why := fmt.Sprintf("artifact: near-twin paths the session touched; required is the one it edited (seq %d): check it", seqOf(reqIdx))
		if !edited {
			why = fmt.Sprintf("artifact: near-twin paths the session touched; none was edited, required is the one named last (seq %d): check it", seqOf(reqIdx))
		}
		out = append(out, suggestion{
			why: why,
			node: mapping("id", str(fmt.Sprintf("artifact-%d", i+1)), "type", str(result.TypeArtifact),
				"paths", flowSeq(paths...), "required", flowSeq(str(req))),
		})
	}
	if s.pathsFull {
		out = append(out, suggestion{why: fmt.Sprintf("only the first %d distinct paths were compared", maxPaths)})
	}
	for i, h := range s.refuted {
		out = append(out, suggestion{
			why: fmt.Sprintf("refuted hypothesis: the assistant at seq %d said %q; the user at seq %d answered %q", seqOf(h.claimIdx), shorten(h.claim, 80), seqOf(h.byIdx), shorten(h.by, 80)),
			node: mapping("id", str(fmt.Sprintf("refuted-%d", i+1)), "type", str(result.TypeRefutedHypothesis),
				"hypothesis_seq", intNode(seqOf(h.claimIdx)), "refuted_by_seq", intNode(seqOf(h.byIdx)),
				"match", flowSeq(str(h.pattern))),
		})
	}
	for i, c := range s.corrections {
		out = append(out, suggestion{
			why: fmt.Sprintf("correction: user at seq %d said %q", seqOf(c.idx), shorten(c.text, 100)),
			node: mapping("id", str(fmt.Sprintf("correction-%d", i+1)), "type", str(result.TypeCorrection),
				"subject", str(scenarios.Placeholder+": what was corrected"), "old", str(c.old), "new", str(c.new),
				"source_seq", intNode(seqOf(c.idx))),
		})
	}
	for i, v := range s.secrets {
		out = append(out, suggestion{
			why: fmt.Sprintf("secret: a key-like token first seen at seq %d", seqOf(s.secretIdx[v])),
			node: mapping("id", str(fmt.Sprintf("secret-%d", i+1)), "type", str(result.TypeSecret),
				"value", str(v)),
		})
	}
	for i, q := range s.superseded() {
		out = append(out, suggestion{
			why: fmt.Sprintf("quantity: %q at seq %d", q.raw, seqOf(q.idx)),
			node: mapping("id", str(fmt.Sprintf("quantity-%d", i+1)), "type", str(result.TypeQuantity),
				"value", floatNode(q.value), "unit", str(q.unit)),
		})
	}
	return out
}

func (b *builder) writeSuggestions(w *bufio.Writer, sugs []suggestion, invariants int) {
	w.WriteString("\n# Suggested invariants. None is active: a tool cannot know what matters.\n")
	w.WriteString("# Uncomment the \"invariants:\" line and each block you confirm, and fix every TODO.\n")
	if invariants == 0 {
		// Notes only: no "invariants:" line, which uncommented alone
		// would be a null list the loader refuses.
		w.WriteString("# (nothing found to suggest)\n")
		for _, s := range sugs {
			w.WriteString("# " + strings.ReplaceAll(s.why, "\n", " ") + "\n")
		}
		return
	}
	w.WriteString("# invariants:\n")
	var buf bytes.Buffer
	for _, s := range sugs {
		w.WriteString("# # " + strings.ReplaceAll(s.why, "\n", " ") + "\n")
		if s.node == nil {
			continue
		}
		buf.Reset()
		if err := encode(&buf, seq(s.node)); err != nil {
			continue
		}
		for _, line := range strings.SplitAfter(strings.TrimRight(buf.String(), "\n"), "\n") {
			w.WriteString("# " + strings.TrimRight(line, "\n") + "\n")
		}
	}
}

// appendEvent renders one event as a YAML sequence item; the seq is a
// comment since events are numbered in order.
func appendEvent(buf []byte, r *rec, seq int) []byte {
	buf = append(buf, "- role: "...)
	buf = append(buf, r.role...)
	buf = append(buf, " # seq "...)
	buf = strconv.AppendInt(buf, int64(seq), 10)
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

// appendField writes "key: value" at the given indentation. Identifiers are
// written plain, long or multi-line text as a literal block when that
// represents it exactly (see literalSafe), anything else through yaml.v3.
func appendField(buf []byte, indent int, key, value string) []byte {
	switch {
	case plainSafe(value) || plainSentence(value):
		buf = appendSpaces(buf, indent)
		buf = append(buf, key...)
		buf = append(buf, ": "...)
		buf = append(buf, value...)
		return append(buf, '\n')
	case literalSafe(value):
		return appendLiteral(buf, indent, key, value)
	}
	v := str(value)
	if strings.ContainsAny(value, "\n\r") || strings.TrimSpace(value) != value {
		// yaml.v3 drops a leading line break in block style: quote instead.
		v.Style = yaml.DoubleQuotedStyle
	}
	return appendNode(buf, indent, mapping(key, v))
}

// appendNode encodes a one-key mapping with yaml.v3 and indents it.
func appendNode(buf []byte, indent int, n *yaml.Node) []byte {
	var b bytes.Buffer
	if err := encode(&b, n); err != nil {
		// yaml.v3 encodes any string node; keep going with a visible marker.
		b.Reset()
		encode(&b, mapping(n.Content[0].Value, str("[unencodable value]")))
	}
	out := b.Bytes()
	for len(out) > 0 {
		line := out
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			line, out = out[:i+1], out[i+1:]
		} else {
			out = nil
		}
		if len(line) > 1 {
			buf = appendSpaces(buf, indent)
		}
		buf = append(buf, line...)
	}
	return buf
}

func appendSpaces(buf []byte, n int) []byte {
	for ; n > 0; n-- {
		buf = append(buf, ' ')
	}
	return buf
}

// plainSafe reports a short identifier-like string that YAML reads back as
// the same string when written plain.
func plainSafe(s string) bool {
	if len(s) == 0 || len(s) > 80 {
		return false
	}
	c := s[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/') {
			return false
		}
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf":
		return false
	}
	return true
}

// plainSentence reports a one-line text that YAML reads back unchanged when
// written plain, and that yaml.v3 writes plain too (so the fast path and
// the encoder agree): it starts with a letter and ends with a letter, a
// digit, "." or ")", and holds only letters, digits, single spaces and
// "_-./,()'"; it is not a word YAML reads as a boolean or null.
func plainSentence(s string) bool {
	if len(s) == 0 || len(s) >= 200 {
		return false
	}
	c := s[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	last := s[len(s)-1]
	if !(last >= 'a' && last <= 'z' || last >= 'A' && last <= 'Z' || last >= '0' && last <= '9' || last == '.' || last == ')') {
		return false
	}
	space := false
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		case c == ' ':
			if space {
				return false
			}
		case c == '_' || c == '-' || c == '.' || c == '/' || c == ',' || c == '(' || c == ')' || c == '\'':
		default:
			return false
		}
		space = c == ' '
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf":
		return false
	}
	return true
}

// literalSafe reports whether s can be written as a literal block scalar and
// read back unchanged: it does not start with a space, tab or line break (the
// indentation is then detected from its first line), and every character is
// printable in YAML and not a line break other than "\n" (no "\r", NEL,
// U+2028, U+2029, nor a byte order mark).
func literalSafe(s string) bool {
	if len(s) < 200 && strings.IndexByte(s, '\n') < 0 {
		return false // one-liners read better quoted or plain
	}
	if s == "" || s[0] == ' ' || s[0] == '\t' || s[0] == '\n' {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f) {
				i++
				continue
			}
			return false
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return false
		case r == 0xFEFF || r == 0x2028 || r == 0x2029:
			return false
		case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		default:
			return false
		}
		i += size
	}
	return true
}

// appendLiteral writes "key: |" and s's lines indented two more spaces, with
// the chomping indicator that keeps its trailing line breaks exactly.
func appendLiteral(buf []byte, indent int, key, s string) []byte {
	buf = appendSpaces(buf, indent)
	buf = append(buf, key...)
	body := strings.TrimRight(s, "\n")
	switch len(s) - len(body) {
	case 0:
		buf = append(buf, ": |-\n"...)
	case 1:
		buf = append(buf, ": |\n"...)
	default:
		buf = append(buf, ": |+\n"...)
	}
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if line != "" {
			buf = appendSpaces(buf, indent+2)
			buf = append(buf, line...)
		}
		buf = append(buf, '\n')
	}
	return buf
}

// appendFlatArgs writes "args:" and a call's arguments when they are a flat
// JSON object of plain keys and of values yaml.v3 writes plain (plain
// strings, integers, booleans, null), exactly as the encoder would, without
// it; anything else reports false and goes through argsNode.
func appendFlatArgs(buf []byte, indent int, raw []byte) ([]byte, bool) {
	start := len(buf)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return buf, false
	}
	buf = appendSpaces(buf, indent)
	buf = append(buf, "args:\n"...)
	n := 0
	for dec.More() {
		kt, err := dec.Token()
		key, _ := kt.(string)
		if err != nil || !plainSafe(key) {
			return buf[:start], false
		}
		vt, err := dec.Token()
		if err != nil {
			return buf[:start], false
		}
		var val string
		switch v := vt.(type) {
		case string:
			if !plainSafe(v) && !plainSentence(v) || looksNonString(v) {
				return buf[:start], false
			}
			val = v
		case json.Number:
			if _, err := strconv.ParseInt(string(v), 10, 64); err != nil {
				return buf[:start], false
			}
			val = string(v)
		case bool:
			val = strconv.FormatBool(v)
		case nil:
			val = "null"
		default: // an object or an array
			return buf[:start], false
		}
		buf = appendSpaces(buf, indent+2)
		buf = append(buf, key...)
		buf = append(buf, ": "...)
		buf = append(buf, val...)
		buf = append(buf, '\n')
		n++
	}
	if _, err := dec.Token(); err != nil || n == 0 {
		return buf[:start], false
	}
	return buf, true
}

// looksNonString reports a plain-safe string that YAML would read as
// something else, which yaml.v3 therefore quotes.
func looksNonString(s string) bool {
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf", "~":
		return true
	}
	return false
}

// argsNode converts a call's JSON arguments into a YAML mapping, keeping key
// order; a value that is not an object is wrapped as {input: value}.
func argsNode(raw []byte) *yaml.Node {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	n, err := jsonNode(dec)
	if err != nil {
		return mapping("input", str(string(raw)))
	}
	if n.Kind != yaml.MappingNode {
		return mapping("input", n)
	}
	return n
}

func jsonNode(dec *json.Decoder) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				val, err := jsonNode(dec)
				if err != nil {
					return nil, err
				}
				m.Content = append(m.Content, str(key), val)
			}
			_, err := dec.Token()
			return m, err
		}
		s := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for dec.More() {
			val, err := jsonNode(dec)
			if err != nil {
				return nil, err
			}
			s.Content = append(s.Content, val)
		}
		_, err := dec.Token()
		return s, err
	case string:
		return str(v), nil
	case json.Number:
		if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: string(v)}, nil
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return str(string(v)), nil
		}
		return floatNode(f), nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}, nil
	default:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
}

func encode(buf *bytes.Buffer, n *yaml.Node) error {
	enc := yaml.NewEncoder(buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return fmt.Errorf("encoding yaml: %w", err)
	}
	return enc.Close()
}

func str(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

func intNode(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

func floatNode(f float64) *yaml.Node {
	if f == float64(int64(f)) {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(int64(f), 10)}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f, 'g', -1, 64)}
}

func mapping(kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Content = append(m.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return m
}

func seq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

func flowSeq(items ...*yaml.Node) *yaml.Node {
	return withStyle(seq(items...), yaml.FlowStyle)
}

func withStyle(n *yaml.Node, s yaml.Style) *yaml.Node {
	n.Style = s
	return n
}
