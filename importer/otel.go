package importer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/internal/otlp"
	"github.com/compact-eval/compact-eval/scenarios"
)

// OpenTelemetry GenAI traces (OTLP JSON; docs/import.md, "OpenTelemetry
// GenAI traces"): a trace is a session. Its inference spans
// (gen_ai.operation.name chat, text_completion, generate_content) carry
// the context each model call was sent (gen_ai.input.messages), the reply
// (gen_ai.output.messages) and the system instructions
// (gen_ai.system_instructions), as JSON messages {role, parts[],
// finish_reason}, in the span's attributes or in its
// gen_ai.client.inference.operation.details event; its execute_tool spans
// carry a tool call (gen_ai.tool.call.id, gen_ai.tool.name,
// gen_ai.tool.call.arguments, gen_ai.tool.call.result).

// otelMessage is a GenAI message.
type otelMessage struct {
	Role         string     `json:"role"`
	Parts        []otelPart `json:"parts"`
	FinishReason string     `json:"finish_reason"`
}

// otelPart is one part of a message: text, tool_call, tool_call_response,
// reasoning, compaction (a compaction's summary), or media.
type otelPart struct {
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Response  json.RawMessage `json:"response"`
	Result    json.RawMessage `json:"result"`
}

// otelSpan is a span of the trace being imported, with what the importer
// reads of it.
type otelSpan struct {
	order int
	sp    *otlp.Span
}

// otelTrace is one session's spans, in file order: a trace's, or those
// of the traces of one conversation.
type otelTrace struct {
	id    string
	spans []otelSpan
}

// readOTelTraces reads every span of the input, grouped by trace in
// order of first appearance. A trace's spans may come in any order and in
// several documents, so the spans are held until the input ends.
func readOTelTraces(br *bufio.Reader) ([]*otelTrace, error) {
	var traces []*otelTrace
	at := map[string]*otelTrace{}
	n := 0
	err := otlp.Read(br, func(_ *otlp.ResourceSpans, _ *otlp.ScopeSpans, sp *otlp.Span) error {
		t := at[sp.TraceID]
		if t == nil {
			t = &otelTrace{id: sp.TraceID}
			at[sp.TraceID] = t
			traces = append(traces, t)
		}
		t.spans = append(t.spans, otelSpan{order: n, sp: sp})
		n++
		return nil
	})
	if err != nil {
		return nil, inputErrorf(0, "%v", err)
	}
	return joinConversations(traces), nil
}

// joinConversations makes one session of the traces whose spans name one
// gen_ai.conversation.id (a multi-turn chat records a trace a turn), in
// order of first appearance, named by the conversation.
func joinConversations(traces []*otelTrace) []*otelTrace {
	var out []*otelTrace
	at := map[string]*otelTrace{}
	for _, t := range traces {
		conv := ""
		for _, s := range t.spans {
			if conv = otelString(s.sp.Attributes, "gen_ai.conversation.id"); conv != "" {
				break
			}
		}
		if conv == "" {
			out = append(out, t)
			continue
		}
		if j := at[conv]; j != nil {
			j.spans = append(j.spans, t.spans...)
			continue
		}
		j := &otelTrace{id: conv, spans: t.spans}
		at[conv] = j
		out = append(out, j)
	}
	return out
}

// parseOTel imports the trace opts.Index picks.
func parseOTel(br *bufio.Reader, b *builder) error {
	traces, err := readOTelTraces(br)
	if err != nil {
		return err
	}
	if err := b.pickSession(len(traces), "a trace each, or the traces of one gen_ai.conversation.id", func(i int) string { return traces[i].id }); err != nil {
		return err
	}
	return b.otelTrace(traces[b.opts.Index])
}

// pickSession checks that the input holds the session opts.Index picks,
// of n read from the whole input (what each is: kind), and says so when
// there are several; id names one.
func (b *builder) pickSession(n int, kind string, id func(i int) string) error {
	if b.opts.Index >= n {
		return inputErrorf(0, "--record %d: the input holds %d sessions", b.opts.Index, n)
	}
	b.records = n
	if n > 1 {
		b.warns = append(b.warns, fmt.Sprintf("the input holds %d sessions (%s); imported session %d (%s): pick another with --record, or import all with --all", n, kind, b.opts.Index, id(b.opts.Index)))
	}
	return nil
}

