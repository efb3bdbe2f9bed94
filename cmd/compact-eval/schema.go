package main

import (
	"context"
	"flag"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/selftest"
)

// schemas maps a schema name to its document, in the order help lists them.
// older are names a schema was printed under before, still accepted and not
// listed: "report" is the result's (help said schema printed "a result",
// and `schema result` was refused).
var schemas = []struct {
	name  string
	older []string
	doc   func() []byte
	what  string
}{
	{"scenario", nil, scenarios.SchemaJSON, "a scenario file (YAML), for editors that validate as you type"},
	{"summary", nil, summary.SummarySchemaJSON, "the summary document a summarizer returns"},
	{"result", []string{"report"}, result.SchemaJSON, "the canonical JSON result of a run (result.json); 'report' is its older name"},
	{"selftest", nil, selftest.SchemaJSON, "the JSON document selftest --json writes"},
	{"config", nil, config.SchemaJSON, "compact-eval.yaml, the config file (every key: compact-eval help config)"},
}

func init() {
	var long strings.Builder
	long.WriteString("Schema prints a JSON Schema (draft 2020-12) to standard output:\n\n")
	for _, s := range schemas {
		long.WriteString("\t" + s.name + "\t" + s.what + "\n")
	}
	long.WriteString(`
To validate scenarios while editing with the YAML language server, save the
scenario schema and point to it from the first line of a scenario file:

	$ compact-eval schema scenario > scenario.schema.json
	# yaml-language-server: $schema=./scenario.schema.json`)
	register(&Command{
		Name:      "schema",
		UsageLine: "schema " + strings.ReplaceAll(schemaNames(), ", ", "|"),
		Short:     "print the JSON Schema of a scenario, a summary, a result, a selftest or the config file",
		Long:      long.String(),
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			return func(ctx context.Context, args []string) error {
				if len(args) != 1 {
					return usagef("schema takes one argument: %s", schemaNames())
				}
				for _, s := range schemas {
					if s.name == args[0] || slices.Contains(s.older, args[0]) {
						doc := s.doc()
						if _, err := env.data().Write(doc); err != nil {
							return err
						}
						if len(doc) > 0 && doc[len(doc)-1] != '\n' {
							_, err := env.data().Write([]byte("\n"))
							return err
						}
						return nil
					}
				}
				return usagef("unknown schema %q (valid: %s)", args[0], schemaNames())
			}
		},
	})
}

func schemaNames() string {
	names := make([]string, len(schemas))
	for i, s := range schemas {
		names[i] = s.name
	}
	return strings.Join(names, ", ")
}
