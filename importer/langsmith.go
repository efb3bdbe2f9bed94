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
	"time"

	"github.com/compact-eval/compact-eval/scenarios"
)

// LangSmith run exports (docs/import.md, "LangSmith runs"): runs as the
// API returns them (the run data format: id, name, run_type, inputs,
// outputs, error, status, trace_id, parent_run_id, dotted_order,
// start_time, extra.metadata, prompt_tokens), as a JSON array, JSONL, the
// runs query's {"runs": [...]}, or one run with its child_runs. A session
// is a thread (the metadata's thread_id, session_id or conversation_id,
// the keys LangSmith groups threads by), else a trace. Like OpenTelemetry
// spans, each llm run records the context it was sent and its reply, so
// the events are rebuilt from those snapshots (snapshots.go); its messages
// are in LangChain's serialized form ({lc, type, id, kwargs}), its
// message_to_dict form ({type, data}), or OpenAI's or Anthropic's, and its
// reply under generations, choices, message or messages.

// lsRun is one run, with what the importer reads of it.
type lsRun struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	RunType     string          `json:"run_type"`
	StartTime   json.RawMessage `json:"start_time"`
	Inputs      json.RawMessage `json:"inputs"`
	Outputs     json.RawMessage `json:"outputs"`
	Error       json.RawMessage `json:"error"`
	Status      string          `json:"status"`
	TraceID     string          `json:"trace_id"`
	ParentRunID string          `json:"parent_run_id"`
	DottedOrder string          `json:"dotted_order"`
	Extra       struct {
		Metadata map[string]json.RawMessage `json:"metadata"`
	} `json:"extra"`
	PromptTokens     json.RawMessage   `json:"prompt_tokens"`
	CompletionTokens json.RawMessage   `json:"completion_tokens"`
	ChildRuns        []json.RawMessage `json:"child_runs"`

	order int
	start time.Time
}

// lsSession is the runs of one thread or trace, in file order.
type lsSession struct {
	id   string
	runs []*lsRun
}

// lsThreadKeys are the metadata keys LangSmith groups a thread's traces by.
var lsThreadKeys = []string{"thread_id", "session_id", "conversation_id"}

// readLangSmith reads every run of the input (nested child_runs too),
// grouped into sessions in order of first appearance. A session's runs may
// come in any order, so they are held until the input ends. A run that
// cannot be read is a problem, reported by its index.
func readLangSmith(br *bufio.Reader, maxLine int) (sessions []*lsSession, problems []string, err error) {
	var runs []*lsRun
	var add func(raw json.RawMessage, where string, parent *lsRun) error
	add = func(raw json.RawMessage, where string, parent *lsRun) error {
		var r lsRun
		if err := json.Unmarshal(raw, &r); err != nil {
			problems = append(problems, fmt.Sprintf("%s: malformed, skipped: %v", where, shorten(err.Error(), 160)))
			return nil
		}
		if parent != nil {
			if r.ParentRunID == "" {
				r.ParentRunID = parent.ID
			}
			if r.TraceID == "" {
				r.TraceID = parent.TraceID
			}
		}
		if r.TraceID == "" && r.ParentRunID == "" {
			r.TraceID = r.ID
		}
		r.order = len(runs)
		r.start = lsTime(r.StartTime)
		children := r.ChildRuns
		r.ChildRuns = nil
		runs = append(runs, &r)
		for i, c := range children {
			if err := add(c, fmt.Sprintf("%s child %d", where, i), &r); err != nil {
				return err
			}
		}
		return nil
	}
	_, err = eachRecord(br, maxLine, func(i, line int, raw json.RawMessage, rerr error) error {
		where := fmt.Sprintf("run %d", i)
		if line > 0 {
			where = fmt.Sprintf("line %d", line)
		}
		if rerr != nil {
			problems = append(problems, fmt.Sprintf("%s: malformed, skipped: %v", where, rerr))
			return nil
		}
		// The runs query's answer holds them under "runs".
		var wrap struct {
			Runs    []json.RawMessage `json:"runs"`
			RunType *string           `json:"run_type"`
		}
		if json.Unmarshal(raw, &wrap) == nil && wrap.RunType == nil && wrap.Runs != nil {
			for j, r := range wrap.Runs {
				if err := add(r, fmt.Sprintf("%s run %d", where, j), nil); err != nil {
					return err
				}
			}
			return nil
		}
		return add(raw, where, nil)
	})
	if err != nil {
		return nil, problems, err
	}
	if len(runs) == 0 {
		return nil, problems, inputErrorf(0, "the input holds no LangSmith runs")
	}
	// A run's trace is its root's: walk up the parents the file holds.
	byID := make(map[string]*lsRun, len(runs))
	for _, r := range runs {
		if r.ID != "" {
			byID[r.ID] = r
		}
	}
	traceOf := func(r *lsRun) string {
		seen := 0
		for r.TraceID == "" && seen < len(runs) {
			p := byID[r.ParentRunID]
			if p == nil || p == r {
				return r.ParentRunID
			}
			r = p
			seen++
		}
		return r.TraceID
	}
	// A trace joins the thread its runs' metadata names.
	thread := map[string]string{}
	for _, r := range runs {
		t := traceOf(r)
		if _, ok := thread[t]; ok {
			continue
		}
		for _, k := range lsThreadKeys {
			if s := jsonString(r.Extra.Metadata[k]); s != "" {
				thread[t] = s
				break
			}
		}
	}
	at := map[string]*lsSession{}
	for _, r := range runs {
		t := traceOf(r)
		key := t
		if th := thread[t]; th != "" {
			key = "thread " + th
		}
		s := at[key]
		if s == nil {
			id := t
			if th := thread[t]; th != "" {
				id = th
			}
			s = &lsSession{id: id}
			at[key] = s
			sessions = append(sessions, s)
		}
		s.runs = append(s.runs, r)
	}
	return sessions, problems, nil
}

