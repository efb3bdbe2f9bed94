package yamlnode

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// parse returns the root node of src (inside its document node).
func parse(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("parsing %q: %v", src, err)
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		return doc.Content[0]
	}
	return &doc
}

// recorder is a Decoder that records each problem as "line:col: msg".
func recorder() (*Decoder, *[]string) {
	var got []string
	d := &Decoder{Report: func(p Pos, msg string) {
		got = append(got, fmt.Sprintf("%d:%d: %s", p.Line, p.Col, msg))
	}}
	return d, &got
}

func TestSyntaxError(t *testing.T) {
	for _, tc := range []struct {
		name     string
		err      error
		wantLine int
		wantMsg  string
	}{
		{"with line", errors.New("yaml: line 3: mapping values are not allowed in this context"), 3, "mapping values are not allowed in this context"},
		{"without line", errors.New("yaml: control characters are not allowed"), 0, "control characters are not allowed"},
		{"other form", errors.New("unexpected EOF"), 0, "unexpected EOF"},
		{"several lines", errors.New("yaml: line 2: a\nb"), 0, "yaml: line 2: a\nb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, msg := SyntaxError(tc.err)
			if diff := cmp.Diff([]any{tc.wantLine, tc.wantMsg}, []any{line, msg}); diff != "" {
				t.Errorf("SyntaxError (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSyntaxErrorFromParser(t *testing.T) {
	var n yaml.Node
	err := yaml.Unmarshal([]byte("a: 1\nb: [\n"), &n)
	if err == nil {
		t.Fatal("want a syntax error")
	}
	line, msg := SyntaxError(err)
	if line == 0 || strings.HasPrefix(msg, "yaml:") || strings.HasPrefix(msg, "line ") {
		t.Errorf("SyntaxError(%q) = %d, %q; want a line and a bare message", err, line, msg)
	}
}

func TestAliases(t *testing.T) {
	deepSrc := strings.Repeat("[", 10) + strings.Repeat("]", 10)
	for _, tc := range []struct {
		name      string
		src       string
		maxDepth  int
		wantPos   []Pos
		wantDeep  Pos
		wantValue string
	}{
		{"none", "a: 1\nb: [2, 3]\n", 0, nil, Pos{}, ""},
		{"two aliases", "a: &x 1\nb: *x\nc: [*x]\n", 0, []Pos{{2, 4}, {3, 5}}, Pos{}, "x"},
		{"too deep", deepSrc, 5, nil, Pos{1, 7}, ""},
		{"no limit", deepSrc, 0, nil, Pos{}, ""},
		{"deep hides an alias", "a: &x 1\nb: [[[*x]]]\n", 3, nil, Pos{2, 7}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			aliases, deep := Aliases(parse(t, tc.src), tc.maxDepth)
			var gotPos []Pos
			for _, a := range aliases {
				gotPos = append(gotPos, PosOf(a))
				if a.Value != tc.wantValue {
					t.Errorf("alias value %q, want %q", a.Value, tc.wantValue)
				}
			}
			if diff := cmp.Diff(tc.wantPos, gotPos); diff != "" {
				t.Errorf("aliases (-want +got):\n%s", diff)
			}
			var gotDeep Pos
			if deep != nil {
				gotDeep = PosOf(deep)
			}
			if diff := cmp.Diff(tc.wantDeep, gotDeep); diff != "" {
				t.Errorf("deep (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDescribeAndBrief(t *testing.T) {
	for _, tc := range []struct {
		name, src               string
		wantDescribe, wantBrief string
	}{
		{"mapping", "{a: 1}", "a mapping", "a mapping"},
		{"list", "[1]", "a list", "a list"},
		{"null", "~", "nothing (null)", "nothing"},
		{"int", "5", `int "5"`, "a number"},
		{"float", "0.5", `float "0.5"`, "a number"},
		{"bool", "true", `bool "true"`, "a boolean"},
		{"string", "sk-secret", `str "sk-secret"`, "a string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := parse(t, tc.src)
			if diff := cmp.Diff(tc.wantDescribe, Describe(n)); diff != "" {
				t.Errorf("Describe (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantBrief, Brief(n)); diff != "" {
				t.Errorf("Brief (-want +got):\n%s", diff)
			}
		})
	}
	alias := &yaml.Node{Kind: yaml.AliasNode}
	if got := Describe(alias); got != "something else" {
		t.Errorf("Describe(alias) = %q", got)
	}
	if got := Brief(alias); got != "an alias" {
		t.Errorf("Brief(alias) = %q", got)
	}
}

func TestMapping(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     string
		terse   bool
		unknown func(string) string
		wantSet []string
		wantOK  bool
		want    []string
	}{
		{
			name: "all fine", src: "id: a\nn: 2\n",
			wantSet: []string{"id=a", "n=2"}, wantOK: true,
		},
		{
			name: "unknown, duplicate and missing", src: "n: 2\nn: 3\nextra: x\n",
			wantSet: []string{"n=2"}, wantOK: true,
			want: []string{
				`2:1: thing: duplicate field "n" (first at line 1)`,
				`3:1: thing: unknown field "extra" (valid: id, n)`,
				`1:1: thing: missing required field "id"`,
			},
		},
		{
			name: "terse", src: "id: a\nid: b\nextra: x\n", terse: true,
			wantSet: []string{"id=a"}, wantOK: true,
			want: []string{
				`2:1: duplicate field "id" (first at line 1)`,
				`3:1: unknown field "extra"`,
			},
		},
		{
			name: "misspelt field, nearest suggested", src: "id: a\nN: 2\nidd: b\n",
			wantSet: []string{"id=a"}, wantOK: true,
			want: []string{
				`2:1: thing: unknown field "N" (did you mean "n"?; valid: id, n)`,
				`3:1: thing: unknown field "idd" (did you mean "id"?; valid: id, n)`,
			},
		},
		{
			name: "misspelt field, terse", src: "id: a\nidd: b\n", terse: true,
			wantSet: []string{"id=a"}, wantOK: true,
			want: []string{`2:1: unknown field "idd" (did you mean "id"?)`},
		},
		{
			name: "unknown explained", src: "id: a\napi_key: sk-1\nother: 1\n",
			unknown: func(k string) string {
				if k == "api_key" {
					return "no keys here"
				}
				return ""
			},
			wantSet: []string{"id=a"}, wantOK: true,
			want: []string{
				`2:1: no keys here`,
				`3:1: thing: unknown field "other" (valid: id, n)`,
			},
		},
		{
			name: "not a mapping", src: "[1, 2]\n",
			want: []string{`1:1: thing: want a mapping, got a list`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, got := recorder()
			d.Terse, d.Unknown = tc.terse, tc.unknown
			var set []string
			record := func(name string) func(*yaml.Node) {
				return func(v *yaml.Node) { set = append(set, name+"="+v.Value) }
			}
			ok := d.Mapping(parse(t, tc.src), "thing", []Field{
				{Name: "id", Required: true, Set: record("id")},
				{Name: "n", Set: record("n")},
			})
			if ok != tc.wantOK {
				t.Errorf("Mapping = %v, want %v", ok, tc.wantOK)
			}
			if diff := cmp.Diff(tc.wantSet, set); diff != "" {
				t.Errorf("fields set (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, *got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMappingManyFields(t *testing.T) {
	// More fields than Mapping's stack buffer holds.
	var fields []Field
	var src strings.Builder
	set := 0
	for i := range 20 {
		name := fmt.Sprintf("f%d", i)
		fields = append(fields, Field{Name: name, Required: true, Set: func(*yaml.Node) { set++ }})
		if i != 7 {
			fmt.Fprintf(&src, "%s: %d\n", name, i)
		}
	}
	src.WriteString("f19: again\n")
	d, got := recorder()
	d.Mapping(parse(t, src.String()), "big", fields)
	want := []string{
		`20:1: big: duplicate field "f19" (first at line 19)`,
		`1:1: big: missing required field "f7"`,
	}
	if diff := cmp.Diff(want, *got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if set != 19 {
		t.Errorf("%d fields set, want 19", set)
	}
}

func TestFields(t *testing.T) {
	d, got := recorder()
	d.Terse = true
	n := parse(t, "b: 2\na: 1\na: 3\nc: 4\n")
	fields := d.Fields(n, "cfg", "a", "b", "z")
	gotVals := map[string]string{}
	for name, e := range fields {
		gotVals[name] = fmt.Sprintf("%s@%d=%s", e.Key.Value, e.Key.Line, e.Value.Value)
	}
	if diff := cmp.Diff(map[string]string{"a": "a@2=1", "b": "b@1=2"}, gotVals); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	want := []string{`3:1: duplicate field "a" (first at line 2)`, `4:1: unknown field "c"`}
	if diff := cmp.Diff(want, *got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if f := d.Fields(parse(t, "x"), "cfg", "a"); f != nil {
		t.Errorf("Fields of a scalar = %v, want nil", f)
	}
	if f := d.Fields(parse(t, "{}"), "cfg", "a"); f == nil || len(f) != 0 {
		t.Errorf("Fields of an empty mapping = %#v, want empty, not nil", f)
	}
}

func TestScalars(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		read func(d *Decoder, n *yaml.Node) any
		want any
		errs []string
	}{
		{"text of an int", "5432", func(d *Decoder, n *yaml.Node) any { return d.Text(n, "port") }, "5432", nil},
		{"text of null", "~", func(d *Decoder, n *yaml.Node) any { return d.TextIn(n, "e[0]", ".text") }, "",
			[]string{"1:1: e[0].text: want text, got nothing (null)"}},
		{"texts", "[a, 1, [x]]", func(d *Decoder, n *yaml.Node) any { return d.Texts(n, "tags") }, []string{"a", "1", ""},
			[]string{"1:8: tags[2]: want text, got a list"}},
		{"texts of a scalar", "a", func(d *Decoder, n *yaml.Node) any { return d.Texts(n, "tags") }, []string(nil),
			[]string{`1:1: tags: want a list, got str "a"`}},
		{"texts empty", "[]", func(d *Decoder, n *yaml.Node) any { return d.Texts(n, "tags") }, []string{}, nil},
		{"string", "openai", func(d *Decoder, n *yaml.Node) any { s, _ := d.String(n, "type"); return s }, "openai", nil},
		{"string of an int", "5", func(d *Decoder, n *yaml.Node) any { s, _ := d.String(n, "type"); return s }, "",
			[]string{`1:1: type: want a string, got int "5"`}},
		{"blank string", `"  "`, func(d *Decoder, n *yaml.Node) any { s, _ := d.String(n, "type"); return s }, "",
			[]string{"1:1: type: empty"}},
		{"int", "1_000", func(d *Decoder, n *yaml.Node) any { return d.Int(n, "n") }, 1000, nil},
		{"hex int", "0x10", func(d *Decoder, n *yaml.Node) any { return d.Int(n, "n") }, 16, nil},
		{"negative int", "-3", func(d *Decoder, n *yaml.Node) any { return d.Int(n, "n") }, -3, nil},
		{"int too big", "2000000000000", func(d *Decoder, n *yaml.Node) any { return d.IntIn(n, "e[1]", ".seq") }, 0,
			[]string{"1:1: e[1].seq: integer 2000000000000 out of range"}},
		{"int of a float", "1.5", func(d *Decoder, n *yaml.Node) any { return d.Int(n, "n") }, 0,
			[]string{`1:1: n: want an integer, got float "1.5"`}},
		{"number", "0.25", func(d *Decoder, n *yaml.Node) any { return d.Number(n, "x") }, 0.25, nil},
		{"number of an int", "2", func(d *Decoder, n *yaml.Node) any { return d.Number(n, "x") }, 2.0, nil},
		{"number infinity", ".inf", func(d *Decoder, n *yaml.Node) any { return d.Number(n, "x") }, math.Inf(1), nil},
		{"number of text", "fast", func(d *Decoder, n *yaml.Node) any { return d.Number(n, "x") }, 0.0,
			[]string{`1:1: x: want a number, got str "fast"`}},
		{"scalar with tag", "30s", func(d *Decoder, n *yaml.Node) any { return d.Scalar(n, "t", "a duration", "!!str") }, true, nil},
		{"scalar without tag", "[30]", func(d *Decoder, n *yaml.Node) any { return d.Scalar(n, "t", "a duration", "!!str") }, false,
			[]string{"1:1: t: want a duration, got a list"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, got := recorder()
			v := tc.read(d, parse(t, tc.src))
			if diff := cmp.Diff(tc.want, v); diff != "" {
				t.Errorf("value (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.errs, *got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDescribeHook(t *testing.T) {
	d, got := recorder()
	d.Describe = Brief
	d.Int(parse(t, "sk-live-123"), "trials")
	want := []string{"1:1: trials: want an integer, got a string"}
	if diff := cmp.Diff(want, *got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestItems(t *testing.T) {
	d, got := recorder()
	var names []string
	ok := d.Items(parse(t, "[a, b, c]"), "list", func(item *yaml.Node, what string) {
		names = append(names, what+"="+item.Value)
	})
	if !ok {
		t.Error("Items of a list = false")
	}
	if diff := cmp.Diff([]string{"list[0]=a", "list[1]=b", "list[2]=c"}, names); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if d.Items(parse(t, "{a: 1}"), "list", func(*yaml.Node, string) { t.Error("called for a mapping") }) {
		t.Error("Items of a mapping = true")
	}
	if diff := cmp.Diff([]string{"1:1: list: want a list, got a mapping"}, *got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
