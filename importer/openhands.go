package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/scenarios"
)

// ohEvent is one OpenHands event, in the union of the two serialisations:
// the event stream (an "action" or "observation" name, "args" or "extras",
// "cause", "tool_call_metadata") and the SDK's typed events ("kind":
// MessageEvent, ActionEvent, ObservationEvent, …).
type ohEvent struct {
	ID               json.RawMessage            `json:"id"`
	Timestamp        string                     `json:"timestamp"`
	Source           string                     `json:"source"`
	Action           json.RawMessage            `json:"action"`
	Observation      json.RawMessage            `json:"observation"`
	Args             map[string]json.RawMessage `json:"args"`
	Extras           map[string]json.RawMessage `json:"extras"`
	Content          json.RawMessage            `json:"content"`
	Cause            json.RawMessage            `json:"cause"`
	Success          *bool                      `json:"success"`
	ToolCallMetadata *struct {
		FunctionName string `json:"function_name"`
		ToolCallID   string `json:"tool_call_id"`
	} `json:"tool_call_metadata"`

	Kind       string `json:"kind"`
	LLMMessage *struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"llm_message"`
	SystemPrompt json.RawMessage `json:"system_prompt"`
	// SDK Condensation events.
	ForgottenEventIDs []json.RawMessage `json:"forgotten_event_ids"`
	Thought           json.RawMessage   `json:"thought"`
	ToolName          string            `json:"tool_name"`
	ToolCallID        string            `json:"tool_call_id"`
	Error             string            `json:"error"`
	RejectionReason   string            `json:"rejection_reason"`
	Summary           *string           `json:"summary"`
	// LLMMetrics is what the model call behind an agent's event cost:
	// the prompt tokens of each call (its context size).
	LLMMetrics *struct {
		TokenUsages []struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"token_usages"`
	} `json:"llm_metrics"`
}

// ohState pairs observations with the actions they answer, and places
// condensations: seen lists each event id with the number of scenario
// events before and after it; requested is set by a condensation request
// (a condensation that follows one was asked for: trigger manual).
type ohState struct {
	calls     map[string]string // event id -> call id
	seen      []ohSeen
	requested bool
}

// ohSeen is an event id and the scenario events before and after it.
type ohSeen struct {
	id            string
	before, after int
}

// ohArgNoise are action arguments that carry the runtime's bookkeeping, not
// what the agent asked for.
var ohArgNoise = map[string]bool{
	"thought": true, "blocking": true, "is_input": true, "hidden": true, "confirmation_state": true,
	"security_risk": true, "impl_source": true, "is_confirmed": true, "keep_prompt": true,
	"wait_for_response": true, "image_urls": true, "file_urls": true, "kernel_init_code": true,
	"include_extra": true, "translated_ipython_code": true, "return_axtree": true, "kind": true,
}

// ohKinds are the SDK event kinds that identify an OpenHands log.
var ohKinds = map[string]bool{
	"MessageEvent": true, "ActionEvent": true, "ObservationEvent": true, "SystemPromptEvent": true,
	"AgentErrorEvent": true, "UserRejectObservation": true, "Condensation": true,
	"CondensationSummaryEvent": true, "CondensationRequest": true, "ConversationStateUpdateEvent": true,
	"PauseEvent": true,
}

