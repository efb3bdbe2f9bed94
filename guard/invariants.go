package guard

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// DefaultInvariantsFile is where a project keeps its invariants, relative
// to the project's folder.
const DefaultInvariantsFile = ".compact-eval/invariants.yaml"

// InvariantsVersion is the version of the invariants file this package
// reads.
const InvariantsVersion = 1

// File is a project's invariants file (docs/guard.md, "The invariants
// file"): invariants in the scenario syntax that hold in every session
// of the project, each bound to a session when it is checked. A seq
// field an entry leaves out (a constraint's source_seq…) is found in the
// session's history (anchors.tsv), so one file serves every session.
type File struct {
	// Path is the file's name, as errors give it.
	Path string
	// MinConfidence is suggestions.min_confidence: the lowest
	// confidence of an import suggestion to check beside the file's
	// invariants; nil when the file does not say (none is checked).
	MinConfidence *float64
	entries       []entry
}

// entry is one invariant of the file, as written.
type entry struct {
	node    *yaml.Node // the mapping, anchor removed
	id, typ string
	anchors map[string][]string // seq field -> patterns (anchor:)
}

// Len is the number of invariants in the file.
func (f *File) Len() int {
	if f == nil {
		return 0
	}
	return len(f.entries)
}

// LoadInvariants reads the invariants file at path. Every problem is
// reported, positioned ("file:line:col: message"), as an *InputError.
func LoadInvariants(path string) (*File, error) {
	fh, err := inputfile.Open(path)
	if err != nil {
		return nil, inputErrorf("%s: %s", path, inputfile.Reason(err))
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, scenarios.MaxFileSize+1))
	if err != nil {
		return nil, inputErrorf("%s: %v", path, err)
	}
	return ParseInvariants(path, data)
}

// FindInvariants loads the invariants file of the project in dir
// (DefaultInvariantsFile), or returns nil and no error when there is
// none.
func FindInvariants(dir string) (*File, error) {
	path := DefaultInvariantsFile
	if dir != "" {
		path = dir + string(os.PathSeparator) + DefaultInvariantsFile
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return LoadInvariants(path)
}

// ParseInvariants reads an invariants file from data; name is its name in
// errors.
func ParseInvariants(name string, data []byte) (*File, error) {
	if len(data) > scenarios.MaxFileSize {
		return nil, inputErrorf("%s: the file is over %d MiB", name, scenarios.MaxFileSize>>20)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, inputErrorf("%s: %v", name, err)
	}
	f := &File{Path: name}
	if len(doc.Content) == 0 {
		return nil, inputErrorf("%s: empty file: want version: %d and invariants", name, InvariantsVersion)
	}
	root := doc.Content[0]
	var errs []string
	bad := func(n *yaml.Node, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s:%d:%d: %s", name, n.Line, n.Column, fmt.Sprintf(format, args...)))
	}
	if root.Kind != yaml.MappingNode {
		bad(root, "want a mapping with version and invariants")
		return nil, &InputError{Err: errors.New(strings.Join(errs, "\n"))}
	}
	var version, list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "version":
			version = v
		case "invariants":
			list = v
		case "suggestions":
			f.MinConfidence = minConfidence(v, bad)
		default:
			bad(k, "unknown field %q (valid: version, invariants, suggestions)", k.Value)
		}
	}
	switch {
	case version == nil:
		bad(root, "missing version: %d", InvariantsVersion)
	case version.Value != strconv.Itoa(InvariantsVersion):
		bad(version, "version %s is not supported (this compact-eval reads version %d)", version.Value, InvariantsVersion)
	}
	if list != nil && list.Tag != "!!null" {
		if list.Kind != yaml.SequenceNode {
			bad(list, "invariants: want a list")
		} else {
			f.entries = entries(list, bad)
		}
	}
	if len(errs) == 0 {
		if err := f.validate(); err != nil {
			return nil, &InputError{Err: err}
		}
		return f, nil
	}
	return nil, &InputError{Err: errors.New(strings.Join(errs, "\n"))}
}

// minConfidence reads suggestions: {min_confidence: X}.
func minConfidence(n *yaml.Node, bad func(*yaml.Node, string, ...any)) *float64 {
	if n.Kind != yaml.MappingNode {
		bad(n, "suggestions: want a mapping with min_confidence")
		return nil
	}
	var out *float64
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value != "min_confidence" {
			bad(k, "suggestions: unknown field %q (valid: min_confidence)", k.Value)
			continue
		}
		x, err := strconv.ParseFloat(v.Value, 64)
		if err != nil || v.Kind != yaml.ScalarNode || !(x >= 0 && x <= 1) {
			bad(v, "suggestions.min_confidence: want a number from 0 to 1, got %q", v.Value)
			continue
		}
		out = &x
	}
	return out
}

