package importer

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/importer/suggest"
	"github.com/compact-eval/compact-eval/scenarios"
)

type evKind uint8

const (
	kindText evKind = iota
	kindCall
	kindResult
	// kindRoot is no event: it gives the scanner the session's working
	// directory (text), for the events after it.
	kindRoot
	// kindEdited is no event: it tells the scanner that the last call
	// wrote the file text, which its arguments do not name.
	kindEdited
)

// rec is one event as a parser hands it over, and as it is spilled.
type rec struct {
	kind     evKind
	role     scenarios.Role
	text     string
	callID   string
	callName string
	args     []byte // raw JSON, nil when the call has no arguments
	status   string
	note     string // said in the event's comment (how the log recorded it)
	callIdx  int32  // a result's call (its index), -1 when none
}

// suggestEvent is what the suggestion scanner reads of r.
func (r *rec) suggestEvent() suggest.Event {
	e := suggest.Event{Kind: suggest.Text, Role: r.role, Text: r.text, CallName: r.callName, Args: r.args, Status: r.status, CallIdx: -1}
	switch r.kind {
	case kindCall:
		e.Kind = suggest.Call
	case kindResult:
		e.Kind = suggest.Result
		e.CallIdx = int(r.callIdx)
	}
	return e
}

// meta is what stays in memory for each event.
type meta struct {
	role   scenarios.Role
	kind   evKind
	result int32 // for a call: index of its result, -1 when none
}

type callRef struct {
	idx int
	id  string // id written to the scenario (renamed when duplicated)
}

// builder collects a session's events. Parsers call its add methods in order;
// finish pairs what is left and computes the cut; write renders the scenario.
type builder struct {
	opts   Options
	format Format
	store  spill
	pipe   chan rec      // events on their way to the renderer
	done   chan struct{} // closed when the renderer has finished
	werr   error         // the renderer's first error
	metas  []meta
	calls  map[string]callRef
	callID map[int]string // call index -> id, for unresolved calls only (filled by finish)
	counts map[string]int // dropped or adjusted items, by kind
	warns  []string
	malformed,
	malformedListed int
	scan   *suggest.Scanner
	goal   string
	first  time.Time
	last   time.Time
	stamps int
	synth  int
	// pending is a compaction the log announced (a boundary line)
	// whose summary text may follow; recorded are the compactions kept
	// (recorded.go).
	pending  *recordedComp
	recorded []recordedComp
	// compactionEvents and compactedItems count Codex's context_compacted
	// events and compacted items.
	compactionEvents, compactedItems int
	// lastMessage is the last chat message read (completion.go).
	lastMessage []byte
	// lastTokens is the context size the log last reported (Codex's
	// token_count events), 0 when none.
	lastTokens int
	// spawnCall is the id of the call that spawned this session, a Codex
	// subagent forked from its parent's history: the parent's log holds
	// its output.
	spawnCall string
	cut       int
	rules     string // a system prompt given apart from the messages
	rootSet   bool   // the working directory was given to the scanner
	// record names the record imported (task_id, trial, reward);
	// records how many records the input holds; each is true under
	// ImportEach.
	record  recordInfo
	records int
	each    bool
	// pendingOver counts the unresolved calls past maxPending (set by
	// suggestions).
	pendingOver int
}

func newBuilder(opts Options, format Format) (*builder, error) {
	b := &builder{
		opts:   opts,
		format: format,
		store:  spill{dir: opts.TempDir},
		calls:  map[string]callRef{},
		counts: map[string]int{},
		scan:   suggest.New(),
		pipe:   make(chan rec, 256),
		done:   make(chan struct{}),
	}
	go b.render(b.pipe)
	return b, nil
}