// parseOpenHands reads OpenHands events: a JSON array of events, an object
// holding them under "history", "events" or "trajectory", JSONL with one
// event a line, or a file of records (evaluation output, one instance a
// line) from which Options.Index picks one.
func parseOpenHands(br *bufio.Reader, b *builder) error {
	c, head, err := peekStart(br)
	if err != nil {
		return err
	}
	st := &ohState{calls: map[string]string{}}
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if c == '{' && isJSONL(t, len(head) < peekSize) && !ohRecordLine(t) {
		return forEachLine(br, b.opts.MaxLineBytes, decodeOHEvent, func(n int, v any, err error) error {
			if err == nil {
				err = b.ohEvent(st, v.(*ohEvent))
			}
			if err != nil {
				return b.malformedLine(n, err)
			}
			return nil
		})
	}
	if c == '[' && !ohRecordArray(t) {
		dec := json.NewDecoder(br)
		return b.ohStream(dec, st, "the event array", ohPairs(shapeOf(t), ""))
	}
	if c == '{' && !isJSONL(t, len(head) < peekSize) {
		// One object: stream its event array, never holding it whole.
		dec := json.NewDecoder(br)
		dec.Token()
		found := false
		err := walkObject(dec, func(key string) error {
			switch key {
			case "history", "events", "trajectory":
				if found {
					return skipMember(dec)
				}
				found = true
				return b.ohStream(dec, st, key, ohPairs(shapeOf(t), "/"+key))
			}
			return skipMember(dec)
		})
		if err == nil && !found {
			err = inputErrorf(0, "the object has no \"history\", \"events\" or \"trajectory\" array of OpenHands events")
		}
		return err
	}
	return pickRecord(br, b, func(raw json.RawMessage) error { return b.ohRecord(raw) })
}

// ohPairs reports whether the event array at path holds [action,
// observation] pairs, as OpenHands evaluation output did before its history
// became a flat list of events.
func ohPairs(sh shape, path string) bool {
	return sh[path+"/*"] == nil && isOHEvent(sh[path+"/*/*"])
}

// ohStream reads an array of events, or of event pairs, one element at a
// time.
func (b *builder) ohStream(dec *json.Decoder, st *ohState, what string, pairs bool) error {
	if !pairs {
		return streamInto(dec, what, func(i int, e *ohEvent, err error) error { return b.ohDecoded(st, i, e, err) })
	}
	return streamInto(dec, what, func(i int, p *[]ohEvent, err error) error {
		if err != nil {
			return b.skipItem("event pair", i, err)
		}
		for j := range *p {
			if err := b.ohDecoded(st, i, &(*p)[j], nil); err != nil {
				return err
			}
		}
		return nil
	})
}

// ohRecordLine reports whether the first JSONL line is a record holding
// events (evaluation output) rather than an event.
func ohRecordLine(t []byte) bool {
	first := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		first = t[:i]
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(first, &obj) != nil {
		return false
	}
	_, h := obj["history"]
	_, e := obj["events"]
	return h || e
}

// ohRecordArray reports whether a top-level array holds records (objects
// with "history") rather than events.
func ohRecordArray(t []byte) bool {
	sh := shapeOf(t)
	_, h := sh["/*"]["history"]
	_, e := sh["/*"]["events"]
	return h || e
}

// ohRecord imports the events of one record: an array of events or an
// object with "history" or "events".
func (b *builder) ohRecord(raw json.RawMessage) error {
	st := &ohState{calls: map[string]string{}}
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '{' {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return err
		}
		v, ok := obj["history"]
		if !ok {
			v, ok = obj["events"]
		}
		if !ok {
			return fmt.Errorf("the record has no \"history\" or \"events\" array")
		}
		raw = v
	}
	var events []json.RawMessage
	if err := json.Unmarshal(raw, &events); err != nil {
		return fmt.Errorf("events: %w", err)
	}
	for i, e := range events {
		if err := b.ohRaw(st, i, e); err != nil {
			return err
		}
	}
	return nil
}

func decodeOHEvent(line []byte) (any, error) {
	e := &ohEvent{}
	if err := json.Unmarshal(line, e); err != nil {
		return nil, err
	}
	return e, nil
}

func (b *builder) ohRaw(st *ohState, i int, raw json.RawMessage) error {
	if raw = bytes.TrimSpace(raw); len(raw) > 0 && raw[0] == '[' {
		// An [action, observation] pair.
		var pair []json.RawMessage
		if err := json.Unmarshal(raw, &pair); err != nil {
			return b.skipItem("event pair", i, err)
		}
		for _, e := range pair {
			if err := b.ohRaw(st, i, e); err != nil {
				return err
			}
		}
		return nil
	}
	var e ohEvent
	if err := json.Unmarshal(raw, &e); err != nil {
		return b.skipItem("event", i, err)
	}
	if err := b.ohEvent(st, &e); err != nil {
		return b.skipItem("event", i, err)
	}
	return nil
}

