// Package yamlnode reads yaml.v3 node trees strictly, for the files users
// write by hand: scenario files (package scenarios) and the config file
// (package cmd/compact-eval/internal/config).
//
// A Decoder walks the nodes a caller hands it and reports every problem it
// finds, positioned at its node, to the caller's Report func; it never stops
// at the first. It knows the generic rules: mappings with known fields only
// (unknown, duplicate and missing required fields are refused), typed scalars
// and lists, and "what: want X, got Y" messages. The caller keeps its own
// domain rules and its own error type: this package does not import the
// packages that use it.
//
// Beside the Decoder: PosOf positions a node, SyntaxPos places a yaml.v3
// syntax error at its line and column (yaml.v3 names only a line, often the
// one before the problem's), SyntaxError takes that line out of the error,
// Aliases finds the aliases (and the too deep nesting) a caller refuses,
// Describe and Brief name a node in messages.
package yamlnode

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/internal/didyoumean"
)

// Pos is a position in a YAML file, 1-based. The zero Pos means "the file
// as a whole".
type Pos struct {
	// Line is the line, from 1; 0: no position.
	Line int
	// Col is the column in characters, from 1.
	Col int
}

// PosOf returns where n is written.
func PosOf(n *yaml.Node) Pos { return Pos{Line: n.Line, Col: n.Column} }

var syntaxRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// SyntaxError splits a yaml.v3 parse error "yaml: line N: message" into
// the line (0 when the error names none) and the message without its
// "yaml: " and "line N: " prefixes. An error of another form is returned
// whole, with line 0.
func SyntaxError(err error) (line int, msg string) {
	msg = err.Error()
	m := syntaxRE.FindStringSubmatch(msg)
	if m == nil {
		return 0, msg
	}
	if m[1] != "" {
		line, _ = strconv.Atoi(m[1])
	}
	return line, m[2]
}

// Aliases returns every alias node under root (an alias's target is not
// walked), in document order, and the first node nested deeper than
// maxDepth levels below root, whose content is not walked either (nil when
// there is none). maxDepth ≤ 0 means no limit.
func Aliases(root *yaml.Node, maxDepth int) (aliases []*yaml.Node, deep *yaml.Node) {
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if maxDepth > 0 && depth > maxDepth {
			if deep == nil {
				deep = n
			}
			return
		}
		if n.Kind == yaml.AliasNode {
			aliases = append(aliases, n)
			return
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return aliases, deep
}

// Describe names what n is, in detail, for "want X, got Y" messages: "a
// mapping", "a list", "nothing (null)", or a scalar's tag and value such as
// `int "5"`.
func Describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		return Brief(n)
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing (null)"
		}
		return fmt.Sprintf("%s %q", strings.TrimPrefix(n.Tag, "!!"), n.Value)
	}
	return "something else"
}

// Brief names what n is, in a word and without its value (which may be a
// secret): "a mapping", "a list", "nothing", "a number", "a boolean", "a
// string" or "an alias".
func Brief(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "nothing"
		case "!!int", "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		}
		return "a string"
	}
	return "an alias"
}

// Decoder reports the problems of the nodes it reads. Its zero value is
// not usable: Report must be set.
type Decoder struct {
	// Report receives every problem, with the position of its node. It must
	// not be nil.
	Report func(p Pos, msg string)
	// Describe names a node in "want X, got Y" messages; nil: Describe.
	Describe func(n *yaml.Node) string
	// Terse leaves the mapping's name and the list of valid fields out of
	// unknown and duplicate field messages: `unknown field "x"` rather than
	// `event: unknown field "x" (valid: seq, role)`. false: the long form.
	Terse bool
	// Unknown may explain an unknown key better: a message it returns
	// replaces the unknown field message; "" keeps it. nil: none does.
	Unknown func(key string) string
}

// Errorf reports a problem at n.
func (d *Decoder) Errorf(n *yaml.Node, format string, args ...any) {
	d.Report(PosOf(n), fmt.Sprintf(format, args...))
}

func (d *Decoder) describe(n *yaml.Node) string {
	if d.Describe != nil {
		return d.Describe(n)
	}
	return Describe(n)
}

