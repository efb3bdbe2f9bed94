package reports_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(result.SchemaJSON()))
	if err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("result.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("result.schema.json")
	if err != nil {
		t.Fatalf("compiling the result schema: %v", err)
	}
	return s
}

func TestSchemaValidatesResults(t *testing.T) {
	s := compileSchema(t)
	for _, cfg := range []fake.Config{{Scenarios: 3, Seed: 1}, {Scenarios: 20, Trials: 2, Seed: 7}} {
		var b bytes.Buffer
		if err := result.WriteJSON(&b, fake.Result(cfg)); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(&b)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(inst); err != nil {
			t.Errorf("a generated result does not validate: %v", err)
		}
	}
	bad := map[string]string{
		"wrong version":  `{"result_version":2,"harness":"x","run_id":"r","started":"2026-01-01T00:00:00Z","config":{"summarizers":[],"agent":"","trials":1,"tokenizer":"o200k_base"},"units":[]}`,
		"bad status":     `{"result_version":1,"harness":"x","run_id":"r","started":"2026-01-01T00:00:00Z","config":{"summarizers":[],"agent":"","trials":1,"tokenizer":"o200k_base"},"units":[{"scenario":{"id":"a","file":"a.yaml","digest":"d"},"summarizer":"s","trial":0,"status":"fine","generations":[],"probes":[],"duration_ns":0}]}`,
		"missing config": `{"result_version":1,"harness":"x","run_id":"r","started":"2026-01-01T00:00:00Z","units":[]}`,
	}
	for name, doc := range bad {
		inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err := s.Validate(inst); err == nil {
			t.Errorf("%s: the schema accepts an invalid result", name)
		}
	}
}

// TestSchemaCoversModel walks the Go types of the result and checks that
// every JSON property they write is described in the schema, so the schema
// cannot silently fall behind the model.
func TestSchemaCoversModel(t *testing.T) {
	var schema struct {
		Properties map[string]any            `json:"properties"`
		Defs       map[string]map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(result.SchemaJSON(), &schema); err != nil {
		t.Fatal(err)
	}
	props := func(def string) map[string]any {
		if def == "" {
			return schema.Properties
		}
		p, _ := schema.Defs[def]["properties"].(map[string]any)
		return p
	}
	types := map[string]reflect.Type{
		"":                  reflect.TypeFor[result.Result](),
		"config":            reflect.TypeFor[result.RunConfig](),
		"scenario":          reflect.TypeFor[result.ScenarioRef](),
		"unit":              reflect.TypeFor[result.Unit](),
		"generation":        reflect.TypeFor[result.Generation](),
		"probe":             reflect.TypeFor[result.Probe](),
		"decision":          reflect.TypeFor[result.Decision](),
		"aggregate":         reflect.TypeFor[result.Aggregate](),
		"summarizerSummary": reflect.TypeFor[result.SummarizerSummary](),
		"check":             reflect.TypeOf(result.Generation{}.Checks).Elem(),
		"call":              reflect.TypeOf(result.Generation{}.Call),
		"judgement":         reflect.TypeOf(result.Generation{}.Checks).Elem().Field(judgeField()).Type.Elem(),
	}
	for def, typ := range types {
		p := props(def)
		// VisibleFields: an embedded struct's fields (result.Decided in
		// an aggregate) are written inline, as the type's own.
		for _, f := range reflect.VisibleFields(typ) {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() || f.Anonymous && name == "" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if _, ok := p[name]; !ok {
				t.Errorf("schema $defs/%s lacks property %q (field %s.%s): add it to result/result.schema.json", def, name, typ.Name(), f.Name)
			}
		}
	}
}

// judgeField is the index of result.CheckResult's Judge field.
func judgeField() int {
	f, _ := reflect.TypeOf(result.Generation{}.Checks).Elem().FieldByName("Judge")
	return f.Index[0]
}

func TestReadRoundTrip(t *testing.T) {
	r := small(t)
	path := filepath.Join(t.TempDir(), "result.json")
	var b bytes.Buffer
	if err := result.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := reports.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	var b2 bytes.Buffer
	result.WriteJSON(&b2, got)
	if d := cmp.Diff(b.String(), b2.String()); d != "" {
		t.Errorf("read then written differs (-want +got):\n%s", d)
	}
}

func TestReadErrors(t *testing.T) {
	head := `{"result_version":1,"harness":"x","run_id":"r","started":"2026-01-01T00:00:00Z","config":{"summarizers":[],"agent":"","trials":1,"tokenizer":"t"},`
	tests := []struct{ name, doc, want string }{
		{"not json", "hello", "invalid result"},
		{"no version", `{"harness":"x"}`, "not a compact-eval result: no result_version"},
		{"newer version", `{"result_version":9}`, "result_version 9 is newer than this compact-eval reads (1)"},
		{"unknown field", head + `"units":[],"colour":1}`, `unknown field "colour"`},
		{"syntax error line", "{\"result_version\":1,\n\"units\": [,]}", "line 2"},
		{"trailing data", head + `"units":[]} {}`, "after top-level value"},
		{"bad unit status", head + `"units":[{"scenario":{"id":"a","file":"f","digest":"d"},"summarizer":"s","trial":0,"status":"fine","generations":[],"probes":[],"duration_ns":0}]}`, `unknown status "fine"`},
		{"no scenario id", head + `"units":[{"scenario":{"id":"","file":"f","digest":"d"},"summarizer":"s","trial":0,"status":"ok","generations":[],"probes":[],"duration_ns":0}]}`, "units[0]: no scenario id"},
		{"bad probe class", head + `"units":[{"scenario":{"id":"a","file":"f","digest":"d"},"summarizer":"s","trial":0,"status":"ok","generations":[],"probes":[{"id":"p","expect":"x","full":{"choice":"x","call":{"spec":"","latency_ns":0,"usage":{}}},"compacted":{"choice":"x","call":{"spec":"","latency_ns":0,"usage":{}}},"class":"meh"}],"duration_ns":0}]}`, `unknown class "meh"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.json")
			os.WriteFile(path, []byte(tc.doc), 0o644)
			_, err := reports.Read(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("err = %v, want it to name the file and contain %q", err, tc.want)
			}
		})
	}
	if _, err := reports.Read(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("reading a missing file succeeded")
	}
}