// ohDecoded is ohRaw for an event already decoded (err is its decoding
// error).
func (b *builder) ohDecoded(st *ohState, i int, e *ohEvent, err error) error {
	if err != nil {
		return b.skipItem("event", i, err)
	}
	if err := b.ohEvent(st, e); err != nil {
		return b.skipItem("event", i, err)
	}
	return nil
}

// jsonString returns a raw JSON string's value, or "".
func jsonString(raw json.RawMessage) string {
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	if s, ok := unquoteJSON(raw); ok {
		return s
	}
	var s string
	json.Unmarshal(raw, &s)
	return s
}

// idString returns an event id (a number or a string) as text.
func idString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if s := jsonString(raw); s != "" {
		return s
	}
	return string(raw)
}

func (b *builder) ohEvent(st *ohState, e *ohEvent) error {
	before := len(b.metas)
	err := b.ohEventKind(st, e)
	if id := idString(e.ID); id != "" {
		st.seen = append(st.seen, ohSeen{id: id, before: before, after: len(b.metas)})
	}
	return err
}

func (b *builder) ohEventKind(st *ohState, e *ohEvent) error {
	b.stamp(e.Timestamp)
	if m := e.LLMMetrics; m != nil && len(m.TokenUsages) > 0 {
		// the last call's context: prompt and reply (the size before a
		// condensation that follows)
		u := m.TokenUsages[len(m.TokenUsages)-1]
		if n := u.PromptTokens + u.CompletionTokens; n > 0 {
			b.lastTokens = n
		}
	}
	if e.Kind != "" {
		return b.ohTyped(st, e)
	}
	if name := jsonString(e.Action); name != "" {
		return b.ohAction(st, e, name)
	}
	if name := jsonString(e.Observation); name != "" {
		return b.ohObservation(st, e, name)
	}
	return fmt.Errorf("neither an action, an observation nor a typed event")
}

func ohRole(source string) scenarios.Role {
	switch source {
	case "user":
		return scenarios.RoleUser
	case "agent":
		return scenarios.RoleAssistant
	}
	return scenarios.RoleSystem
}

func (b *builder) ohAction(st *ohState, e *ohEvent, name string) error {
	arg := func(k string) string { return jsonString(e.Args[k]) }
	meta := e.ToolCallMetadata
	switch name {
	case "message":
		return b.text(ohRole(e.Source), arg("content"))
	case "system":
		if b.rules == "" {
			b.rules = arg("content")
			return nil
		}
		return b.text(scenarios.RoleSystem, arg("content"))
	case "condensation":
		var ids []json.RawMessage
		json.Unmarshal(e.Args["forgotten_event_ids"], &ids)
		var start, end *int64
		json.Unmarshal(e.Args["forgotten_events_start_id"], &start)
		json.Unmarshal(e.Args["forgotten_events_end_id"], &end)
		summary := arg("summary")
		if summary == "" {
			summary = fmt.Sprintf("(OpenHands forgot %d events here and kept no summary)", ohForgotten(e.Args))
			return b.note(summary)
		}
		return b.ohCondensation(st, e, summary, ids, start, end)
	case "condensation_request":
		st.requested = true
		b.drop("OpenHands condensation_request actions (the condensation after one is manual)")
		return nil
	case "recall", "change_agent_state", "null":
		b.drop("OpenHands " + name + " actions")
		return nil
	}
	if meta == nil {
		switch name {
		case "think":
			return b.text(scenarios.RoleAssistant, arg("thought"))
		case "finish":
			return b.text(scenarios.RoleAssistant, firstNonEmpty(arg("final_thought"), arg("thought"), arg("message")))
		}
	}
	id, tool := "oh-"+idString(e.ID), name
	if meta != nil {
		id = firstOf(meta.ToolCallID, id)
		tool = firstOf(meta.FunctionName, name)
	}
	args := map[string]json.RawMessage{}
	for k, v := range e.Args {
		if !ohArgNoise[k] {
			args[k] = v
		}
	}
	var raw []byte
	if len(args) > 0 {
		raw = sortedJSON(args)
	}
	if err := b.call(arg("thought"), id, tool, raw); err != nil {
		return err
	}
	if key := idString(e.ID); key != "" {
		st.calls[key] = id
	}
	return nil
}