// otelTrace imports one trace's spans, in the order they started.
func (b *builder) otelTrace(t *otelTrace) error {
	b.record.name = t.id
	spans := append([]otelSpan(nil), t.spans...)
	sort.SliceStable(spans, func(i, j int) bool {
		return spans[i].sp.StartTimeUnixNano < spans[j].sp.StartTimeUnixNano
	})
	c := newConvo()
	answered := map[string]bool{} // call ids a tool span answered
	rules := false
	for _, s := range spans {
		sp := s.sp
		stamp := nanosStamp(sp.StartTimeUnixNano)
		b.stamp(stamp)
		attrs := sp.Attributes
		op := otelString(attrs, "gen_ai.operation.name")
		if op == "execute_tool" {
			if err := b.otelTool(sp, answered); err != nil {
				return err
			}
			continue
		}
		in, out, sys, ok := otelMessages(sp)
		if !ok {
			if !hasGenAI(attrs) {
				b.drop("spans without gen_ai attributes")
			} else {
				b.drop("gen_ai spans without messages (" + orDash(op) + ")")
			}
			continue
		}
		if !rules && len(sys) > 0 {
			rules = true
			if err := b.text(scenarios.RoleSystem, partsText(b, sys)); err != nil {
				return err
			}
		}
		input, err := b.otelSnap(in, answered)
		if err != nil {
			return err
		}
		var summary *string
		for _, m := range out {
			if m.FinishReason == "compaction" {
				s := partsText(b, m.Parts)
				summary = &s
			}
		}
		output, err := b.otelSnap(out, answered)
		if err != nil {
			return err
		}
		tokens := int(otelInt(attrs, "gen_ai.usage.input_tokens"))
		if summary == nil {
			tokens += int(otelInt(attrs, "gen_ai.usage.output_tokens"))
		}
		if err := c.call(b, input, output, summary, tokens, stamp); err != nil {
			return err
		}
	}
	return nil
}

// otelMessages reads a span's input and output messages and system
// instructions, from its attributes or its inference details event; ok is
// false when it has none.
func otelMessages(sp *otlp.Span) (in, out []otelMessage, sys []otelPart, ok bool) {
	sources := [][]otlp.KeyValue{sp.Attributes}
	for _, e := range sp.Events {
		if e.Name == "gen_ai.client.inference.operation.details" {
			sources = append(sources, e.Attributes)
		}
	}
	for _, attrs := range sources {
		if v, found := otlp.Attr(attrs, "gen_ai.input.messages"); found && in == nil {
			ok = decodeAttr(v, &in) == nil || ok
		}
		if v, found := otlp.Attr(attrs, "gen_ai.output.messages"); found && out == nil {
			ok = decodeAttr(v, &out) == nil || ok
		}
		if v, found := otlp.Attr(attrs, "gen_ai.system_instructions"); found && sys == nil {
			decodeAttr(v, &sys)
		}
	}
	return in, out, sys, ok
}

// decodeAttr decodes an attribute holding JSON: a string of it, or the
// structured value itself.
func decodeAttr(v otlp.AnyValue, into any) error {
	if v.StringValue != nil {
		return json.Unmarshal([]byte(*v.StringValue), into)
	}
	raw, err := json.Marshal(v.Go())
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, into)
}

// otelSnap turns messages into snapshot messages, each added as the chat
// message it is: text parts its text, tool_call parts its calls, each
// tool_call_response a tool result (one a tool span already gave is
// skipped); reasoning and media are dropped and counted.
func (b *builder) otelSnap(msgs []otelMessage, answered map[string]bool) ([]snapMsg, error) {
	out := make([]snapMsg, 0, len(msgs))
	for _, m := range msgs {
		raw, _ := json.Marshal(m)
		sm := snapMsg{fp: fingerprint(raw)}
		for _, p := range m.Parts {
			if p.Type == "compaction" {
				s := strings.TrimSpace(jsonText(p.Content))
				sm.summary = &s
			}
		}
		m := m
		sm.add = func() error { return b.otelAdd(m, answered) }
		out = append(out, sm)
	}
	return out, nil
}

// otelAdd adds one message as events.
func (b *builder) otelAdd(m otelMessage, answered map[string]bool) error {
	var texts []string
	msg := openaiMessage{Role: m.Role}
	var results []openaiMessage
	for _, p := range m.Parts {
		switch p.Type {
		case "text":
			if t := jsonText(p.Content); strings.TrimSpace(t) != "" {
				texts = append(texts, t)
			}
		case "tool_call", "function_call": // function_call: an older name some SDKs write
			tc := msg.ToolCalls
			tc = append(tc, struct {
				ID       string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			}{ID: p.ID})
			tc[len(tc)-1].Function.Name = p.Name
			tc[len(tc)-1].Function.Arguments = p.Arguments
			msg.ToolCalls = tc
		case "tool_call_response":
			if answered[p.ID] {
				continue // the tool's span gave its result
			}
			resp := p.Response
			if len(resp) == 0 {
				resp = p.Result
			}
			content, _ := json.Marshal(jsonText(resp))
			results = append(results, openaiMessage{Role: "tool", ToolCallID: p.ID, Content: content})
		case "reasoning":
			b.drop("reasoning parts")
		case "compaction":
			// read by otelSnap
		default:
			b.drop("message parts of type " + orDash(p.Type))
		}
	}
	if len(texts) > 0 || len(msg.ToolCalls) > 0 {
		msg.Content, _ = json.Marshal(strings.Join(texts, "\n\n"))
		if msg.Role == "tool" && len(msg.ToolCalls) == 0 {
			msg.Role = "user" // text in a tool-role message answers no call
		}
		if err := b.openaiMessage(&msg); err != nil {
			return err
		}
	}
	for i := range results {
		if err := b.openaiMessage(&results[i]); err != nil {
			return err
		}
	}
	return nil
}