// entries reads the invariants, taking each one's anchor: apart.
func entries(list *yaml.Node, bad func(*yaml.Node, string, ...any)) []entry {
	var out []entry
	for i, item := range list.Content {
		if item.Kind != yaml.MappingNode {
			bad(item, "invariants[%d]: want a mapping", i)
			continue
		}
		e := entry{node: &yaml.Node{Kind: yaml.MappingNode, Tag: item.Tag, Line: item.Line, Column: item.Column}}
		for k := 0; k+1 < len(item.Content); k += 2 {
			key, v := item.Content[k], item.Content[k+1]
			switch key.Value {
			case "anchor":
				e.anchors = anchorsOf(i, v, bad)
				continue
			case "id":
				e.id = v.Value
			case "type":
				e.typ = v.Value
			}
			e.node.Content = append(e.node.Content, key, v)
		}
		out = append(out, e)
	}
	return out
}

// anchorsOf reads anchor: {FIELD: PATTERN | [PATTERNS]}.
func anchorsOf(i int, n *yaml.Node, bad func(*yaml.Node, string, ...any)) map[string][]string {
	if n.Kind != yaml.MappingNode {
		bad(n, "invariants[%d].anchor: want a mapping of seq field to patterns", i)
		return nil
	}
	out := map[string][]string{}
	for k := 0; k+1 < len(n.Content); k += 2 {
		key, v := n.Content[k], n.Content[k+1]
		if !strings.HasSuffix(key.Value, "_seq") {
			bad(key, "invariants[%d].anchor: %q is not a seq field (a field ending in _seq)", i, key.Value)
			continue
		}
		var pats []string
		switch v.Kind {
		case yaml.ScalarNode:
			pats = []string{v.Value}
		case yaml.SequenceNode:
			for _, p := range v.Content {
				pats = append(pats, p.Value)
			}
		}
		if len(pats) == 0 {
			bad(v, "invariants[%d].anchor.%s: want a pattern or a list of patterns", i, key.Value)
			continue
		}
		for _, p := range pats {
			if _, err := textmatch.Compile(p); err != nil {
				bad(v, "invariants[%d].anchor.%s: %v", i, key.Value, err)
			}
		}
		out[key.Value] = pats
	}
	return out
}