// lsTime reads a run's start time: RFC 3339, the API's naive UTC form
// ("2024-05-01T12:00:00.123456"), or milliseconds since the epoch (the
// JS client's RunCreate). The zero time when it is none of these.
func lsTime(raw json.RawMessage) time.Time {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return time.Time{}
	}
	if raw[0] != '"' {
		ms, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || ms <= 0 || ms > 1e15 {
			return time.Time{}
		}
		return time.UnixMilli(int64(ms)).UTC()
	}
	s := jsonString(raw)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// parseLangSmith imports the session opts.Index picks.
func parseLangSmith(br *bufio.Reader, b *builder) error {
	sessions, problems, err := readLangSmith(br, b.opts.MaxLineBytes)
	if err != nil {
		return err
	}
	if err := b.lsProblems(problems); err != nil {
		return err
	}
	if err := b.pickSession(len(sessions), "threads or traces", func(i int) string { return sessions[i].id }); err != nil {
		return err
	}
	return b.lsSession(sessions[b.opts.Index])
}

// lsProblems reports the runs that could not be read: an error under
// Strict, else warnings.
func (b *builder) lsProblems(problems []string) error {
	if len(problems) > 0 && b.opts.Strict {
		return inputErrorf(0, "%s", problems[0])
	}
	for i, p := range problems {
		if i == 10 {
			b.warns = append(b.warns, fmt.Sprintf("%d more runs could not be read", len(problems)-10))
			break
		}
		b.warns = append(b.warns, p)
	}
	return nil
}