// otelTool adds an execute_tool span's call and result, when the messages
// did not already show the call answered.
func (b *builder) otelTool(sp *otlp.Span, answered map[string]bool) error {
	attrs := sp.Attributes
	id := otelString(attrs, "gen_ai.tool.call.id")
	if id == "" {
		id = sp.SpanID
	}
	status := scenarios.StatusOK
	if sp.Status != nil && sp.Status.Code == otlp.StatusError {
		status = scenarios.StatusError
	}
	var args []byte
	if v, ok := otlp.Attr(attrs, "gen_ai.tool.call.arguments"); ok {
		if v.StringValue != nil {
			args = argsJSON(*v.StringValue)
		} else {
			args, _ = json.Marshal(v.Go())
		}
	}
	result := ""
	v, hasResult := otlp.Attr(attrs, "gen_ai.tool.call.result")
	if !hasResult && status == scenarios.StatusOK {
		return nil // the span records the call, not what it returned: the messages will
	}
	if hasResult {
		if v.StringValue != nil {
			result = *v.StringValue
		} else if raw, err := json.Marshal(v.Go()); err == nil {
			result = string(raw)
		}
	}
	if _, known := b.calls[id]; !known {
		if err := b.call("", id, firstNonEmpty(otelString(attrs, "gen_ai.tool.name"), sp.Name), args); err != nil {
			return err
		}
	} else if !b.openCall(id) {
		return nil // the messages gave its result already
	}
	answered[id] = true
	return b.result(id, status, result)
}

// partsText joins the text of parts (text, compaction), dropping others.
func partsText(b *builder, parts []otelPart) string {
	var texts []string
	for _, p := range parts {
		switch p.Type {
		case "text", "compaction", "":
			if t := jsonText(p.Content); strings.TrimSpace(t) != "" {
				texts = append(texts, t)
			}
		case "reasoning":
			b.drop("reasoning parts")
		}
	}
	return strings.Join(texts, "\n\n")
}

// jsonText is a JSON string's text, or the JSON itself for any other value.
func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	return string(raw)
}

func otelString(attrs []otlp.KeyValue, key string) string {
	v, _ := otlp.Attr(attrs, key)
	return v.String()
}

func otelInt(attrs []otlp.KeyValue, key string) int64 {
	v, _ := otlp.Attr(attrs, key)
	return v.Int64()
}

func hasGenAI(attrs []otlp.KeyValue) bool {
	for _, kv := range attrs {
		if strings.HasPrefix(kv.Key, "gen_ai.") {
			return true
		}
	}
	return false
}

// nanosStamp is a span time as RFC 3339, "" for zero.
func nanosStamp(n otlp.Nanos) string {
	if n == 0 {
		return ""
	}
	return time.Unix(0, int64(n)).UTC().Format(time.RFC3339Nano)
}

// eachTrace is ImportEach for OTLP traces: one scenario a trace, its id
// the file's name and the trace's.
func eachTrace(br *bufio.Reader, opts Options, base *Report, emit func(rep *Report, write func(io.Writer) error, err error) error) (int, error) {
	traces, err := readOTelTraces(br)
	if err != nil {
		return 0, err
	}
	return eachGroup(len(traces), opts, base, FormatOTel, emit, func(b *builder, i int) error {
		return b.otelTrace(traces[i])
	})
}

// eachGroup is ImportEach for the formats whose sessions are groups read
// from the whole input (traces, threads): session i imported by one.
func eachGroup(n int, opts Options, base *Report, format Format, emit func(rep *Report, write func(io.Writer) error, err error) error, one func(b *builder, i int) error) (int, error) {
	for i := 0; i < n; i++ {
		o := opts
		o.Index = i
		rep := *base
		rep.Record = i
		b, err := newBuilder(o, format)
		if err != nil {
			return i, err
		}
		b.each, b.records = true, n
		err = one(b, i)
		if err == nil {
			err = b.finish()
		}
		if err != nil {
			b.close()
			if err := emit(&rep, nil, err); err != nil {
				return i, err
			}
			continue
		}
		rep.ID = b.scenarioID()
		werr := emit(&rep, func(w io.Writer) error { return b.write(w, &rep) }, nil)
		b.close()
		if werr != nil {
			return i, werr
		}
	}
	return n, nil
}
