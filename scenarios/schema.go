package scenarios

import _ "embed"

//go:embed schema.json
var schemaJSON []byte

// SchemaJSON returns the JSON Schema (draft 2020-12) of the scenario file
// format, for editors that validate YAML as it is typed. The schema checks
// the shape of a file; validate checks more (seq numbering, references,
// the reference agent). The returned slice is a copy.
func SchemaJSON() []byte { return append([]byte(nil), schemaJSON...) }
