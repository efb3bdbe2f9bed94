package scenarios

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/result"

	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/internal/yamlnode"
)

// MaxFileSize is the largest scenario file the loader reads: 8 MiB. A larger
// file is refused before it is read, with an error at line 1, column 1. The
// long built-in session is well under 1 MiB; anything near the limit is a
// mistake (a log pasted whole) or an attack.
const MaxFileSize = 8 << 20

// MaxEvents bounds the events of one scenario: explicit events, filler and
// arrivals together. A few filler lines must not be able to ask for a
// billion events, nor a file hold 280,000 tiny ones.
const MaxEvents = 20000

// MaxPatterns bounds the patterns of one scenario (invariants' match,
// conclusion and probes' requires together). Each is a compiled regexp that
// every filler event is checked against: without a bound, a 2.6 MB file of
// 25,000 one-line constraints took 36 s and 240 MB to validate. Real
// scenarios hold a few dozen.
const MaxPatterns = 1000

// LoadFile reads and loads one scenario file. Every problem is reported: the
// error is an ErrorList of positioned *Error values, sorted.
//
// Loading checks the structure (fields, types, payload rules, seq
// numbering) and expands filler; Lint checks the references between parts
// and across a suite. A scenario is usable only when both pass.
func LoadFile(path string) (*Scenario, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, ErrorList{{File: path, Msg: openMsg(err)}}
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil {
		if st.IsDir() {
			return nil, ErrorList{{File: path, Msg: "is a directory; use LoadPaths for folders"}}
		}
		if st.Size() > MaxFileSize {
			return nil, ErrorList{tooBig(path, st.Size())}
		}
	}
	// The file may grow between Stat and Read: never read more than the limit.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, ErrorList{{File: path, Msg: fmt.Sprintf("reading: %v", err)}}
	}
	return LoadBytes(path, data)
}

// openMsg is err without the path, which the positioned Error already names.
func openMsg(err error) string { return inputfile.Reason(err) }

func tooBig(file string, size int64) *Error {
	return &Error{File: file, Pos: result.Pos{Line: 1, Col: 1}, Msg: fmt.Sprintf("file is %.1f MB, limit is %d MiB", float64(size)/1e6, MaxFileSize>>20)}
}

// LoadBytes loads a scenario from data; name is used as its File in errors.
// See LoadFile.
//
// Decisions the format leaves open, taken here:
//   - YAML aliases (*name) are refused: a scenario gains nothing from them and
//     they are the way to build a "billion laughs" bomb. Anchors alone are
//     harmless and ignored.
//   - A file holds exactly one YAML document.
//   - Text fields accept any scalar (`old: 5432` is the string "5432").
//   - Invariants holds pointers: *Constraint, *RefutedHypothesis, *Artifact,
//     *PendingOperation, *Correction, *Quantity, *Secret.
func LoadBytes(name string, data []byte) (s *Scenario, err error) {
	if len(data) > MaxFileSize {
		return nil, ErrorList{tooBig(name, int64(len(data)))}
	}
	if e := checkEncoding(name, data); e != nil {
		return nil, ErrorList{e}
	}
	if _, over := nodeBound(data, MaxNodes); over >= 0 {
		return nil, ErrorList{{File: name, Pos: offsetPos(data, over), Msg: fmt.Sprintf(
			"more than %d YAML nodes by here: a scenario holds at most %d events and %d nodes (keys, values, lists, mappings); keep the part of the session that matters",
			MaxNodes, MaxEvents, MaxNodes)}}
	}
	defer func() {
		// yaml.v3 has panicked on hostile input in the past; a loader must
		// not crash its caller.
		if r := recover(); r != nil {
			s, err = nil, ErrorList{{File: name, Pos: result.Pos{Line: 1, Col: 1}, Msg: fmt.Sprintf("cannot parse YAML: %v", r)}}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, ErrorList{{File: name, Pos: result.Pos{Line: 1, Col: 1}, Msg: "empty file: want a scenario mapping"}}
		}
		return nil, ErrorList{yamlError(name, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return nil, ErrorList{yamlError(name, err)}
		}
		return nil, ErrorList{{File: name, Pos: pos(&extra), Msg: "a second YAML document: a file holds one scenario"}}
	}
	d := newDecoder(name)
	if d.refuseAliases(&doc); len(d.errs) > 0 {
		return nil, d.errs.Err()
	}
	if d.refuseTags(&doc); len(d.errs) > 0 {
		return nil, d.errs.Err()
	}
	s = d.scenario(&doc)
	if len(d.errs) > 0 {
		return nil, d.errs.Err()
	}
	sum := sha256.Sum256(data)
	s.Digest = "sha256:" + hex.EncodeToString(sum[:])
	s.File = name
	return s, nil
}

// LoadPaths loads every scenario named by paths: files, or folders searched
// recursively for *.yaml and *.yml, in sorted order. It returns every
// scenario that loaded, and an ErrorList of every problem (nil when none).
func LoadPaths(paths []string) ([]*Scenario, error) {
	files, errs := Files(paths)
	var list []*Scenario
	for _, f := range files {
		s, err := LoadFile(f)
		if err != nil {
			errs = append(errs, err.(ErrorList)...)
			continue
		}
		list = append(list, s)
	}
	return list, errs.Err()
}

// Files expands paths to the scenario files they name: a file as given, a
// folder searched recursively for *.yaml and *.yml in sorted order. A path
// that does not exist, or a folder with no scenario file, is an error.
// Files are listed once even when several paths name them.
func Files(paths []string) ([]string, ErrorList) {
	var files []string
	var errs ErrorList
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, &Error{File: p, Msg: openMsg(err)})
			continue
		}
		if !st.IsDir() {
			add(p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, de fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, &Error{File: path, Msg: openMsg(err)})
				return nil
			}
			if !de.IsDir() && isScenarioName(path) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, &Error{File: p, Msg: err.Error()})
		}
		if len(found) == 0 {
			errs = append(errs, &Error{File: p, Msg: "no *.yaml or *.yml files in this folder"})
		}
		slices.Sort(found)
		for _, f := range found {
			add(f)
		}
	}
	return files, errs
}