// Kind reports "what: want <want>, got <n>" unless n is of kind k, and
// says whether it is.
func (d *Decoder) Kind(n *yaml.Node, k yaml.Kind, what, want string) bool {
	if n.Kind != k {
		d.Errorf(n, "%s: want %s, got %s", what, want, d.describe(n))
		return false
	}
	return true
}

// List is Kind for a sequence: "what: want a list, got …".
func (d *Decoder) List(n *yaml.Node, what string) bool {
	return d.Kind(n, yaml.SequenceNode, what, "a list")
}

// Scalar reports "what: want <want>, got <n>" unless n is a scalar with one
// of tags (such as "!!int"), and says whether it is.
func (d *Decoder) Scalar(n *yaml.Node, what, want string, tags ...string) bool {
	if n.Kind == yaml.ScalarNode {
		for _, t := range tags {
			if n.Tag == t {
				return true
			}
		}
	}
	d.Errorf(n, "%s: want %s, got %s", what, want, d.describe(n))
	return false
}

// Field is one key a mapping may hold.
type Field struct {
	// Name is the key.
	Name string
	// Required makes a mapping without the key a problem.
	Required bool
	// Set receives the key's value; nil: the value is not read.
	Set func(v *yaml.Node)
}

// Mapping reads the mapping n: for each key, in order, it calls the Set of
// the field of that name. Unknown and duplicate keys (a duplicate is not
// Set again) and missing required fields are reported; what names the
// mapping in messages ("event", "compaction", …). It returns false, having
// reported it, when n is not a mapping.
func (d *Decoder) Mapping(n *yaml.Node, what string, fields []Field) bool {
	// seen[j] is the index in n.Content of the key that set fields[j], plus
	// one; mappings have few fields.
	var buf [16]int
	seen := buf[:0]
	if len(fields) <= len(buf) {
		seen = buf[:len(fields)]
	} else {
		seen = make([]int, len(fields))
	}
	return d.mapping(n, what, fields, seen)
}

func (d *Decoder) mapping(n *yaml.Node, what string, fields []Field, seen []int) bool {
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, "%s: want a mapping, got %s", what, d.describe(n))
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		j := 0
		for ; j < len(fields); j++ {
			if fields[j].Name == k.Value {
				break
			}
		}
		switch {
		case j == len(fields):
			d.unknown(k, what, fields)
		case seen[j] != 0:
			first := n.Content[seen[j]-1].Line
			if d.Terse {
				d.Errorf(k, "duplicate field %q (first at line %d)", k.Value, first)
			} else {
				d.Errorf(k, "%s: duplicate field %q (first at line %d)", what, k.Value, first)
			}
		default:
			seen[j] = i + 1
			if set := fields[j].Set; set != nil {
				set(v)
			}
		}
	}
	for j, f := range fields {
		if f.Required && seen[j] == 0 {
			d.Errorf(n, "%s: missing required field %q", what, f.Name)
		}
	}
	return true
}

func (d *Decoder) unknown(k *yaml.Node, what string, fields []Field) {
	if d.Unknown != nil {
		if msg := d.Unknown(k.Value); msg != "" {
			d.Report(PosOf(k), msg)
			return
		}
	}
	names := make([]string, len(fields))
	for j, f := range fields {
		names[j] = f.Name
	}
	near := didyoumean.Closest(k.Value, names)
	switch {
	case d.Terse && near != "":
		d.Errorf(k, "unknown field %q (did you mean %q?)", k.Value, near)
	case d.Terse:
		d.Errorf(k, "unknown field %q", k.Value)
	case near != "":
		d.Errorf(k, "%s: unknown field %q (did you mean %q?; valid: %s)", what, k.Value, near, strings.Join(names, ", "))
	default:
		d.Errorf(k, "%s: unknown field %q (valid: %s)", what, k.Value, strings.Join(names, ", "))
	}
}

// Entry is a key of a mapping and its value.
type Entry struct {
	// Key is the key node, where a problem with the field itself is shown.
	Key *yaml.Node
	// Value is the field's value.
	Value *yaml.Node
}