// render runs beside the parser: it scans each event for suggestions and
// renders its YAML into the spill, so that parsing and rendering share the
// work of two cores.
func (b *builder) render(pipe <-chan rec) {
	defer close(b.done)
	var buf []byte
	idx := 0
	for r := range pipe {
		switch r.kind {
		case kindRoot:
			b.scan.SetRoot(r.text)
			continue
		case kindEdited:
			b.scan.Edited(idx-1, r.text)
			continue
		}
		if b.werr == nil {
			b.scan.Add(idx, r.suggestEvent())
			buf = appendEvent(buf[:0], &r, idx+1)
			b.werr = b.store.write(buf)
		}
		idx++
	}
}

// stop ends the renderer and waits for it; it is safe to call twice.
func (b *builder) stop() error {
	if b.pipe != nil {
		close(b.pipe)
		b.pipe = nil
		<-b.done
	}
	return b.werr
}

func (b *builder) close() {
	b.stop()
	b.store.close()
}

// setRoot gives the suggestion scanner the session's working directory,
// the first one the log names: paths under it and relative to it are one
// file. It is not an event.
func (b *builder) setRoot(dir string) {
	if b.rootSet || !strings.HasPrefix(dir, "/") {
		return
	}
	b.rootSet = true
	b.pipe <- rec{kind: kindRoot, text: dir}
}

// edited tells the scanner that the last call wrote path, a file its
// arguments do not name (SWE-agent's edit writes the open file).
func (b *builder) edited(path string) {
	b.pipe <- rec{kind: kindEdited, text: path}
}

// drop counts one item that has no place in the scenario.
func (b *builder) drop(kind string) { b.counts[kind]++ }

// stamp records a timestamp (RFC 3339 or similar); it is dropped from the
// events and only the session's span is kept.
func (b *builder) stamp(s string) {
	if s == "" {
		return
	}
	b.stamps++
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return
	}
	if b.first.IsZero() || t.Before(b.first) {
		b.first = t
	}
	if t.After(b.last) {
		b.last = t
	}
}

// malformedLine reports a line that could not be read: an error under Strict,
// else a warning (the first few are listed, the rest counted).
func (b *builder) malformedLine(line int, err error) error {
	if b.opts.Strict {
		return &InputError{Line: line, Err: fmt.Errorf("malformed line: %w", err)}
	}
	b.malformed++
	if b.malformedListed < 10 {
		b.malformedListed++
		b.warns = append(b.warns, fmt.Sprintf("line %d: malformed, skipped: %v", line, shorten(err.Error(), 160)))
	}
	return nil
}

func (b *builder) trim(s string) string {
	n := b.opts.MaxEventChars
	if n <= 0 || len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for i = range s {
		if k == n {
			break
		}
		k++
	}
	b.counts["texts trimmed by --max-event-chars"]++
	rest := utf8.RuneCountInString(s[i:])
	return s[:i] + fmt.Sprintf("…[trimmed %d chars]", rest)
}

func (b *builder) put(r rec) error {
	if err := b.flushPending(); err != nil {
		return err
	}
	b.metas = append(b.metas, meta{role: r.role, kind: r.kind, result: -1})
	b.pipe <- r
	return nil
}

// text adds a plain text event. Empty text is ignored. A system (or
// developer) message before the first event is the agent's standing
// instructions, which no agent compacts: it joins the scenario's rules
// instead of becoming an event.
func (b *builder) text(role scenarios.Role, text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if role == scenarios.RoleSystem && len(b.metas) == 0 && b.pending == nil {
		if strings.TrimSpace(b.rules) != "" {
			b.rules += "\n\n"
		}
		b.rules += text
		return nil
	}
	if role == scenarios.RoleUser && b.goal == "" && strings.TrimSpace(suggest.OwnText(role, text)) != "" {
		// the user's first own words: not a project file, not the
		// harness's template around them
		b.goal = text
	}
	return b.put(rec{kind: kindText, role: role, text: b.trim(text)})
}