// lsSession imports one session's runs in the order they ran: by dotted
// order when every run has one (it sorts a trace depth first, each level
// by start time), else by start time, else as the file lists them.
func (b *builder) lsSession(s *lsSession) error {
	b.record.name = s.id
	runs := append([]*lsRun(nil), s.runs...)
	dotted := true
	for _, r := range runs {
		dotted = dotted && r.DottedOrder != ""
	}
	sort.SliceStable(runs, func(i, j int) bool {
		if dotted {
			return runs[i].DottedOrder < runs[j].DottedOrder
		}
		if runs[i].start.IsZero() || runs[j].start.IsZero() {
			return false
		}
		return runs[i].start.Before(runs[j].start)
	})
	up := lsAncestryOf(runs)
	llm := false
	for _, r := range runs {
		llm = llm || r.RunType == "llm"
	}
	c := newConvo()
	answered := map[string]bool{}
	for _, r := range runs {
		stamp := ""
		if !r.start.IsZero() {
			stamp = r.start.Format(time.RFC3339Nano)
		}
		b.stamp(stamp)
		switch {
		case r.RunType == "tool":
			if err := b.lsTool(r, answered); err != nil {
				return err
			}
			continue
		case r.RunType == "llm" && up.summarizer(r):
			// The call that wrote a compaction's summary: the summary
			// is the compaction, with the agent's last context size.
			text := lsText(b.lsMessages(lsOutputs(r.Outputs), answered))
			if strings.TrimSpace(text) == "" {
				b.drop("summarization calls with no summary")
				continue
			}
			if err := c.call(b, nil, nil, &text, c.lastTokens, stamp); err != nil {
				return err
			}
			continue
		case r.RunType == "llm", !llm && r.ParentRunID == "":
			// Model calls; with none in the export, the root runs of an
			// agent whose state holds the messages.
		default:
			b.drop("runs of type " + orDash(r.RunType) + " (only llm and tool runs are read)")
			continue
		}
		in := snaps(b.lsMessages(lsInputs(r.Inputs), answered))
		out := snaps(b.lsMessages(lsOutputs(r.Outputs), answered))
		if len(in) == 0 && len(out) == 0 {
			b.drop("runs without messages")
			continue
		}
		// An agent's state repeats its input before the new messages.
		if ctx := snapFPs(in); len(ctx) > 0 && prefixOf(ctx, out) {
			out = out[len(in):]
		}
		if err := c.call(b, in, out, nil, lsTokens(r), stamp); err != nil {
			return err
		}
	}
	return nil
}

// lsAncestry is a session's runs by id: each one's name and parent.
type lsAncestry map[string]*lsRun

func lsAncestryOf(runs []*lsRun) lsAncestry {
	up := lsAncestry{}
	for _, r := range runs {
		if r.ID != "" {
			up[r.ID] = r
		}
	}
	return up
}

// summarizer reports whether an llm run wrote a compaction's summary: a
// run under a summarization step (LangChain's SummarizationMiddleware
// runs as "SummarizationMiddleware.before_model"), or one sent its
// default prompt ("Messages to summarize:").
func (up lsAncestry) summarizer(r *lsRun) bool {
	id := r.ParentRunID
	for i := 0; id != "" && i <= len(up); i++ {
		p := up[id]
		if p == nil {
			break
		}
		if strings.Contains(strings.ToLower(p.Name), "summariz") {
			return true
		}
		id = p.ParentRunID
	}
	return bytes.Contains(r.Inputs, []byte("Messages to summarize:"))
}

// lsMsg is one message of a run, read into what an event needs.
type lsMsg struct {
	role    string // user, assistant, system, tool
	text    string
	calls   []lsCall
	callID  string // a tool message's call
	isError bool
	summary *string // a compaction's summary the context opens with
	add     func() error
}

type lsCall struct {
	id, name string
	args     []byte
}

// lsSummaryPrefixes open the message that replaces a compacted history:
// LangChain's SummarizationMiddleware writes "Here is a summary of the
// conversation to date:" before the summary.
var lsSummaryPrefixes = []string{"Here is a summary of the conversation to date:"}

// snapFPs are snapshot messages' fingerprints.
func snapFPs(ms []snapMsg) [][16]byte {
	out := make([][16]byte, len(ms))
	for i, m := range ms {
		out[i] = m.fp
	}
	return out
}

// fp is a message's fingerprint: what it says, not how it was
// serialized (the same message is written with different metadata in a
// reply and in the next context).
func (m *lsMsg) fp() [16]byte {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s\x00%s\x00%s\x00%v", m.role, m.text, m.callID, m.isError)
	for _, c := range m.calls {
		fmt.Fprintf(&sb, "\x00%s\x00%s\x00%s", c.id, c.name, canonicalJSON(c.args))
	}
	return fingerprint([]byte(sb.String()))
}