// validate decodes every entry as the scenario loader would, each seq
// field it leaves to the history set to a placeholder, so that a mistake
// in the file is reported when it is read rather than in some session.
func (f *File) validate() error {
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, e := range f.entries {
		n := cloneMapping(e.node)
		for _, field := range e.seqFields() {
			if !has(n, field) {
				setInt(n, field, 1)
			}
		}
		list.Content = append(list.Content, n)
	}
	invs, err := scenarios.DecodeInvariants(f.Path, list)
	if err != nil {
		return err
	}
	var errs []string
	for _, inv := range invs {
		for _, p := range allPatterns(inv) {
			if _, err := textmatch.Compile(p); err != nil {
				pos := inv.Position()
				errs = append(errs, fmt.Sprintf("%s:%d:%d: invariant %q: %v", f.Path, pos.Line, pos.Col, inv.InvariantID(), err))
			}
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}

// allPatterns is every pattern of an invariant (its match and conclusion).
func allPatterns(inv scenarios.Invariant) []string {
	if v, ok := scenarios.Pointer(inv).(*scenarios.RefutedHypothesis); ok {
		return append(slices.Clone(v.Match), v.Conclusion...)
	}
	return patternsOf(inv)
}

// seqFields are the seq fields the history may give the entry: its
// type's rows of anchors.tsv in their order, then the other fields its
// own anchor: names, sorted.
func (e entry) seqFields() []string {
	var out, extra []string
	for _, r := range Anchors {
		if r.Type == e.typ {
			out = append(out, r.Field)
		}
	}
	for f := range e.anchors {
		if !slices.Contains(out, f) {
			extra = append(extra, f)
		}
	}
	slices.Sort(extra)
	return append(out, extra...)
}

// Unbound is a project invariant that does not apply to a session: the
// history before the boundary never states it.
type Unbound struct {
	ID, Type string
	// Why says what the guard looked for and did not find.
	Why string
}

// bind turns the file's invariants into invariants of the session: each
// seq field an entry leaves out is set to the event anchors.tsv (or the
// entry's anchor:) finds; an entry whose event is not found is Unbound.
func (f *File) bind(s *Session) ([]scenarios.Invariant, []Unbound, error) {
	if f == nil || len(f.entries) == 0 {
		return nil, nil, nil
	}
	list := &yaml.Node{Kind: yaml.SequenceNode}
	var unbound []Unbound
	for _, e := range f.entries {
		n := cloneMapping(e.node)
		why := ""
		for _, field := range e.seqFields() {
			if has(n, field) {
				continue
			}
			seq, reason := e.find(s, n, field)
			if seq == 0 {
				why = reason
				break
			}
			setInt(n, field, seq)
		}
		if why != "" {
			unbound = append(unbound, Unbound{ID: e.id, Type: e.typ, Why: why})
			continue
		}
		list.Content = append(list.Content, n)
	}
	if len(list.Content) == 0 {
		return nil, unbound, nil
	}
	invs, err := scenarios.DecodeInvariants(f.Path, list)
	if err != nil {
		return nil, nil, &InputError{Err: err}
	}
	return invs, unbound, nil
}

// find is the seq of the first event of the session that the entry's
// field is anchored to, 0 and why when there is none.
func (e entry) find(s *Session, n *yaml.Node, field string) (int, string) {
	row, rowed := anchorRow(e.typ, field)
	how, by := "pattern", "anchor."+field
	var values []string
	if pats, ok := e.anchors[field]; ok {
		values = pats
	} else if rowed {
		how, by = row.How, row.By
		values = strValues(get(n, row.By))
	}
	if len(values) == 0 {
		return 0, fmt.Sprintf("%s is not given, and %s is empty, so the event it names cannot be found", field, by)
	}
	after := 0
	if rowed && row.After != "" {
		after, _ = strconv.Atoi(scalar(get(n, row.After)))
	}
	texts := s.folded()
	for i, ev := range s.Scenario.Events {
		if ev.Seq <= after || rowed && len(row.Roles) > 0 && !slices.Contains(row.Roles, string(ev.Role)) {
			continue
		}
		for _, v := range values {
			if matches(how, v, ev, texts[i]) {
				return ev.Seq, ""
			}
		}
	}
	roles := "no event"
	if rowed && len(row.Roles) > 0 {
		roles = "no " + strings.Join(row.Roles, " or ") + " event"
	}
	if after > 0 {
		roles += fmt.Sprintf(" after seq %d", after)
	}
	what := map[string]string{"pattern": "matches its " + by + " patterns", "literal": "names its " + by, "call": "is the call " + strings.Join(values, ", ")}[how]
	return 0, fmt.Sprintf("%s of the history %s (the event its %s names)", roles, what, field)
}

func matches(how, v string, ev scenarios.Event, folded string) bool {
	switch how {
	case "call":
		return ev.ToolCall != nil && ev.ToolCall.ID == v
	case "literal":
		return textmatch.ContainsWord(folded, strings.ToLower(textmatch.Fold(v)))
	}
	_, ok := textmatch.Find(v, folded)
	return ok
}

// folded is each event's text (its text, call and result), folded and
// lower-cased as the checks match it, built once.
func (s *Session) folded() []string {
	s.foldOnce.Do(func() {
		s.foldedTexts = make([]string, len(s.Scenario.Events))
		for i, ev := range s.Scenario.Events {
			s.foldedTexts[i] = strings.ToLower(textmatch.Fold(eventText(ev)))
		}
	})
	return s.foldedTexts
}

// AnchorRow is one row of anchors.tsv.
type AnchorRow struct {
	Type, Field, By, How string
	Roles                []string
	After                string
}

//go:embed anchors.tsv
var anchorsTSV string

// Anchors lists how a left-out seq field is found (anchors.tsv).
var Anchors = mustAnchors(anchorsTSV)

func mustAnchors(tsv string) []AnchorRow {
	var rows []AnchorRow
	for i, line := range strings.Split(tsv, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 6 || !slices.Contains([]string{"pattern", "literal", "call"}, f[3]) {
			panic(fmt.Sprintf("guard: anchors.tsv line %d: want type, field, by, how (pattern, literal or call), roles, after", i+1))
		}
		r := AnchorRow{Type: f[0], Field: f[1], By: f[2], How: f[3]}
		if f[4] != "-" {
			r.Roles = strings.Fields(f[4])
		}
		if f[5] != "-" {
			r.After = f[5]
		}
		rows = append(rows, r)
	}
	return rows
}

func anchorRow(typ, field string) (AnchorRow, bool) {
	for _, r := range Anchors {
		if r.Type == typ && r.Field == field {
			return r, true
		}
	}
	return AnchorRow{}, false
}

// YAML helpers on a mapping node.

func cloneMapping(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = slices.Clone(n.Content)
	return &c
}

func get(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func has(n *yaml.Node, key string) bool { return get(n, key) != nil }

func setInt(n *yaml.Node, key string, v int) {
	n.Content = append(n.Content,
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: n.Line, Column: n.Column},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(v), Line: n.Line, Column: n.Column})
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

func strValues(n *yaml.Node) []string {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		if n.Value == "" {
			return nil
		}
		return []string{n.Value}
	}
	var out []string
	for _, c := range n.Content {
		if c.Kind == yaml.ScalarNode && c.Value != "" {
			out = append(out, c.Value)
		}
	}
	return out
}

// eventText is what an event says: its text, its call (name and
// arguments) and its result.
func eventText(ev scenarios.Event) string {
	var b bytes.Buffer
	b.WriteString(ev.Text)
	if c := ev.ToolCall; c != nil {
		b.WriteString("\n" + c.Name + " " + transcript.Args(c.Args))
	}
	if r := ev.ToolResult; r != nil {
		b.WriteString("\n" + r.Text)
	}
	return b.String()
}
