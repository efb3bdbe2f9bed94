package summary

import (
	"bytes"
	_ "embed"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

//go:embed summary.schema.json
var summarySchemaJSON []byte

// SummarySchemaJSON returns the JSON Schema (draft 2020-12) of the summary
// document (docs/formats.md §3), as `compact-eval schema summary` prints it. The
// caller may modify the returned slice.
func SummarySchemaJSON() []byte { return bytes.Clone(summarySchemaJSON) }

// Violation is one way a document breaks the summary contract.
type Violation struct {
	// Pointer is the JSON pointer (RFC 6901) of the offending value, for
	// example /hypotheses/2/status; "" is the whole document.
	Pointer string `json:"pointer"`
	// Message is one sentence a person understands, for example
	// `status is "closed"; want one of open, refuted, confirmed`.
	Message string `json:"message"`
}

// String renders v as "POINTER: MESSAGE" ("(document)" for the root).
func (v Violation) String() string {
	p := v.Pointer
	if p == "" {
		p = "(document)"
	}
	return p + ": " + v.Message
}

var (
	compileOnce    sync.Once
	compiledSchema *jsonschema.Schema
	compileErr     error
)

func summarySchema() (*jsonschema.Schema, error) {
	compileOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(summarySchemaJSON))
		if err != nil {
			compileErr = fmt.Errorf("reading the embedded summary schema: %w", err)
			return
		}
		c := jsonschema.NewCompiler()
		const url = "summary.schema.json"
		if err := c.AddResource(url, doc); err != nil {
			compileErr = fmt.Errorf("loading the embedded summary schema: %w", err)
			return
		}
		compiledSchema, compileErr = c.Compile(url)
		if compileErr != nil {
			compileErr = fmt.Errorf("compiling the embedded summary schema: %w", compileErr)
		}
	})
	return compiledSchema, compileErr
}

// Validate checks raw against the summary schema and returns every
// violation, sorted by pointer; nil means raw is a valid summary document.
// A document that cannot be read at all (too large, nested too deeply, not
// JSON) yields one violation at the root saying why. Validate never panics.
func Validate(raw []byte) []Violation {
	_, vs, err := Decode(raw)
	if err != nil {
		return []Violation{{Pointer: "", Message: err.Error()}}
	}
	return vs
}

// validateValue validates a decoded JSON value (as jsonschema.UnmarshalJSON
// returns it).
func validateValue(v any) []Violation {
	s, err := summarySchema()
	if err != nil {
		return []Violation{{Message: err.Error()}}
	}
	err = s.Validate(v)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []Violation{{Message: err.Error()}}
	}
	var out []Violation
	collect(ve, &out)
	if len(out) == 0 {
		out = append(out, Violation{Pointer: pointer(ve.InstanceLocation), Message: ve.Error()})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	// anyOf branches can repeat the same sentence; keep one.
	uniq := out[:0]
	for i, v := range out {
		if i > 0 && v == out[i-1] {
			continue
		}
		uniq = append(uniq, v)
	}
	return uniq
}

// collect walks the error tree and turns its leaves into violations.
func collect(e *jsonschema.ValidationError, out *[]Violation) {
	if k, ok := e.ErrorKind.(*kind.AnyOf); ok && k != nil && len(e.InstanceLocation) >= 1 && e.InstanceLocation[0] == "pending" {
		*out = append(*out, Violation{Pointer: pointer(e.InstanceLocation), Message: "a pending entry needs op_id or description"})
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, out)
		}
		return
	}
	*out = append(*out, describe(e))
}

func describe(e *jsonschema.ValidationError) Violation {
	loc := e.InstanceLocation
	p := pointer(loc)
	name := "the document"
	if len(loc) > 0 {
		name = loc[len(loc)-1]
		if _, err := strconv.Atoi(name); err == nil && len(loc) > 1 {
			name = loc[len(loc)-2] + "[" + name + "]"
		}
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		return Violation{p, fmt.Sprintf("%s is %s; want %s", name, article(k.Got), orList(k.Want, article))}
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		return Violation{p, fmt.Sprintf("%s is %s; want one of %s", name, show(k.Got), strings.Join(want, ", "))}
	case *kind.Const:
		return Violation{p, fmt.Sprintf("%s is %s; want %s", name, show(k.Got), show(k.Want))}
	case *kind.Required:
		msgs := make([]string, len(k.Missing))
		for i, m := range k.Missing {
			msgs[i] = m
		}
		verb := "is"
		if len(msgs) > 1 {
			verb = "are"
		}
		return Violation{p, fmt.Sprintf("%s %s required", strings.Join(msgs, " and "), verb)}
	case *kind.AdditionalProperties:
		where := "at the top level"
		if len(loc) > 0 {
			where = "in " + name
		}
		hint := ""
		if len(loc) == 0 {
			hint = " (put your own fields under extensions)"
		}
		props := append([]string(nil), k.Properties...)
		sort.Strings(props)
		pp := p
		if len(props) == 1 {
			pp = p + "/" + escape(props[0])
		}
		return Violation{pp, fmt.Sprintf("unknown property %s %s%s", quoteList(props), where, hint)}
	case *kind.Minimum:
		return Violation{p, fmt.Sprintf("%s is %s; want at least %s", name, rat(k.Got), rat(k.Want))}
	case *kind.MinLength:
		return Violation{p, fmt.Sprintf("%s is empty; want some text", name)}
	case *kind.FalseSchema:
		return Violation{p, fmt.Sprintf("%s is not allowed here", name)}
	}
	return Violation{p, fmt.Sprintf("%s: %s", name, e.ErrorKind.LocalizedString(nil))}
}

func pointer(loc []string) string {
	if len(loc) == 0 {
		return ""
	}
	var b strings.Builder
	for _, l := range loc {
		b.WriteByte('/')
		b.WriteString(escape(l))
	}
	return b.String()
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func article(t string) string {
	switch t {
	case "integer", "array", "object":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func orList(ws []string, f func(string) string) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = f(w)
	}
	return strings.Join(out, " or ")
}

func quoteList(ws []string) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = strconv.Quote(w)
	}
	return strings.Join(out, ", ")
}

func rat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	return r.FloatString(3)
}

// show renders a decoded JSON value briefly.
func show(v any) string {
	switch x := v.(type) {
	case string:
		if len(x) > 40 {
			x = x[:40] + "…"
		}
		return strconv.Quote(x)
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprint(v)
}