func isScenarioName(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".yaml" || ext == ".yml"
}

// checkEncoding refuses binary and non-UTF-8 data, at the offending byte.
func checkEncoding(name string, data []byte) *Error {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return &Error{File: name, Pos: offsetPos(data, i), Msg: fmt.Sprintf("binary file: NUL byte at offset %d; a scenario is UTF-8 YAML text", i)}
	}
	if utf8.Valid(data) {
		return nil
	}
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return &Error{File: name, Pos: offsetPos(data, i), Msg: fmt.Sprintf("not UTF-8: invalid byte 0x%02x at offset %d; save the file as UTF-8", data[i], i)}
		}
		i += n
	}
	return nil
}

func offsetPos(data []byte, off int) result.Pos {
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return result.Pos{Line: line, Col: 1 + utf8.RuneCount(data[start:off])}
}

func yamlError(name string, err error) *Error {
	line, msg := yamlnode.SyntaxError(err)
	p := result.Pos{Line: 1, Col: 1}
	if line != 0 {
		p.Line = line
	}
	return &Error{File: name, Pos: p, Msg: "YAML syntax: " + msg}
}

func pos(n *yaml.Node) result.Pos { return result.Pos(yamlnode.PosOf(n)) }

// decoder turns a yaml.Node tree into a Scenario, collecting every problem
// in errs; the embedded yamlnode.Decoder reads the generic parts.
type decoder struct {
	yamlnode.Decoder
	file      string
	errs      ErrorList
	npatterns int // patterns decoded so far, for MaxPatterns
}

func newDecoder(file string) *decoder {
	d := &decoder{file: file}
	d.Report = func(p yamlnode.Pos, msg string) {
		d.errs = append(d.errs, &Error{File: d.file, Pos: result.Pos(p), Msg: msg})
	}
	return d
}

func (d *decoder) errorAt(p result.Pos, format string, args ...any) {
	d.errs.add(d.file, p, format, args...)
}

// refuseAliases reports the first alias, and how many more there are (a
// bomb holds thousands), or a nesting deeper than maxDepth.
func (d *decoder) refuseAliases(root *yaml.Node) {
	aliases, deep := yamlnode.Aliases(root, maxDepth)
	if deep != nil {
		d.Errorf(deep, "YAML nested deeper than %d levels", maxDepth)
	}
	if len(aliases) > 0 {
		more := ""
		if len(aliases) > 1 {
			more = fmt.Sprintf(" (%d aliases in this file)", len(aliases))
		}
		d.Errorf(aliases[0], "YAML alias *%s: aliases are not allowed in scenario files, write the value out%s", aliases[0].Value, more)
	}
}

// refuseTags reports every explicit tag but the core ones: a scenario is
// text, numbers, booleans, lists and mappings. "!!binary" was accepted as
// its base64 text; a local tag ("!secret") was silently dropped.
func (d *decoder) refuseTags(root *yaml.Node) {
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Style&yaml.TaggedStyle != 0 {
			switch n.Tag {
			case "!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq":
			case "!!binary":
				d.Errorf(n, "tag !!binary: a scenario holds text, not binary data; write the value as text")
			default:
				d.Errorf(n, "tag %s is not supported: a scenario holds plain YAML values (text, numbers, booleans, lists, mappings); remove the tag", n.Tag)
			}
		}
		for i := len(n.Content) - 1; i >= 0; i-- {
			stack = append(stack, n.Content[i])
		}
	}
}

// maxDepth bounds the nesting of a scenario file; real ones nest about 6
// levels deep (tool arguments can add a few).
const maxDepth = 64