func ohForgotten(args map[string]json.RawMessage) int {
	var ids []json.RawMessage
	json.Unmarshal(args["forgotten_event_ids"], &ids)
	n := len(ids)
	var start, end *int
	json.Unmarshal(args["forgotten_events_start_id"], &start)
	json.Unmarshal(args["forgotten_events_end_id"], &end)
	if n == 0 && start != nil && end != nil {
		n = *end - *start + 1
	}
	return n
}

// sortedJSON encodes an object with its keys in order, so imports are
// deterministic.
func sortedJSON(m map[string]json.RawMessage) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(m[k])
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

func (b *builder) ohObservation(st *ohState, e *ohEvent, name string) error {
	text := jsonString(e.Content)
	switch name {
	case "agent_state_changed", "recall", "null":
		b.drop("OpenHands " + name + " observations")
		return nil
	case "condense", "agent_condensation":
		if n := len(b.recorded); n > 0 && b.recorded[n-1].summary == strings.TrimSpace(text) {
			b.drop("OpenHands condensation observations repeating their condensation")
			return nil
		}
		return b.ohCondensation(st, e, text, nil, nil, nil)
	}
	id := st.calls[idString(e.Cause)]
	if id == "" && e.ToolCallMetadata != nil {
		id = e.ToolCallMetadata.ToolCallID
	}
	if id == "" {
		if name == "error" {
			return b.text(scenarios.RoleSystem, "[OpenHands error] "+text)
		}
		b.drop("OpenHands observations that answer no action")
		return nil
	}
	status := scenarios.StatusOK
	if name == "error" || name == "user_rejected" || (e.Success != nil && !*e.Success) || ohExitCode(e.Extras) != 0 {
		status = scenarios.StatusError
	}
	return b.result(id, status, text)
}

// ohExitCode reads extras.metadata.exit_code or extras.exit_code (0 when
// absent; -1, a command still running, counts as no result yet only when the
// runtime says so, which it does with a separate observation).
func ohExitCode(extras map[string]json.RawMessage) int {
	var code *int
	if m, ok := extras["metadata"]; ok {
		var meta struct {
			ExitCode *int `json:"exit_code"`
		}
		if json.Unmarshal(m, &meta) == nil {
			code = meta.ExitCode
		}
	}
	if code == nil {
		json.Unmarshal(extras["exit_code"], &code)
	}
	if code == nil {
		return 0
	}
	return *code
}

