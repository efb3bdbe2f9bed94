package config

import (
	_ "embed"
	"slices"
)

//go:embed config.schema.json
var schemaJSON []byte

// SchemaJSON returns the JSON Schema (draft 2020-12) of the config file, as
// `compact-eval schema config` prints it. It has exactly the keys of Keys,
// and every documented example passes both it and Parse (config_schema_test.go).
func SchemaJSON() []byte { return slices.Clone(schemaJSON) }