// Fields reads the mapping n like Mapping with optional fields named
// names, and returns the entries found by name, for a caller that reads
// them in its own order. It returns nil when n is not a mapping.
func (d *Decoder) Fields(n *yaml.Node, what string, names ...string) map[string]Entry {
	fields := make([]Field, len(names))
	for j, name := range names {
		fields[j].Name = name
	}
	seen := make([]int, len(names))
	if !d.mapping(n, what, fields, seen) {
		return nil
	}
	out := make(map[string]Entry, len(names))
	for j, i := range seen {
		if i != 0 {
			out[names[j]] = Entry{Key: n.Content[i-1], Value: n.Content[i]}
		}
	}
	return out
}

// Text reads a text scalar: any scalar but null, as written (`port: 5432`
// is the text "5432"). It reports "what: want text, got …" and returns ""
// for anything else.
func (d *Decoder) Text(n *yaml.Node, what string) string { return d.TextIn(n, what, "") }

// TextIn is Text for the field named what+field; the name is only built for
// a message, so that a hot path does not build it.
func (d *Decoder) TextIn(n *yaml.Node, what, field string) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		d.Errorf(n, "%s%s: want text, got %s", what, field, d.describe(n))
		return ""
	}
	return n.Value
}

// Texts reads a list of text scalars (see Text); the items are named
// what[i] in messages. It returns nil when n is not a list.
func (d *Decoder) Texts(n *yaml.Node, what string) []string {
	out := make([]string, 0, len(n.Content))
	if !d.Items(n, what, func(c *yaml.Node, what string) { out = append(out, d.Text(c, what)) }) {
		return nil
	}
	return out
}

// String reads a string scalar (tag !!str, so `5432` is refused) that is
// not blank, and says whether it was one.
func (d *Decoder) String(n *yaml.Node, what string) (string, bool) {
	if !d.Scalar(n, what, "a string", "!!str") {
		return "", false
	}
	if strings.TrimSpace(n.Value) == "" {
		d.Errorf(n, "%s: empty", what)
		return "", false
	}
	return n.Value, true
}

// MaxInt bounds the integers Int reads, either sign: 2⁴⁰, far above any
// count, seq or token budget, far below an overflow.
const MaxInt = 1 << 40

// Int reads an integer scalar in any form YAML writes one (1000, 1_000,
// 0x3e8, 0o1750, 0b1111101000) within ±MaxInt. It reports a problem and
// returns 0 for anything else.
func (d *Decoder) Int(n *yaml.Node, what string) int { return d.IntIn(n, what, "") }

// IntIn is Int for the field named what+field (see TextIn).
func (d *Decoder) IntIn(n *yaml.Node, what, field string) int {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
		d.Errorf(n, "%s%s: want an integer, got %s", what, field, d.describe(n))
		return 0
	}
	var v int64
	var err error
	if strings.HasPrefix(n.Value, "0x") || strings.HasPrefix(n.Value, "0o") || strings.HasPrefix(n.Value, "0b") {
		v, err = strconv.ParseInt(n.Value, 0, 64)
	} else {
		v, err = strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 10, 64)
	}
	if err != nil || v > MaxInt || v < -MaxInt {
		d.Errorf(n, "%s%s: integer %s out of range", what, field, n.Value)
		return 0
	}
	return int(v)
}

// Number reads an integer or float scalar as YAML reads it (.inf and .nan
// included). It reports a problem and returns 0 for anything else.
func (d *Decoder) Number(n *yaml.Node, what string) float64 {
	if !d.Scalar(n, what, "a number", "!!int", "!!float") {
		return 0
	}
	var v float64
	if err := n.Decode(&v); err != nil {
		d.Errorf(n, "%s: bad number %q", what, n.Value)
	}
	return v
}

// Items reads the list n, calling each for every item with the item's name
// in messages, what[i]. It returns false, having reported it, when n is
// not a list.
func (d *Decoder) Items(n *yaml.Node, what string, each func(item *yaml.Node, what string)) bool {
	if !d.List(n, what) {
		return false
	}
	for i, item := range n.Content {
		each(item, what+"["+strconv.Itoa(i)+"]")
	}
	return true
}