// patterns decodes a pattern or a list of patterns (at least one).
func (d *decoder) patterns(n *yaml.Node, what string) []string {
	if n.Kind == yaml.ScalarNode {
		d.countPatterns(n, 1)
		return []string{d.Text(n, what)}
	}
	if !d.Kind(n, yaml.SequenceNode, what, "a pattern or a list of patterns") {
		return nil
	}
	if len(n.Content) == 0 {
		d.Errorf(n, "%s: empty list of patterns", what)
		return nil
	}
	d.countPatterns(n, len(n.Content))
	out := d.Texts(n, what)
	for i, p := range out {
		if p == "" {
			d.Errorf(n.Content[i], "%s[%d]: empty pattern matches everything", what, i)
		}
	}
	return out
}

// countPatterns adds k patterns, the first of them at n (or in the list
// n), and reports the one that crosses MaxPatterns.
func (d *decoder) countPatterns(n *yaml.Node, k int) {
	before := d.npatterns
	d.npatterns += k
	if before > MaxPatterns || d.npatterns <= MaxPatterns {
		return
	}
	at := n
	if n.Kind == yaml.SequenceNode {
		at = n.Content[MaxPatterns-before]
	}
	d.Errorf(at, "this pattern takes the scenario past %d patterns: a scenario holds no more than %d patterns (invariants and probes together)", MaxPatterns, MaxPatterns)
}

// entry is an events list item before numbering: an event or a filler.
type entry struct {
	ev     Event
	hasSeq bool
	seqPos result.Pos
	filler *Filler
}

func (d *decoder) scenario(doc *yaml.Node) *Scenario {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	s := &Scenario{Pos: pos(root)}
	var eventsNode, arrivalsNode *yaml.Node
	ok := d.Mapping(root, "scenario", []yamlnode.Field{
		{Name: "version", Required: true, Set: func(v *yaml.Node) {
			s.Version = d.Int(v, "version")
			if v.Tag == "!!int" && s.Version != Version {
				d.Errorf(v, "version: %s is not supported (this compact-eval reads version %d)", v.Value, Version)
			}
		}},
		{Name: "id", Required: true, Set: func(v *yaml.Node) {
			s.ID = d.Text(v, "id")
			s.IDPos = pos(v)
			if s.ID != "" && !idRE.MatchString(s.ID) {
				d.Errorf(v, "id %q: want lowercase letters, digits and '-', starting with a letter or digit", s.ID)
			}
		}},
		{Name: "title", Required: false, Set: func(v *yaml.Node) { s.Title, s.TitlePos = d.Text(v, "title"), pos(v) }},
		{Name: "tags", Required: false, Set: func(v *yaml.Node) { s.Tags = d.Texts(v, "tags") }},
		{Name: "goal", Required: false, Set: func(v *yaml.Node) { s.Goal, s.GoalPos = d.Text(v, "goal"), pos(v) }},
		{Name: "rules", Required: false, Set: func(v *yaml.Node) { s.Rules, s.RulesPos = d.Text(v, "rules"), pos(v) }},
		{Name: "context_window", Required: false, Set: func(v *yaml.Node) {
			s.ContextWindow = d.Int(v, "context_window")
			if s.ContextWindow < 0 {
				d.Errorf(v, "context_window: must be positive, got %d", s.ContextWindow)
			}
		}},
		{Name: "compaction", Required: false, Set: func(v *yaml.Node) { s.Compaction = d.compaction(v) }},
		{Name: "events", Required: true, Set: func(v *yaml.Node) { eventsNode = v }},
		{Name: "arrivals", Required: false, Set: func(v *yaml.Node) { arrivalsNode = v }},
		{Name: "invariants", Required: false, Set: func(v *yaml.Node) { s.Invariants = d.invariants(v) }},
		{Name: "probes", Required: false, Set: func(v *yaml.Node) { s.Probes = d.probes(v) }},
	})
	if !ok {
		return s
	}
	if eventsNode != nil {
		s.Events = d.events(eventsNode, s)
	}
	if arrivalsNode != nil {
		s.Arrivals = d.arrivals(arrivalsNode, s)
	}
	return s
}

// idRE is the form of scenario ids (docs/formats.md §2).
var idRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

