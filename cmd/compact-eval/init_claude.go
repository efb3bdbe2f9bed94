package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/compact-eval/compact-eval/guard"
)

// claudeSettingsFile is where init --claude-code writes the hooks by
// default: the project's shared Claude Code settings, checked in.
const claudeSettingsFile = ".claude/settings.json"

// guardHookCommand is the command the hooks run; the hooks init wrote
// before are found by it.
const guardHookCommand = "compact-eval guard --claude-code-hook"

// guardHookTimeout is the hooks' timeout, in seconds (Claude Code's
// unit): the guard answers a 200k-token history in well under a second.
const guardHookTimeout = 30

// claudeHooks are the hook events init writes, with their matchers:
// PreCompact for every trigger, SessionStart after a compaction only.
var claudeHooks = []struct{ event, matcher string }{
	{guard.HookPreCompact, ""},
	{guard.HookSessionStart, "compact"},
}

// invariantsTemplate is the invariants file init --claude-code writes
// when the project has none.
const invariantsTemplate = `# The invariants compact-eval guard checks each compaction against
# (docs/guard.md), written by compact-eval init --claude-code. Each is an
# invariant in the scenario syntax (docs/formats.md §2). Leave out its
# source seq (source_seq, call_seq…): the guard finds, in each session's
# history, the event that states it, and an invariant no event states
# does not apply to that session.
version: 1

# Also check the invariants compact-eval import suggests from each
# session's history, at or above this measured confidence (0 to 1; the
# classes and their confidences are in docs/guard.md):
# suggestions:
#   min_confidence: 0.5

invariants: []
# For example (remove the [] above, uncomment, and write your own):
# invariants:
#   - id: no-force-push
#     type: constraint
#     match: ['(never|do not|don.t)\W+(run\W+)?git push --force']
#   - id: live-config
#     type: artifact
#     paths: [config/db.yml, config/db.yaml]
#     required: [config/db.yml]
`

// runInitClaude writes the Claude Code hooks into settings (merged into
// the file when it exists: other keys and hooks are kept, a hook init
// wrote before is updated in place) and the project's invariants file
// when there is none.
func runInitClaude(env *Env, settings string, block bool) error {
	command := guardHookCommand
	if block {
		command += " --block"
	}
	root, err := readSettings(settings)
	if err != nil {
		return err
	}
	hooks := root.object("hooks")
	for _, h := range claudeHooks {
		setGuardHook(hooks, h.event, h.matcher, command)
	}
	var buf bytes.Buffer
	root.write(&buf, "")
	buf.WriteByte('\n')
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(settings, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s: PreCompact and SessionStart (compact) run %s\n", settings, command)
	inv := guard.DefaultInvariantsFile
	if _, err := os.Lstat(inv); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(inv), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(inv, []byte(invariantsTemplate), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "wrote %s\n", inv)
	} else {
		fmt.Fprintf(env.Stdout, "kept %s (it exists)\n", inv)
	}
	fmt.Fprintf(env.Stdout, `
next:
  1. write the rules every session must keep in %s
  2. put compact-eval on the PATH Claude Code runs hooks with (go install ./cmd/compact-eval)
  3. after a compaction, a lost invariant comes back into the context, restated
     from the session's own events; try it on a log first:
       compact-eval guard ~/.claude/projects/PROJECT/SESSION.jsonl
`, inv)
	return nil
}

// setGuardHook makes hooks[event] hold one group with matcher that runs
// command: a group already running the guard is updated, else one is
// appended.
func setGuardHook(hooks *jsonObject, event, matcher, command string) {
	groups, _ := hooks.get(event).([]any)
	for _, g := range groups {
		gobj, ok := g.(*jsonObject)
		if !ok {
			continue
		}
		list, _ := gobj.get("hooks").([]any)
		for _, h := range list {
			hobj, ok := h.(*jsonObject)
			if !ok {
				continue
			}
			if c, _ := hobj.get("command").(string); strings.HasPrefix(c, guardHookCommand) {
				hobj.set("command", command)
				return
			}
		}
	}
	group := &jsonObject{}
	if matcher != "" {
		group.set("matcher", matcher)
	}
	h := &jsonObject{}
	h.set("type", "command")
	h.set("command", command)
	h.set("timeout", json.Number(fmt.Sprint(guardHookTimeout)))
	group.set("hooks", []any{h})
	hooks.set(event, append(groups, group))
}

// readSettings reads a settings file as an ordered JSON object; a file
// that does not exist is an empty one.
func readSettings(path string) (*jsonObject, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &jsonObject{}, nil
	}
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return &jsonObject{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err == nil {
		if _, err2 := dec.Token(); err2 != io.EOF {
			err = errors.New("more than one JSON value")
		}
	}
	obj, ok := v.(*jsonObject)
	if err != nil || !ok {
		if err == nil {
			err = errors.New("not a JSON object")
		}
		return nil, inputError{fmt.Errorf("%s: %v: nothing written", path, err)}
	}
	return obj, nil
}

// jsonObject is a JSON object that keeps its keys' order, so that a
// settings file init merges into reads as its author wrote it.
type jsonObject struct {
	keys []string
	vals map[string]any
}

func (o *jsonObject) get(k string) any { return o.vals[k] }

func (o *jsonObject) set(k string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// object is the object at k, created when absent or not an object.
func (o *jsonObject) object(k string) *jsonObject {
	if v, ok := o.get(k).(*jsonObject); ok {
		return v
	}
	v := &jsonObject{}
	o.set(k, v)
	return v
}

// decodeOrdered reads one JSON value: objects as *jsonObject, arrays as
// []any, numbers as json.Number.
func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch d {
	case '{':
		o := &jsonObject{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			o.set(kt.(string), v)
		}
		_, err := dec.Token()
		return o, err
	case '[':
		list := []any{}
		for dec.More() {
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token()
		return list, err
	}
	return nil, fmt.Errorf("unexpected %v", d)
}

// write writes o indented by two spaces a level.
func (o *jsonObject) write(b *bytes.Buffer, indent string) {
	if len(o.keys) == 0 {
		b.WriteString("{}")
		return
	}
	b.WriteString("{\n")
	for i, k := range o.keys {
		b.WriteString(indent + "  ")
		writeScalar(b, k)
		b.WriteString(": ")
		writeValue(b, o.vals[k], indent+"  ")
		if i < len(o.keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + "}")
}

func writeValue(b *bytes.Buffer, v any, indent string) {
	switch x := v.(type) {
	case *jsonObject:
		x.write(b, indent)
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			b.WriteString(indent + "  ")
			writeValue(b, e, indent+"  ")
			if i < len(x)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	default:
		writeScalar(b, x)
	}
}

func writeScalar(b *bytes.Buffer, v any) {
	if v == nil {
		b.WriteString("null")
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	b.Write(bytes.TrimRight(buf.Bytes(), "\n"))
}