func snaps(ms []*lsMsg) []snapMsg {
	out := make([]snapMsg, len(ms))
	for i, m := range ms {
		out[i] = snapMsg{fp: m.fp(), add: m.add, summary: m.summary}
	}
	return out
}

// canonicalJSON re-encodes JSON with sorted keys, so that two spellings
// of one value compare equal.
func canonicalJSON(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// lsText joins messages' text.
func lsText(ms []*lsMsg) string {
	var texts []string
	for _, m := range ms {
		if strings.TrimSpace(m.text) != "" {
			texts = append(texts, m.text)
		}
	}
	return strings.Join(texts, "\n\n")
}

// lsInputs finds a run's input messages: inputs.messages (a list, or a
// batch of lists, of which the first), a system prompt given apart
// (Anthropic's inputs.system) first; or the prompts of a completion model.
func lsInputs(inputs json.RawMessage) []json.RawMessage {
	var in struct {
		Messages json.RawMessage `json:"messages"`
		System   json.RawMessage `json:"system"`
		Prompts  []string        `json:"prompts"`
		Prompt   string          `json:"prompt"`
	}
	if json.Unmarshal(inputs, &in) != nil {
		return nil
	}
	var out []json.RawMessage
	if s := bytes.TrimSpace(in.System); len(s) > 0 && string(s) != "null" {
		m, _ := json.Marshal(map[string]json.RawMessage{"role": json.RawMessage(`"system"`), "content": s})
		out = append(out, m)
	}
	msgs := lsList(in.Messages)
	if len(msgs) > 0 && bytes.HasPrefix(bytes.TrimSpace(msgs[0]), []byte("[")) {
		msgs = lsList(msgs[0]) // a batch: the first of its lists
	}
	out = append(out, msgs...)
	prompts := in.Prompts
	if in.Prompt != "" {
		prompts = append(prompts, in.Prompt)
	}
	if len(msgs) == 0 && len(prompts) > 0 {
		m, _ := json.Marshal(map[string]string{"role": "user", "content": prompts[0]})
		out = append(out, m)
	}
	return out
}

// lsOutputs finds a run's reply: generations (LangChain's LLMResult, a
// generation's message or text), choices (OpenAI's completion), message,
// messages, output, or the outputs themselves when they are a message
// (Anthropic's Message).
func lsOutputs(outputs json.RawMessage) []json.RawMessage {
	var out struct {
		Generations json.RawMessage   `json:"generations"`
		Choices     []json.RawMessage `json:"choices"`
		Message     json.RawMessage   `json:"message"`
		Messages    json.RawMessage   `json:"messages"`
		Output      json.RawMessage   `json:"output"`
		Role        json.RawMessage   `json:"role"`
		Content     json.RawMessage   `json:"content"`
	}
	if json.Unmarshal(outputs, &out) != nil {
		return nil
	}
	if gens := lsList(out.Generations); len(gens) > 0 {
		g := gens[0]
		if bytes.HasPrefix(bytes.TrimSpace(g), []byte("[")) {
			if inner := lsList(g); len(inner) > 0 {
				g = inner[0]
			}
		}
		var gen struct {
			Message json.RawMessage `json:"message"`
			Text    string          `json:"text"`
		}
		if json.Unmarshal(g, &gen) == nil {
			if isObject(gen.Message) {
				return []json.RawMessage{gen.Message}
			}
			if gen.Text != "" {
				m, _ := json.Marshal(map[string]string{"role": "assistant", "content": gen.Text})
				return []json.RawMessage{m}
			}
		}
		return nil
	}
	if len(out.Choices) > 0 {
		var ch struct {
			Message json.RawMessage `json:"message"`
		}
		if json.Unmarshal(out.Choices[0], &ch) == nil && isObject(ch.Message) {
			return []json.RawMessage{ch.Message}
		}
		return nil
	}
	switch {
	case isObject(out.Message):
		return []json.RawMessage{out.Message}
	case len(lsList(out.Messages)) > 0:
		return lsList(out.Messages)
	case isObject(out.Output):
		return []json.RawMessage{out.Output}
	case len(out.Role) > 0 && len(out.Content) > 0:
		return []json.RawMessage{outputs}
	}
	return nil
}

// lsList is a JSON array's elements, nil for anything else.
func lsList(raw json.RawMessage) []json.RawMessage {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	return list
}

func isObject(raw json.RawMessage) bool {
	return bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{"))
}

// lsFields are a message's fields in any of the forms read.
type lsFields struct {
	Role             string          `json:"role"`
	Type             string          `json:"type"`
	Content          json.RawMessage `json:"content"`
	ToolCalls        json.RawMessage `json:"tool_calls"`
	ToolCallID       string          `json:"tool_call_id"`
	Status           string          `json:"status"`
	AdditionalKwargs struct {
		ToolCalls json.RawMessage `json:"tool_calls"`
	} `json:"additional_kwargs"`
}

// lsMessages reads messages; one that cannot be read is dropped and
// counted.
func (b *builder) lsMessages(raws []json.RawMessage, answered map[string]bool) []*lsMsg {
	var out []*lsMsg
	for _, raw := range raws {
		ms, err := b.lsMessage(raw, answered)
		if err != nil {
			b.drop("messages that could not be read")
			continue
		}
		out = append(out, ms...)
	}
	return out
}

// lsMessage reads one message: LangChain's serialized form (role from the
// class name, fields from kwargs), message_to_dict's {type, data}, or an
// OpenAI or Anthropic message. An Anthropic user message's tool_result
// blocks are tool messages of their own.
func (b *builder) lsMessage(raw json.RawMessage, answered map[string]bool) ([]*lsMsg, error) {
	f, role, err := lsFieldsOf(raw)
	if err != nil {
		return nil, err
	}
	if role == "" || role == "chat" {
		role = firstNonEmpty(f.Role, f.Type)
	}
	switch role {
	case "human", "user":
		role = "user"
	case "ai", "assistant", "model":
		role = "assistant"
	case "system", "developer":
		role = "system"
	case "tool", "function":
		role = "tool"
	default:
		b.drop("messages with role " + orDash(role))
		return nil, nil
	}
	m := &lsMsg{role: role, callID: f.ToolCallID, isError: f.Status == "error"}
	text, results, calls, err := b.lsContent(f.Content)
	if err != nil {
		return nil, err
	}
	m.text = text
	m.calls = calls
	if tc := lsToolCalls(f.ToolCalls); len(tc) > 0 {
		m.calls = tc // LangChain's tool_calls hold the content's tool_use blocks too
	} else if tc := lsToolCalls(f.AdditionalKwargs.ToolCalls); len(tc) > 0 && len(m.calls) == 0 {
		m.calls = tc
	}
	if role == "user" {
		for _, p := range lsSummaryPrefixes {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(text), p); ok {
				s := strings.TrimSpace(rest)
				m.summary = &s
			}
		}
	}
	// Tool results answer the calls before the message's own text.
	out := results
	if m.role != "user" || m.text != "" || len(results) == 0 {
		out = append(out, m)
	}
	for _, x := range out {
		x := x
		x.add = func() error { return b.lsAdd(x, answered) }
	}
	return out, nil
}

// lsFieldsOf reads a message's fields: from kwargs in LangChain's
// serialized form (the role its class's), from data in message_to_dict's
// {type, data}, else the message itself (OpenAI's, Anthropic's).
func lsFieldsOf(raw json.RawMessage) (lsFields, string, error) {
	var env struct {
		LC     json.RawMessage `json:"lc"`
		ID     json.RawMessage `json:"id"`
		Kwargs json.RawMessage `json:"kwargs"`
		Type   string          `json:"type"`
		Data   json.RawMessage `json:"data"`
	}
	var f lsFields
	if err := json.Unmarshal(raw, &env); err != nil {
		return f, "", err
	}
	fieldsRaw, role := raw, ""
	switch {
	case len(env.LC) > 0 && isObject(env.Kwargs):
		fieldsRaw = env.Kwargs
		var class []string
		json.Unmarshal(env.ID, &class)
		if len(class) > 0 {
			role = lsClassRole(class[len(class)-1])
		}
	case isObject(env.Data):
		fieldsRaw, role = env.Data, env.Type
	}
	err := json.Unmarshal(fieldsRaw, &f)
	return f, role, err
}

// lsClassRole is the role of a LangChain message class.
func lsClassRole(class string) string {
	class = strings.TrimSuffix(class, "Chunk")
	switch class {
	case "HumanMessage":
		return "human"
	case "AIMessage":
		return "ai"
	case "SystemMessage":
		return "system"
	case "ToolMessage", "FunctionMessage":
		return "tool"
	case "ChatMessage":
		return "chat"
	}
	return class
}

// lsBlock is a content block in the union of the forms read: text,
// Anthropic's tool_use and tool_result, LangChain's tool_call, reasoning.
type lsBlock struct {
	Type      string          `json:"type"`
	Text      json.RawMessage `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Args      json.RawMessage `json:"args"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// lsContent reads a content value: its text, the tool messages its
// tool_result blocks are, and the calls its tool_use or tool_call blocks
// make. Reasoning and media are dropped and counted.
func (b *builder) lsContent(raw json.RawMessage) (string, []*lsMsg, []lsCall, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		s, err := b.contentText(raw)
		return s, nil, nil, err
	}
	var blocks []lsBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", nil, nil, err
	}
	var texts []string
	var results []*lsMsg
	var calls []lsCall
	for _, bl := range blocks {
		switch bl.Type {
		case "text", "input_text", "output_text", "":
			if t := jsonText(bl.Text); strings.TrimSpace(t) != "" {
				texts = append(texts, t)
			}
		case "tool_use", "tool_call":
			args := bl.Input
			if len(args) == 0 {
				args = bl.Args
			}
			calls = append(calls, lsCall{id: bl.ID, name: bl.Name, args: argsValue(args)})
		case "tool_result":
			out, drops, err := textOf(bl.Content)
			if err != nil {
				out, drops = string(bl.Content), nil
			}
			for _, d := range drops {
				b.drop(d)
			}
			results = append(results, &lsMsg{role: "tool", text: out, callID: bl.ToolUseID, isError: bl.IsError})
		case "reasoning", "thinking", "redacted_thinking":
			b.drop("reasoning parts")
		default:
			b.drop("content parts of type " + bl.Type)
		}
	}
	return strings.Join(texts, "\n\n"), results, calls, nil
}