func (d *decoder) compaction(n *yaml.Node) Compaction {
	c := Compaction{Pos: pos(n)}
	d.Mapping(n, "compaction", []yamlnode.Field{
		{Name: "at", Required: false, Set: func(v *yaml.Node) {
			if !d.Kind(v, yaml.SequenceNode, "compaction.at", "a list of seqs") {
				return
			}
			for i, e := range v.Content {
				c.At = append(c.At, d.Int(e, fmt.Sprintf("compaction.at[%d]", i)))
				c.AtPos = append(c.AtPos, pos(e))
			}
		}},
		{Name: "threshold_tokens", Required: false, Set: func(v *yaml.Node) {
			c.ThresholdTokens = d.Int(v, "compaction.threshold_tokens")
			if c.ThresholdTokens < 0 {
				d.Errorf(v, "compaction.threshold_tokens: must be positive, got %d", c.ThresholdTokens)
			}
		}},
		{Name: "threshold_fraction", Required: false, Set: func(v *yaml.Node) {
			c.ThresholdFraction = d.Number(v, "compaction.threshold_fraction")
			if v.Tag == "!!int" || v.Tag == "!!float" {
				if !(c.ThresholdFraction > 0 && c.ThresholdFraction <= 1) {
					d.Errorf(v, "compaction.threshold_fraction: %s is not in (0, 1]", v.Value)
				}
			}
		}},
		{Name: "reserve_tokens", Required: false, Set: func(v *yaml.Node) {
			c.ReserveTokens = d.Int(v, "compaction.reserve_tokens")
			if c.ReserveTokens < 0 {
				d.Errorf(v, "compaction.reserve_tokens: must not be negative, got %d", c.ReserveTokens)
			}
		}},
		{Name: "keep_recent", Required: false, Set: func(v *yaml.Node) {
			c.KeepRecent = d.Int(v, "compaction.keep_recent")
			if c.KeepRecent < 0 {
				d.Errorf(v, "compaction.keep_recent: must not be negative, got %d", c.KeepRecent)
			}
		}},
		{Name: "rebuild", Required: false, Set: func(v *yaml.Node) {
			c.Rebuild = d.Text(v, "compaction.rebuild")
			if c.Rebuild != "" && c.Rebuild != RebuildIterative && c.Rebuild != RebuildFromSource || v.Tag == "!!str" && c.Rebuild == "" {
				d.Errorf(v, "compaction.rebuild: %q is not a rebuild mode (valid: %s, %s)", c.Rebuild, RebuildIterative, RebuildFromSource)
			}
		}},
		{Name: "max_ratio", Required: false, Set: func(v *yaml.Node) {
			c.MaxRatio = d.Number(v, "compaction.max_ratio")
			if v.Tag == "!!int" || v.Tag == "!!float" {
				if !(c.MaxRatio > 0 && c.MaxRatio <= 1) {
					d.Errorf(v, "compaction.max_ratio: %s is not in (0, 1]", v.Value)
				}
			}
		}},
	})
	return c
}

// event decodes one event mapping (not a filler).
func (d *decoder) event(n *yaml.Node, what string) entry {
	var en entry
	e := &en.ev
	e.Pos = pos(n)
	var roleNode, textNode, callNode, resultNode *yaml.Node
	d.Mapping(n, what, []yamlnode.Field{
		{Name: "seq", Required: false, Set: func(v *yaml.Node) {
			en.hasSeq = true
			en.seqPos = pos(v)
			e.Seq = d.IntIn(v, what, ".seq")
			if e.Seq < 1 && v.Tag == "!!int" {
				d.Errorf(v, "%s.seq: must be 1 or more, got %d", what, e.Seq)
			}
		}},
		{Name: "role", Required: true, Set: func(v *yaml.Node) { roleNode = v; e.Role = Role(d.TextIn(v, what, ".role")) }},
		{Name: "text", Required: false, Set: func(v *yaml.Node) { textNode = v; e.Text = d.TextIn(v, what, ".text") }},
		{Name: "tool_call", Required: false, Set: func(v *yaml.Node) { callNode = v; e.ToolCall = d.toolCall(v, what) }},
		{Name: "tool_result", Required: false, Set: func(v *yaml.Node) {
			resultNode = v
			e.ToolResult = d.toolResult(v, what)
		}},
	})
	if roleNode == nil {
		return en
	}
	switch e.Role {
	case RoleSystem, RoleUser:
		if textNode == nil {
			d.Errorf(n, "%s: a %s event needs text", what, e.Role)
		}
	case RoleAssistant:
		if textNode == nil && callNode == nil {
			d.Errorf(n, "%s: an assistant event needs text or a tool_call", what)
		}
	case RoleTool:
		if resultNode == nil {
			d.Errorf(n, "%s: a tool event needs a tool_result", what)
		}
		if textNode != nil {
			d.Errorf(textNode, "%s: a tool event carries its text in tool_result.text", what)
		}
	default:
		d.Errorf(roleNode, "%s.role: %q is not a role (valid: system, user, assistant, tool)", what, e.Role)
		return en
	}
	if callNode != nil && e.Role != RoleAssistant {
		d.Errorf(callNode, "%s: tool_call is only allowed on assistant events, not %s", what, e.Role)
	}
	if resultNode != nil && e.Role != RoleTool {
		d.Errorf(resultNode, "%s: tool_result is only allowed on tool events, not %s", what, e.Role)
	}
	return en
}

func (d *decoder) toolCall(n *yaml.Node, event string) *ToolCall {
	c := &ToolCall{}
	d.Mapping(n, event+".tool_call", []yamlnode.Field{
		{Name: "id", Required: true, Set: func(v *yaml.Node) {
			c.ID = d.TextIn(v, event, ".tool_call.id")
			if v.Kind == yaml.ScalarNode && strings.TrimSpace(c.ID) == "" {
				d.Errorf(v, "%s.tool_call.id: empty", event)
			}
		}},
		{Name: "name", Required: true, Set: func(v *yaml.Node) {
			c.Name = d.TextIn(v, event, ".tool_call.name")
			if v.Kind == yaml.ScalarNode && strings.TrimSpace(c.Name) == "" {
				d.Errorf(v, "%s.tool_call.name: empty", event)
			}
		}},
		{Name: "args", Required: false, Set: func(v *yaml.Node) {
			if v.Kind != yaml.MappingNode { // no d.Kind: it would build the name for every call
				d.Errorf(v, "%s.tool_call.args: want a mapping, got %s", event, yamlnode.Describe(v))
				return
			}
			c.Args = nodeValue(v).(map[string]any)
		}},
	})
	return c
}

