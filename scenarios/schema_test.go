package scenarios

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(SchemaJSON()))
	if err != nil {
		t.Fatalf("schema.json is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("scenario.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("scenario.json")
	if err != nil {
		t.Fatalf("schema.json does not compile: %v", err)
	}
	return sch
}

// yamlInstance converts YAML to the JSON value an editor would validate.
func yamlInstance(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("yaml: %v", err)
	}
	j, err := json.Marshal(jsonable(v))
	if err != nil {
		t.Fatalf("to JSON: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func TestSchemaAcceptsGoodScenarios(t *testing.T) {
	sch := compileSchema(t)
	files, _ := filepath.Glob("builtin/*.yaml")
	good, _ := filepath.Glob("../testdata/scenarios/good/*.yaml")
	files = append(files, good...)
	if len(files) == 0 {
		t.Fatal("no scenarios found")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := LoadBytes(f, data); err != nil {
				t.Fatalf("the loader refuses it:\n%v", err)
			}
			if err := sch.Validate(yamlInstance(t, data)); err != nil {
				t.Errorf("the schema refuses %s:\n%v", f, err)
			}
		})
	}
}

func TestSchemaRefusesBrokenScenarios(t *testing.T) {
	sch := compileSchema(t)
	files, _ := filepath.Glob("../testdata/scenarios/broken/*.yaml")
	if len(files) < 10 {
		t.Fatalf("%d broken fixtures, want at least 10", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := LoadBytes(f, data); err == nil {
				t.Errorf("the loader accepts %s", f)
			}
			if err := sch.Validate(yamlInstance(t, data)); err == nil {
				t.Errorf("the schema accepts %s", f)
			}
		})
	}
}

func TestSchemaJSONIsACopy(t *testing.T) {
	a := SchemaJSON()
	a[0] = 'x'
	if SchemaJSON()[0] == 'x' {
		t.Error("SchemaJSON returns the embedded bytes, not a copy")
	}
}