// lsToolCalls reads tool calls in LangChain's form ({name, args, id}) or
// OpenAI's ({id, function: {name, arguments}}).
func lsToolCalls(raw json.RawMessage) []lsCall {
	var list []struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Args     json.RawMessage `json:"args"`
		Function *struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	out := make([]lsCall, 0, len(list))
	for _, c := range list {
		call := lsCall{id: c.ID, name: c.Name, args: argsValue(c.Args)}
		if c.Function != nil {
			call.name = firstNonEmpty(call.name, c.Function.Name)
			if call.args == nil {
				call.args = argsValue(c.Function.Arguments)
			}
		}
		out = append(out, call)
	}
	return out
}

// lsAdd adds one message as events.
func (b *builder) lsAdd(m *lsMsg, answered map[string]bool) error {
	switch m.role {
	case "tool":
		if answered[m.callID] {
			return nil // the tool's run gave its result
		}
		status := scenarios.StatusOK
		if m.isError {
			status = scenarios.StatusError
		}
		return b.result(m.callID, status, m.text)
	case "assistant":
		text := m.text
		for _, c := range m.calls {
			if err := b.call(text, c.id, c.name, c.args); err != nil {
				return err
			}
			text = ""
		}
		return b.text(scenarios.RoleAssistant, text)
	case "system":
		return b.text(scenarios.RoleSystem, m.text)
	}
	return b.text(scenarios.RoleUser, m.text)
}