// nodeValue converts a YAML node (aliases already refused) to the values
// encoding/json writes: map[string]any, []any, string, int, float64, bool,
// nil. Scalars that do not parse as their tag says stay text.
func nodeValue(n *yaml.Node) any {
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = nodeValue(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			l[i] = nodeValue(c)
		}
		return l
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil
		case "!!bool", "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err == nil {
				return v
			}
		}
		return n.Value
	case yaml.DocumentNode:
		if len(n.Content) > 0 {
			return nodeValue(n.Content[0])
		}
	}
	return nil
}

// jsonable turns YAML-decoded values into values encoding/json can write
// (map[any]any keys become strings).
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
		return x
	}
	return v
}

func (d *decoder) toolResult(n *yaml.Node, event string) *ToolResult {
	r := &ToolResult{Status: StatusOK}
	d.Mapping(n, event+".tool_result", []yamlnode.Field{
		{Name: "call_id", Required: true, Set: func(v *yaml.Node) { r.CallID = d.TextIn(v, event, ".tool_result.call_id") }},
		{Name: "status", Required: false, Set: func(v *yaml.Node) {
			r.Status = d.TextIn(v, event, ".tool_result.status")
			switch r.Status {
			case StatusOK, StatusError, StatusTimeout:
			default:
				if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
					d.Errorf(v, "%s.tool_result.status: %q is not a status (valid: ok, error, timeout)", event, r.Status)
				}
			}
		}},
		{Name: "text", Required: false, Set: func(v *yaml.Node) { r.Text = d.TextIn(v, event, ".tool_result.text") }},
	})
	return r
}

func (d *decoder) filler(n *yaml.Node, what string) *Filler {
	f := &Filler{Pos: pos(n)}
	d.Mapping(n, what+".filler", []yamlnode.Field{
		{Name: "count", Required: true, Set: func(v *yaml.Node) {
			f.Count = d.Int(v, what+".filler.count")
			if v.Tag == "!!int" && (f.Count < 1 || f.Count > MaxFillerCount) {
				d.Errorf(v, "%s.filler.count: %d is not in 1..%d", what, f.Count, MaxFillerCount)
				f.Count = 0
			}
		}},
		{Name: "seed", Required: true, Set: func(v *yaml.Node) {
			seed := d.Int(v, what+".filler.seed")
			if seed < 0 {
				d.Errorf(v, "%s.filler.seed: must not be negative", what)
			}
			f.Seed = uint64(max(seed, 0))
		}},
		{Name: "topic", Required: true, Set: func(v *yaml.Node) {
			f.Topic = d.Text(v, what+".filler.topic")
			if v.Kind == yaml.ScalarNode && !slices.Contains(FillerTopics, f.Topic) {
				d.Errorf(v, "%s.filler.topic: %q is not a topic (valid: %s)", what, f.Topic, strings.Join(FillerTopics, ", "))
				f.Topic = ""
			}
		}},
	})
	return f
}