// call adds an assistant tool call; text is what the assistant wrote with it.
func (b *builder) call(text, id, name string, args []byte) error {
	if id == "" {
		b.synth++
		id = fmt.Sprintf("call-%d", b.synth)
		b.counts["tool calls without an id (id made up)"]++
	}
	if name == "" {
		name = "unknown"
	}
	final := id
	if _, dup := b.calls[id]; dup {
		for k := 2; ; k++ {
			final = fmt.Sprintf("%s-%d", id, k)
			if _, taken := b.calls[final]; !taken {
				break
			}
		}
		b.counts["duplicate tool call ids (renamed)"]++
	}
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = nil
	}
	idx := len(b.metas)
	if err := b.put(rec{kind: kindCall, role: scenarios.RoleAssistant, text: b.trim(text), callID: final, callName: name, args: args}); err != nil {
		return err
	}
	ref := callRef{idx: idx, id: final}
	b.calls[id] = ref
	if final != id {
		b.calls[final] = ref
	}
	return nil
}

// result adds a tool result for the call with the given (source) id.
func (b *builder) result(callID, status, text string) error {
	ref, ok := b.calls[callID]
	if !ok {
		b.counts["tool results with no earlier call (dropped)"]++
		return nil
	}
	if b.metas[ref.idx].result >= 0 {
		b.counts["second results for one call (dropped)"]++
		return nil
	}
	if status == "" {
		status = scenarios.StatusOK
	}
	b.metas[ref.idx].result = int32(len(b.metas))
	return b.put(rec{kind: kindResult, role: scenarios.RoleTool, callID: ref.id, status: status, text: b.trim(text), callIdx: int32(ref.idx)})
}

// openCall reports whether a call with this source id exists and has no
// result yet.
func (b *builder) openCall(id string) bool {
	ref, ok := b.calls[id]
	return ok && b.metas[ref.idx].result < 0
}

// finish flushes a dangling boundary and computes the cut.
func (b *builder) finish() error {
	if err := b.flushPending(); err != nil {
		return err
	}
	if len(b.metas) == 0 {
		return inputErrorf(0, "no events found in the input read as %s (name another format with --from)", b.format)
	}
	b.callID = map[int]string{}
	for _, ref := range b.calls {
		if b.metas[ref.idx].result < 0 {
			b.callID[ref.idx] = ref.id
		}
	}
	b.cut = chooseCut(b.metas)
	if b.placeRecorded() {
		if !b.opts.Cut.IsZero() {
			return inputErrorf(0, "--cut %s: the log records its compactions (the last after seq %d), and the scenario is cut at their boundaries: import it without --cut", b.opts.Cut, b.recorded[len(b.recorded)-1].boundary)
		}
		b.cut = b.recorded[len(b.recorded)-1].boundary
	} else if !b.opts.Cut.IsZero() {
		cut, err := b.askedCut()
		if err != nil {
			return err
		}
		b.cut = cut
	}
	if err := b.stop(); err != nil {
		return err
	}
	return b.store.finish()
}

// chooseCut returns a seq near two thirds of the session, moved earlier
// (later only when nothing earlier works) so that it never separates a call
// from its result.
func chooseCut(metas []meta) int {
	n := len(metas)
	target := (2*n + 2) / 3 // seq, 1-based
	if target < 1 {
		target = 1
	}
	if target >= n && n > 1 {
		target = n - 1
	}
	return nearestValid(splitting(metas), target)
}

// warnings returns the collected warnings, counts included, in a stable order.
func (b *builder) warnings() []string {
	out := append([]string(nil), b.warns...)
	if b.malformed > b.malformedListed {
		out = append(out, fmt.Sprintf("%d more malformed lines skipped", b.malformed-b.malformedListed))
	}
	if b.stamps > 0 {
		out = append(out, fmt.Sprintf("dropped %d timestamps (events have no time field; the span is in the title)", b.stamps))
	}
	keys := make([]string, 0, len(b.counts))
	for k := range b.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%s: %d", k, b.counts[k]))
	}
	return out
}

// shorten returns s cut to about n characters, on a rune boundary, with "…".
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