// lsTool adds a tool run's result (and its call, when no model call
// showed it): its call id is the ToolMessage's it returned; an error, or
// status "error", makes it status: error. A run that names no call is
// counted: the next model call's context holds its result.
func (b *builder) lsTool(r *lsRun, answered map[string]bool) error {
	var out struct {
		Output     json.RawMessage `json:"output"`
		ToolCallID string          `json:"tool_call_id"`
	}
	json.Unmarshal(r.Outputs, &out)
	var in struct {
		ToolCallID string          `json:"tool_call_id"`
		Input      json.RawMessage `json:"input"`
	}
	json.Unmarshal(r.Inputs, &in)
	id := firstNonEmpty(out.ToolCallID, in.ToolCallID, jsonString(r.Extra.Metadata["tool_call_id"]))
	text := ""
	isError := r.Status == "error"
	if e := jsonText(r.Error); strings.TrimSpace(e) != "" {
		isError, text = true, e
	}
	// A LangChain tool returns a ToolMessage, which names its call.
	f, _, err := lsFieldsOf(out.Output)
	switch {
	case isObject(out.Output) && err == nil && f.ToolCallID != "":
		id = f.ToolCallID
		if t, terr := b.contentText(f.Content); terr == nil && t != "" {
			text = t
		}
		isError = isError || f.Status == "error"
	case text == "":
		text = jsonText(out.Output)
	}
	if id == "" {
		b.drop("tool runs naming no tool call (the next model call's context holds their results)")
		return nil
	}
	if _, known := b.calls[id]; !known {
		args := argsValue(in.Input)
		if args == nil && isObject(r.Inputs) {
			args = argsValue(r.Inputs)
		}
		if err := b.call("", id, r.Name, args); err != nil {
			return err
		}
	} else if !b.openCall(id) {
		return nil // the messages gave its result already
	}
	answered[id] = true
	status := scenarios.StatusOK
	if isError {
		status = scenarios.StatusError
	}
	return b.result(id, status, text)
}