// events decodes and numbers the events list, expanding filler.
//
// Numbering: seq is given on every event of the list or on none. Without
// seq, events (filler included) are numbered 1, 2, … in order. With seq,
// filler events take the seqs right after the event before them (1 when
// the filler comes first), and the next explicit seq must be greater than
// the last of them.
func (d *decoder) events(n *yaml.Node, s *Scenario) []Event {
	if !d.List(n, "events") {
		return nil
	}
	if len(n.Content) == 0 {
		d.Errorf(n, "events: empty; a scenario needs at least one event")
		return nil
	}
	if !d.underEventLimit(n.Content, 0, "events") {
		return nil
	}
	entries := make([]entry, 0, len(n.Content))
	withSeq, withoutSeq := 0, 0
	var firstWith, firstWithout *yaml.Node
	seeds := map[uint64]result.Pos{}
	for i, item := range n.Content {
		what := "events[" + strconv.Itoa(i) + "]"
		if item.Kind == yaml.MappingNode && len(item.Content) >= 2 && item.Content[0].Value == "filler" {
			if len(item.Content) > 2 {
				d.Errorf(item.Content[2], "%s: a filler entry has only the key \"filler\", not %q", what, item.Content[2].Value)
			}
			f := d.filler(item.Content[1], what)
			if f.Count > 0 && f.Topic != "" {
				if p, dup := seeds[f.Seed]; dup {
					d.Errorf(item.Content[1], "%s.filler.seed: seed %d already used at line %d; each filler needs its own seed", what, f.Seed, p.Line)
					continue
				}
				seeds[f.Seed] = f.Pos
				entries = append(entries, entry{filler: f})
			}
			continue
		}
		en := d.event(item, what)
		if en.hasSeq {
			withSeq++
			if firstWith == nil {
				firstWith = item
			}
		} else {
			withoutSeq++
			if firstWithout == nil {
				firstWithout = item
			}
		}
		entries = append(entries, en)
	}
	if withSeq > 0 && withoutSeq > 0 {
		d.Errorf(firstWithout, "events: seq is given on some events (first at line %d) but not on this one; give it on every event or on none", firstWith.Line)
		return nil
	}
	explicit := withSeq > 0
	if d.npatterns > MaxPatterns {
		return nil // refused already; expanding filler would check every pattern
	}
	av := newAvoider(s)
	for _, en := range entries {
		if en.filler == nil {
			av.see(en.ev)
		}
	}
	total := 0
	for _, en := range entries {
		if en.filler != nil {
			total += en.filler.Count
		} else {
			total++
		}
	}
	out := make([]Event, 0, min(total, MaxEvents))
	last := 0
	lastPos := result.Pos{}
	for _, en := range entries {
		if en.filler != nil {
			if len(out)+en.filler.Count > MaxEvents {
				d.errorAt(en.filler.Pos, "filler of %d events makes the scenario longer than %d events", en.filler.Count, MaxEvents)
				return out
			}
			fe := expandFiller(*en.filler, last+1, av)
			if av.failed != "" {
				d.errorAt(en.filler.Pos, "filler seed %d: %s", en.filler.Seed, av.failed)
				av.failed = ""
			}
			out = append(out, fe...)
			if len(fe) > 0 {
				last = fe[len(fe)-1].Seq
				lastPos = en.filler.Pos
			}
			continue
		}
		e := en.ev
		if explicit {
			if e.Seq <= last && e.Seq >= 1 {
				if lastPos.Line > 0 && len(out) > 0 && out[len(out)-1].Filler {
					d.errorAt(en.seqPos, "seq %d must be greater than %d, the last seq of the filler at line %d (filler events take the seqs right after the event before them)", e.Seq, last, lastPos.Line)
				} else {
					d.errorAt(en.seqPos, "seq %d must be greater than %d, the seq before it (seqs rise strictly)", e.Seq, last)
				}
			}
		} else {
			e.Seq = last + 1
		}
		last = max(last, e.Seq)
		lastPos = e.Pos
		out = append(out, e)
	}
	return out
}

// underEventLimit reports whether items, after already events, stay within
// MaxEvents, filler counted at its count; if not, it reports the entry that
// crosses the limit. It runs before any entry is decoded, so that the limit
// holds for explicit events as it does for filler.
func (d *decoder) underEventLimit(items []*yaml.Node, already int, what string) bool {
	explicit, filler := 0, 0
	for i, item := range items {
		if item.Kind == yaml.MappingNode && len(item.Content) >= 2 && item.Content[0].Value == "filler" {
			filler += fillerCount(item.Content[1])
		} else {
			explicit++
		}
		if already+explicit+filler > MaxEvents {
			prior := ""
			if already > 0 {
				prior = fmt.Sprintf("%d before the arrivals, ", already)
			}
			d.Errorf(item, "%s[%d]: this entry takes the scenario past %d events (%s%d explicit and %d of filler by here, of %d entries in the list): a scenario holds at most %d events, filler and arrivals included",
				what, i, MaxEvents, prior, explicit, filler, len(items), MaxEvents)
			return false
		}
	}
	return true
}

// fillerCount is the count a filler mapping asks for, or 0 when it is not a
// valid count (decoding the filler reports that).
func fillerCount(n *yaml.Node) int {
	if n.Kind != yaml.MappingNode {
		return 0
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "count" {
			c, err := strconv.Atoi(n.Content[i+1].Value)
			if err != nil || c < 1 || c > MaxFillerCount {
				return 0
			}
			return c
		}
	}
	return 0
}

func (d *decoder) arrivals(n *yaml.Node, s *Scenario) []Event {
	if n.Kind == yaml.SequenceNode && !d.underEventLimit(n.Content, len(s.Events), "arrivals") {
		return nil
	}
	var out []Event
	last := s.LastSeq()
	withSeq := 0
	d.Items(n, "arrivals", func(item *yaml.Node, what string) {
		if item.Kind == yaml.MappingNode && len(item.Content) >= 2 && item.Content[0].Value == "filler" {
			d.Errorf(item, "%s: filler is not allowed in arrivals", what)
			return
		}
		en := d.event(item, what)
		e := en.ev
		if en.hasSeq {
			withSeq++
			if e.Seq <= last && e.Seq >= 1 {
				d.errorAt(en.seqPos, "%s.seq: %d must be greater than %d (arrivals come after the last event and rise strictly)", what, e.Seq, last)
			}
		} else {
			if withSeq > 0 {
				d.Errorf(item, "%s: seq is given on some arrivals but not on this one; give it on every arrival or on none", what)
			}
			e.Seq = last + 1
		}
		last = max(last, e.Seq)
		out = append(out, e)
	})
	return out
}

