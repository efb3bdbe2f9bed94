package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/reports"
)

// compileSchema compiles SchemaJSON.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(SchemaJSON()))
	if err != nil {
		t.Fatalf("config.schema.json is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("config.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("config.json")
	if err != nil {
		t.Fatalf("config.schema.json does not compile: %v", err)
	}
	return sch
}

// schemaValidate validates a YAML document as an editor would: converted to
// JSON. A document that is not YAML is refused.
func schemaValidate(sch *jsonschema.Schema, data []byte) error {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return err
	}
	j, err := json.Marshal(jsonable(v))
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// jsonable turns the maps yaml.v3 decodes into maps JSON can encode.
func jsonable(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = jsonable(x)
		}
		return v
	case map[any]any:
		m := map[string]any{}
		for k, x := range v {
			m[fmt.Sprint(k)] = jsonable(x)
		}
		return m
	case []any:
		for i, x := range v {
			v[i] = jsonable(x)
		}
		return v
	}
	return v
}

// TestSchemaKeys: the schema has exactly the keys the loader takes, at
// every level, and the check types of min_pass are reports'.
func TestSchemaKeys(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(SchemaJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	at := func(path ...string) map[string]any {
		var v any = doc
		for _, p := range path {
			if list, ok := v.([]any); ok {
				i, _ := strconv.Atoi(p)
				v = list[i]
				continue
			}
			v = v.(map[string]any)[p]
		}
		return v.(map[string]any)
	}
	keys := func(m map[string]any) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	for where, props := range map[string]map[string]any{
		"":                     at("properties"),
		"summarizers[]":        at("$defs", "targetMapping", "properties"),
		"summarizers[].params": at("$defs", "targetMapping", "properties", "params", "properties"),
		"endpoints[]":          at("$defs", "endpoint", "properties"),
		"gates":                at("properties", "gates", "properties"),
		"recall":               at("properties", "recall", "anyOf", "1", "properties"),
	} {
		want := slices.Sorted(slices.Values(Keys[where]))
		if diff := cmp.Diff(want, keys(props)); diff != "" {
			t.Errorf("keys at %q: loader (-) and schema (+) differ:\n%s", where, diff)
		}
	}
	if len(Keys) != 6 {
		t.Errorf("Keys has %d levels; the test compares 6", len(Keys))
	}
	var enum []string
	for _, k := range at("$defs", "gateKey")["enum"].([]any) {
		enum = append(enum, k.(string))
	}
	if diff := cmp.Diff(reports.GateKeys(), enum); diff != "" {
		t.Errorf("the schema's check types differ from --min-pass's (-reports +schema):\n%s", diff)
	}
}

// TestSchemaAgreesWithLoader feeds the loader and the schema the same
// files, good and bad at every level, and requires the same answer: a file
// one accepts and the other refuses fails the test.
func TestSchemaAgreesWithLoader(t *testing.T) {
	sch := compileSchema(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.tmpl"), []byte("{{.Transcript}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := []string{
		"",
		"# only a comment\n",
		"version: 1\n",
		"summarizers: [builtin:extractive, builtin:mask]\n",
		"summarizers: [ours=builtin:extractive]\n",
		"summarizers:\n  - ours=exec:python3 compact.py --v2\n",
		"summarizers:\n  - {name: ours, spec: builtin:extractive}\n",
		"summarizers:\n  - name: small\n    type: openai\n    model: gpt-4o-mini\n    prompt: p.tmpl\n    params: {temperature: 0, seed: 7, max_tokens: 2000}\n    endpoint: local\nendpoints:\n  - {name: local, base_url: 'http://localhost:8000/v1', api_key_env: LOCAL_KEY}\n",
		"summarizers:\n  - {name: ours, type: exec, command: python3 compact.py, env: [ANTHROPIC_API_KEY]}\n",
		"summarizers:\n  - {name: ours, type: exec, command: [python3, compact.py], pass_env: [MY_KEY]}\n",
		"summarizers:\n  - {name: claude, type: anthropic, model: claude-sonnet-4-5, params: {max_tokens: 4000}}\n",
		"agent: builtin:reference\n",
		"agent: {spec: openai:gpt-4o, params: {temperature: 0}}\n",
		"judge: openai:gpt-4o\n",
		"judge: strict=openai:gpt-4o\n",
		"judge: {name: j, type: exec, command: ./judge}\n",
		"judge_scope: all\n",
		"trials: 3\njobs: 8\nexec_timeout: 30s\n",
		"exec_timeout: 1m30s\n",
		"gates: {min_pass: 1}\n",
		"gates: {min_pass: '90%'}\n",
		"gates: {min_pass: {constraint: 1, all: '90%', decisions: 0.5}}\n",
		"gates: {min_pass: 'constraint=1,all=0.9'}\n",
		"gates: {min_pass: 'constraint=1.0, all=90%'}\n",
		"gates: {baseline: base/result.json, uncertain: skip}\n",
		"judge: openai:gpt-4o\ngates: {judge: true}\n",
		"scenarios: scenarios/\n",
		"scenarios: [scenarios/, extra/one.yaml]\n",
	}
	bad := []string{
		"- a list\n",
		"version: 2\n",
		"version: '1'\n",
		"sumarizers: [builtin:extractive]\n",
		"summarizers: builtin:extractive\n",
		"summarizers: []\n",
		"summarizers: [nope]\n",
		"summarizers: ['ours=nope']\n",
		"summarizers: [42]\n",
		"summarizers:\n  - {name: ours, modle: x, type: openai, model: m}\n",
		"summarizers:\n  - {name: ours}\n",
		"summarizers:\n  - {spec: builtin:extractive, type: exec, command: x}\n",
		"summarizers:\n  - {spec: 'openai:m', model: m}\n",
		"summarizers:\n  - {type: exec}\n",
		"summarizers:\n  - {type: openai}\n",
		"summarizers:\n  - {type: exec, command: x, model: m}\n",
		"summarizers:\n  - {type: openai, model: m, command: x}\n",
		"summarizers:\n  - {type: openai, model: m, env: [K]}\n",
		"summarizers:\n  - {type: exec, command: x, params: {seed: 1}}\n",
		"summarizers:\n  - {type: fancy, model: m}\n",
		"summarizers:\n  - {type: openai, model: m, params: {temperature: 3}}\n",
		"summarizers:\n  - {type: openai, model: m, params: {top_p: 1}}\n",
		"summarizers:\n  - {type: openai, model: m, params: {max_tokens: 0}}\n",
		"summarizers:\n  - {type: exec, command: x, env: [my_key]}\n",
		"summarizers:\n  - {type: exec, command: []}\n",
		"endpoints:\n  - {name: local}\n",
		"endpoints:\n  - {base_url: 'http://x'}\n",
		"endpoints:\n  - {name: local, base_url: 'ftp://x'}\n",
		"endpoints:\n  - {name: local, base_url: 'http://x', api_key: sk-123}\n",
		"endpoints:\n  - {name: local, base_url: 'http://x', api_key_env: lower}\n",
		"agent: ours=builtin:reference\n",
		"agent: [builtin:reference]\n",
		"judge_scope: sometimes\n",
		"trials: 0\n",
		"trials: '3'\n",
		"trials: 1.5\n",
		"jobs: -1\n",
		"exec_timeout: 30\n",
		"exec_timeout: soon\n",
		"gates: {min_pas: 1}\n",
		"gates: {min_pass: {contraint: 1}}\n",
		"gates: {min_pass: 1.5}\n",
		"gates: {min_pass: '150%'}\n",
		"gates: {min_pass: {}}\n",
		"gates: {min_pass: {all: 2}}\n",
		"gates: {min_pass: 'contraint=1'}\n",
		"gates: {min_pass: 'constraint=1.5'}\n",
		"gates: {min_pass: 'constraint=101%'}\n",
		"gates: {uncertain: ignore}\n",
		"gates: {judge: 'yes'}\n",
		"gates: {baseline: [a]}\n",
		"gates: 1\n",
		"scenarios: []\n",
		"scenarios: [1]\n",
	}
	check := func(src string, wantOK bool) {
		t.Helper()
		_, lerr := Parse(filepath.Join(dir, "compact-eval.yaml"), []byte(src))
		serr := schemaValidate(sch, []byte(src))
		if (lerr == nil) != (serr == nil) {
			t.Errorf("loader and schema disagree on\n%s\nloader: %v\nschema: %v", src, lerr, serr)
		}
		if (lerr == nil) != wantOK {
			t.Errorf("loader: %v on\n%s(want ok=%v)", lerr, src, wantOK)
		}
	}
	for _, src := range good {
		check(src, true)
	}
	for _, src := range bad {
		check(src, false)
	}
}

// TestDocumentedConfigs: every config file the documentation shows (the
// README's "A config file", every YAML block of docs/config.md, this
// package's doc comment, the file `compact-eval init` writes) loads and
// passes the schema.
func TestDocumentedConfigs(t *testing.T) {
	sch := compileSchema(t)
	examples := map[string]string{"init (Template)": Template, "init, with scenarios/": strings.Replace(Template, TemplateScenariosOff, TemplateScenariosOn, 1)}
	readme, err := os.ReadFile("../../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(readme), "\n## A config file\n")
	if !ok {
		t.Fatal(`README has no "## A config file" section`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(sec, -1)
	if len(blocks) == 0 {
		t.Fatal(`README's "A config file" has no yaml block`)
	}
	for i, b := range blocks {
		examples[fmt.Sprintf("README block %d", i+1)] = b[1]
	}
	guide, err := os.ReadFile("../../../../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks = regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(guide), -1)
	if len(blocks) < len(Keys[""]) {
		t.Errorf("docs/config.md has %d yaml blocks; want one per top-level key at least (%d)", len(blocks), len(Keys[""]))
	}
	for i, b := range blocks {
		examples[fmt.Sprintf("docs/config.md block %d", i+1)] = b[1]
	}
	src, err := os.ReadFile("config.go")
	if err != nil {
		t.Fatal(err)
	}
	var pkgdoc []string
	for _, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(l, "//\t") {
			pkgdoc = append(pkgdoc, strings.TrimPrefix(l, "//\t"))
		}
		if strings.HasPrefix(l, "package ") {
			break
		}
	}
	examples["package doc"] = strings.Join(pkgdoc, "\n")
	dir := t.TempDir()
	for _, p := range []string{"prompts/summarize.tmpl", "prompts/compact.tmpl"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte("{{.Transcript}}"), 0o644)
	}
	for name, text := range examples {
		if _, err := Parse(filepath.Join(dir, DefaultFile), []byte(text)); err != nil {
			t.Errorf("%s does not load: %v\n%s", name, err, text)
		}
		if err := schemaValidate(sch, []byte(text)); err != nil {
			t.Errorf("%s fails the schema: %v\n%s", name, err, text)
		}
	}
	// Every key is documented in docs/config.md, as `key` in a heading.
	for where, keys := range Keys {
		for _, k := range keys {
			path := k
			if where != "" {
				path = where + "." + k
			}
			if !strings.Contains(string(guide), "`"+path+"`") {
				t.Errorf("docs/config.md does not document `%s`", path)
			}
		}
	}
}

// TestConfigTakesWhatFlagsTake: a value written in the file is accepted
// exactly when the flag it stands for accepts it, whatever its form
// (NAME=SPEC for summarizers and the judge, the flag's own form of
// min_pass, the words of --uncertain).
func TestConfigTakesWhatFlagsTake(t *testing.T) {
	quote := func(v string) string { b, _ := json.Marshal(v); return string(b) }
	parses := func(src string) error {
		f, err := Parse(filepath.Join(t.TempDir(), DefaultFile), []byte(src))
		if err != nil {
			return err
		}
		_, err = Merge(f, Flags{Agent: "builtin:reference"}, map[string]bool{})
		return err
	}
	for _, tc := range []struct {
		key    string
		values []string
		flag   func(string) error
		file   func(string) string
	}{
		{
			key:    "summarizers",
			values: []string{"builtin:extractive", "ours=builtin:extractive", "ours=exec:python3 x.py", "exec:python3 a=b.py", "ours.v2=openai:gpt-4o", "nope", "ours=nope", "builtin:nope", "=builtin:mask", "ours=", "a b=builtin:mask"},
			flag: func(v string) error {
				_, err := Merge(nil, Flags{Summarizers: []string{v}, Agent: "builtin:reference"}, map[string]bool{FlagSummarizer: true})
				return err
			},
			file: func(v string) string { return "summarizers: [" + quote(v) + "]\n" },
		},
		{
			key:    "judge",
			values: []string{"openai:gpt-4o", "strict=openai:gpt-4o", "exec:./judge --strict", "builtin:reference", "j=builtin:mask", "nope"},
			flag: func(v string) error {
				_, err := Merge(nil, Flags{Judge: v, Agent: "builtin:reference"}, map[string]bool{FlagJudge: true})
				return err
			},
			file: func(v string) string { return "judge: " + quote(v) + "\n" },
		},
		{
			key:    "agent",
			values: []string{"builtin:reference", "openai:gpt-4o", "a=builtin:reference", "nope"},
			flag: func(v string) error {
				_, err := Merge(nil, Flags{Agent: v}, map[string]bool{FlagAgent: true})
				return err
			},
			file: func(v string) string { return "agent: " + quote(v) + "\n" },
		},
		{
			key:    "gates.min_pass",
			values: []string{"constraint=1", "constraint=1,all=0.9", "all=90%", "decisions = 0.5", "contraint=1", "constraint=1.5", "constraint=x", "constraint", "constraint=1,", "all=NaN"},
			flag:   func(v string) error { _, err := reports.ParseMinPass(v); return err },
			file:   func(v string) string { return "gates: {min_pass: " + quote(v) + "}\n" },
		},
		{
			key:    "gates.uncertain",
			values: []string{"miss", "skip", "pass", "ignore", "MISS"},
			flag:   func(v string) error { var u reports.UncertainAs; return u.Set(v) },
			file:   func(v string) string { return "gates: {uncertain: " + quote(v) + "}\n" },
		},
	} {
		for _, v := range tc.values {
			ferr, cerr := tc.flag(v), parses(tc.file(v))
			if (ferr == nil) != (cerr == nil) {
				t.Errorf("%s %q: the flag says %v, the file says %v", tc.key, v, ferr, cerr)
			}
		}
	}
}