// ohTyped maps the SDK's typed events.
func (b *builder) ohTyped(st *ohState, e *ohEvent) error {
	switch e.Kind {
	case "SystemPromptEvent":
		text, err := b.contentText(e.SystemPrompt)
		if err != nil {
			text = jsonString(e.SystemPrompt)
		}
		if b.rules == "" {
			b.rules = text
			return nil
		}
		return b.text(scenarios.RoleSystem, text)
	case "MessageEvent":
		if e.LLMMessage == nil {
			return fmt.Errorf("a MessageEvent without llm_message")
		}
		text, err := b.contentText(e.LLMMessage.Content)
		if err != nil {
			return err
		}
		role, ok := chatRole(e.LLMMessage.Role)
		if !ok {
			role = ohRole(e.Source)
		}
		return b.text(role, text)
	case "ActionEvent":
		thought, _ := b.contentText(e.Thought)
		var args []byte
		if len(e.Action) > 0 && e.Action[0] == '{' {
			var m map[string]json.RawMessage
			if json.Unmarshal(e.Action, &m) == nil {
				for k := range m {
					if ohArgNoise[k] {
						delete(m, k)
					}
				}
				args = sortedJSON(m)
			}
		}
		return b.call(thought, e.ToolCallID, e.ToolName, args)
	case "ObservationEvent":
		text, status := ohTypedObservation(e.Observation)
		return b.result(e.ToolCallID, status, text)
	case "AgentErrorEvent":
		if e.ToolCallID != "" && b.openCall(e.ToolCallID) {
			return b.result(e.ToolCallID, scenarios.StatusError, e.Error)
		}
		return b.text(scenarios.RoleSystem, "[OpenHands error] "+e.Error)
	case "UserRejectObservation":
		return b.result(e.ToolCallID, scenarios.StatusError, strings.TrimSpace("rejected by the user: "+e.RejectionReason))
	case "Condensation", "CondensationSummaryEvent":
		if e.Summary == nil || strings.TrimSpace(*e.Summary) == "" {
			if e.Kind == "Condensation" {
				return b.note(fmt.Sprintf("(OpenHands forgot %d events here and kept no summary)", len(e.ForgottenEventIDs)))
			}
			b.drop("OpenHands CondensationSummaryEvent events with no summary")
			return nil
		}
		if n := len(b.recorded); e.Kind == "CondensationSummaryEvent" && n > 0 && b.recorded[n-1].summary == strings.TrimSpace(*e.Summary) {
			b.drop("OpenHands CondensationSummaryEvent events repeating their condensation")
			return nil
		}
		return b.ohCondensation(st, e, *e.Summary, e.ForgottenEventIDs, nil, nil)
	case "CondensationRequest":
		st.requested = true
		b.drop("OpenHands CondensationRequest events (the condensation after one is manual)")
		return nil
	}
	b.drop("OpenHands " + e.Kind + " events")
	return nil
}

// ohCondensation records a condensation: its boundary is the last event
// it forgot (ids, or the range start..end), else every event so far; its
// trigger is manual after a condensation request, else auto. Events
// before the first one it forgot and after the previous boundary stayed
// in the agent's context verbatim (the condenser's keep_first): the cut
// covers them too, which a warning says.
func (b *builder) ohCondensation(st *ohState, e *ohEvent, summary string, ids []json.RawMessage, start, end *int64) error {
	forgot := map[string]bool{}
	for _, id := range ids {
		forgot[idString(id)] = true
	}
	boundary, first := -1, -1
	for _, x := range st.seen {
		in := forgot[x.id]
		if !in && start != nil && end != nil {
			n, err := strconv.ParseInt(x.id, 10, 64)
			in = err == nil && n >= *start && n <= *end
		}
		if !in {
			continue
		}
		boundary = max(boundary, x.after)
		if first < 0 || x.before < first {
			first = x.before
		}
	}
	prev := 0
	if n := len(b.recorded); n > 0 {
		prev = b.recorded[n-1].boundary
	}
	if first > prev && boundary > first {
		kept := fmt.Sprintf("seq %d–%d", prev+1, first)
		if first == prev+1 {
			kept = fmt.Sprintf("seq %d", first)
		}
		b.warns = append(b.warns, fmt.Sprintf("the condensation at event %s forgot events from seq %d on and kept %s verbatim (keep_first): the cut at seq %d covers them too", orDash(idString(e.ID)), first+1, kept, boundary))
	}
	trigger := scenarios.RecordedAuto
	if st.requested {
		trigger = scenarios.RecordedManual
	}
	st.requested = false
	return b.compaction(summary, compactionMeta{trigger: trigger, preTokens: b.lastTokens, timestamp: e.Timestamp}, boundary)
}

// ohTypedObservation reads an SDK observation: content parts or an output
// string, with is_error, error or a non-zero exit_code marking an error.
func ohTypedObservation(raw json.RawMessage) (string, string) {
	var o struct {
		Content  json.RawMessage `json:"content"`
		Output   string          `json:"output"`
		Error    string          `json:"error"`
		IsError  bool            `json:"is_error"`
		ExitCode *int            `json:"exit_code"`
	}
	json.Unmarshal(raw, &o)
	text, _, err := textOf(o.Content)
	if err != nil || text == "" {
		text = firstNonEmpty(o.Output, o.Error)
	}
	status := scenarios.StatusOK
	if o.IsError || o.Error != "" || (o.ExitCode != nil && *o.ExitCode != 0) {
		status = scenarios.StatusError
	}
	return text, status
}