func (d *decoder) invariants(n *yaml.Node) []Invariant {
	var out []Invariant
	ids := map[string]int{}
	d.Items(n, "invariants", func(item *yaml.Node, what string) {
		inv := d.invariant(item, what)
		if inv == nil {
			return
		}
		if id := inv.InvariantID(); id != "" {
			if line, dup := ids[id]; dup {
				d.Errorf(item, "%s: duplicate invariant id %q (first at line %d)", what, id, line)
			}
			ids[id] = item.Line
		}
		out = append(out, inv)
	})
	return out
}

func (d *decoder) invariant(n *yaml.Node, what string) Invariant {
	if !d.Kind(n, yaml.MappingNode, what, "a mapping") {
		return nil
	}
	var typ string
	var typeNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "type" {
			typeNode = n.Content[i+1]
			typ = d.Text(typeNode, what+".type")
			break
		}
	}
	if typeNode == nil {
		d.Errorf(n, "%s: missing required field \"type\" (valid: %s)", what, strings.Join(result.InvariantTypes, ", "))
		return nil
	}
	base := InvariantBase{Pos: pos(n)}
	common := []yamlnode.Field{
		{Name: "id", Required: true, Set: func(v *yaml.Node) {
			base.ID = d.Text(v, what+".id")
			if v.Kind == yaml.ScalarNode && strings.TrimSpace(base.ID) == "" {
				d.Errorf(v, "%s.id: empty", what)
			}
		}},
		{Name: "type", Required: true, Set: func(*yaml.Node) {}},
	}
	seqField := func(name string, dst *int) yamlnode.Field {
		return yamlnode.Field{Name: name, Required: true, Set: func(v *yaml.Node) { *dst = d.Int(v, what+"."+name) }}
	}
	pat := func(name string, required bool, dst *[]string) yamlnode.Field {
		return yamlnode.Field{Name: name, Required: required, Set: func(v *yaml.Node) { *dst = d.patterns(v, what+"."+name) }}
	}
	text := func(name string, dst *string) yamlnode.Field {
		return yamlnode.Field{Name: name, Required: true, Set: func(v *yaml.Node) {
			*dst = d.Text(v, what+"."+name)
			if v.Kind == yaml.ScalarNode && *dst == "" {
				d.Errorf(v, "%s.%s: empty", what, name)
			}
		}}
	}
	var inv Invariant
	var fields []yamlnode.Field
	switch typ {
	case result.TypeConstraint:
		c := &Constraint{}
		fields = []yamlnode.Field{seqField("source_seq", &c.SourceSeq), pat("match", true, &c.Match)}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypeRefutedHypothesis:
		c := &RefutedHypothesis{}
		fields = []yamlnode.Field{seqField("hypothesis_seq", &c.HypothesisSeq), seqField("refuted_by_seq", &c.RefutedBySeq),
			pat("match", true, &c.Match), pat("conclusion", false, &c.Conclusion)}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypeArtifact:
		c := &Artifact{}
		fields = []yamlnode.Field{
			{Name: "paths", Required: true, Set: func(v *yaml.Node) { c.Paths = d.Texts(v, what+".paths") }},
			{Name: "required", Required: true, Set: func(v *yaml.Node) { c.Required = d.Texts(v, what+".required") }},
			{Name: "digests", Required: false, Set: func(v *yaml.Node) {
				if !d.Kind(v, yaml.MappingNode, what+".digests", "a mapping of path to digest") {
					return
				}
				c.Digests = map[string]string{}
				for i := 0; i+1 < len(v.Content); i += 2 {
					c.Digests[d.Text(v.Content[i], what+".digests key")] = d.Text(v.Content[i+1], what+".digests["+v.Content[i].Value+"]")
				}
			}},
		}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypePendingOperation:
		c := &PendingOperation{}
		fields = []yamlnode.Field{text("op_id", &c.OpID), seqField("call_seq", &c.CallSeq)}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypeCorrection:
		c := &Correction{}
		fields = []yamlnode.Field{text("old", &c.Old), text("new", &c.New), text("subject", &c.Subject), seqField("source_seq", &c.SourceSeq)}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypeQuantity:
		c := &Quantity{}
		fields = []yamlnode.Field{
			{Name: "value", Required: true, Set: func(v *yaml.Node) { c.Value = d.Number(v, what+".value") }},
			text("unit", &c.Unit),
			pat("match", false, &c.Match),
		}
		inv = c
		defer func() { c.InvariantBase = base }()
	case result.TypeSecret:
		c := &Secret{}
		fields = []yamlnode.Field{text("value", &c.Value)}
		inv = c
		defer func() { c.InvariantBase = base }()
	default:
		if typeNode.Kind == yaml.ScalarNode {
			d.Errorf(typeNode, "%s.type: %q is not an invariant type (valid: %s)", what, typ, strings.Join(result.InvariantTypes, ", "))
		}
		return nil
	}
	d.Mapping(n, what+" ("+typ+")", append(common, fields...))
	return inv
}