// lsTokens is a model call's context and reply size, as the run counts
// it: prompt_tokens and completion_tokens, else the usage its outputs
// report (LangChain's llm_output.token_usage or usage_metadata, OpenAI's
// and Anthropic's usage).
func lsTokens(r *lsRun) int {
	n := lsInt(r.PromptTokens) + lsInt(r.CompletionTokens)
	if n > 0 {
		return n
	}
	type usage struct {
		Prompt     json.RawMessage `json:"prompt_tokens"`
		Completion json.RawMessage `json:"completion_tokens"`
		Input      json.RawMessage `json:"input_tokens"`
		Output     json.RawMessage `json:"output_tokens"`
	}
	var out struct {
		LLMOutput struct {
			TokenUsage usage `json:"token_usage"`
		} `json:"llm_output"`
		Usage         usage `json:"usage"`
		UsageMetadata usage `json:"usage_metadata"`
	}
	json.Unmarshal(r.Outputs, &out)
	for _, u := range []usage{out.LLMOutput.TokenUsage, out.Usage, out.UsageMetadata} {
		if n := lsInt(u.Prompt) + lsInt(u.Completion) + lsInt(u.Input) + lsInt(u.Output); n > 0 {
			return n
		}
	}
	return 0
}

// lsInt is a JSON number as an int, 0 for anything else.
func lsInt(raw json.RawMessage) int {
	n, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
	if err != nil || n < 0 || n > 1e12 {
		return 0
	}
	return int(n)
}

// eachLangSmith is ImportEach for LangSmith runs: one scenario a session.
func eachLangSmith(br *bufio.Reader, opts Options, base *Report, emit func(rep *Report, write func(io.Writer) error, err error) error) (int, error) {
	sessions, problems, err := readLangSmith(br, opts.MaxLineBytes)
	if err != nil {
		return 0, err
	}
	return eachGroup(len(sessions), opts, base, FormatLangSmith, emit, func(b *builder, i int) error {
		if err := b.lsProblems(problems); err != nil {
			return err
		}
		return b.lsSession(sessions[i])
	})
}