func (d *decoder) probes(n *yaml.Node) []Probe {
	var out []Probe
	ids := map[string]int{}
	d.Items(n, "probes", func(item *yaml.Node, what string) {
		p := Probe{Pos: pos(item)}
		var options, expect, answer, rubric, requires *yaml.Node
		d.Mapping(item, what, []yamlnode.Field{
			{Name: "id", Required: true, Set: func(v *yaml.Node) { p.ID = d.Text(v, what+".id") }},
			{Name: "question", Required: true, Set: func(v *yaml.Node) { p.Question = d.Text(v, what+".question") }},
			{Name: "options", Set: func(v *yaml.Node) { options = v }},
			{Name: "expect", Set: func(v *yaml.Node) { expect = v }},
			{Name: "answer", Set: func(v *yaml.Node) { answer = v }},
			{Name: "rubric", Set: func(v *yaml.Node) { rubric = v }},
			{Name: "requires", Set: func(v *yaml.Node) { requires = v }},
		})
		switch {
		case options != nil && answer != nil:
			d.Errorf(answer, "%s: give options and expect (a choice probe) or answer (a free-text probe), not both", what)
		case answer != nil:
			d.freeText(&p, what, answer, rubric, requires)
			if expect != nil {
				d.Errorf(expect, "%s.expect: a free-text probe has no expect: answer is the expected answer", what)
			}
		case options == nil:
			d.Errorf(item, "%s: missing required field \"options\" (or \"answer\", for a free-text probe)", what)
		default:
			d.choice(&p, what, options, requires)
			if expect == nil {
				d.Errorf(item, "%s: missing required field \"expect\"", what)
			} else {
				p.Expect = d.Text(expect, what+".expect")
			}
			if rubric != nil {
				d.Errorf(rubric, "%s.rubric: only a free-text probe (answer:) has a rubric", what)
			}
		}
		if p.ID != "" {
			if line, dup := ids[p.ID]; dup {
				d.Errorf(item, "%s: duplicate probe id %q (first at line %d)", what, p.ID, line)
			}
			ids[p.ID] = item.Line
		}
		out = append(out, p)
	})
	return out
}

// choice decodes a choice probe's options and requires.
func (d *decoder) choice(p *Probe, what string, v, requires *yaml.Node) {
	if d.Kind(v, yaml.MappingNode, what+".options", "a mapping of key to description") {
		if len(v.Content) < 4 {
			d.Errorf(v, "%s.options: a probe needs at least two options", what)
		}
		seen := map[string]int{}
		for j := 0; j+1 < len(v.Content); j += 2 {
			k := d.Text(v.Content[j], what+".options key")
			if line, dup := seen[k]; dup {
				d.Errorf(v.Content[j], "%s.options: duplicate option %q (first at line %d)", what, k, line)
				continue
			}
			seen[k] = v.Content[j].Line
			p.Options = append(p.Options, Option{Key: k, Description: d.Text(v.Content[j+1], what+".options."+k)})
		}
	}
	if requires == nil || !d.Kind(requires, yaml.MappingNode, what+".requires", "a mapping of option key to patterns") {
		return
	}
	seen := map[string]int{}
	for j := 0; j+1 < len(requires.Content); j += 2 {
		k := d.Text(requires.Content[j], what+".requires key")
		if line, dup := seen[k]; dup {
			d.Errorf(requires.Content[j], "%s.requires: duplicate option %q (first at line %d)", what, k, line)
			continue
		}
		seen[k] = requires.Content[j].Line
		p.Requires = append(p.Requires, Requirement{Option: k, Patterns: d.patterns(requires.Content[j+1], what+".requires."+k), Pos: pos(requires.Content[j])})
	}
}

// freeText decodes a free-text probe's answer, rubric (a line or a list
// of lines) and requires (a pattern or a list of patterns: what the answer
// is derived from).
func (d *decoder) freeText(p *Probe, what string, answer, rubric, requires *yaml.Node) {
	p.Answer = d.Text(answer, what+".answer")
	if answer.Kind == yaml.ScalarNode && strings.TrimSpace(p.Answer) == "" {
		d.Errorf(answer, "%s.answer: empty: write the expected answer in words", what)
	}
	if rubric != nil {
		if rubric.Kind == yaml.ScalarNode {
			p.Rubric = []string{d.Text(rubric, what+".rubric")}
		} else if d.Kind(rubric, yaml.SequenceNode, what+".rubric", "a line or a list of lines") {
			p.Rubric = d.Texts(rubric, what+".rubric")
		}
		for i, r := range p.Rubric {
			if strings.TrimSpace(r) == "" {
				d.Errorf(rubric, "%s.rubric[%d]: empty line", what, i)
			}
		}
	}
	if requires != nil {
		if requires.Kind == yaml.MappingNode {
			d.Errorf(requires, "%s.requires: a free-text probe's requires is a pattern or a list of patterns (what its answer is derived from), not a mapping of options", what)
			return
		}
		p.Requires = []Requirement{{Option: AnswerKey, Patterns: d.patterns(requires, what+".requires"), Pos: pos(requires)}}
	}
}
