package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/compact-eval/compact-eval/reports"
)

// reportFormatFlag is --format: one of reports.Formats.
type reportFormatFlag string

func (f *reportFormatFlag) String() string { return string(*f) }
func (f *reportFormatFlag) Set(v string) error {
	for _, ok := range reports.Formats {
		if v == ok {
			*f = reportFormatFlag(v)
			return nil
		}
	}
	return fmt.Errorf("unknown format %q (valid: %s)", v, strings.Join(reports.Formats, ", "))
}

func init() {
	register(&Command{
		Name:      "report",
		UsageLine: "report RESULT [--format json|md|junit|html] [-o FILE]",
		Short:     "render a saved result in another format",
		Long: `Report renders a result file written by 'compact-eval run' (result.json) as
JSON, Markdown (for pull requests and $GITHUB_STEP_SUMMARY), JUnit XML (for CI
test reporters) or one self-contained HTML page with charts and a drill-down
per unit. Every format is rendered from the result file alone; secrets were
redacted before the result was written.

	$ compact-eval report out/result.json --format html -o report.html
	$ compact-eval report out/result.json --format md >> "$GITHUB_STEP_SUMMARY"

Flags may come before or after RESULT.`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			format := reportFormatFlag("md")
			fs.Var(&format, "format", "output format: "+strings.Join(reports.Formats, ", "))
			out := fs.String("o", "", "write to `FILE` instead of standard output")
			drill := fs.Int("max-drill-down", reports.DefaultMaxDrillDown, "html: units shown in full, worst first; the rest get one row each (-1: all)")
			return func(ctx context.Context, args []string) error {
				if len(args) != 1 {
					return usagef("report takes one result file, got %d arguments", len(args))
				}
				r, err := reports.Read(args[0])
				if err != nil {
					return inputError{err}
				}
				var b bytes.Buffer
				if err := reports.Write(&b, r, string(format), reports.Options{MaxDrillDown: *drill}); err != nil {
					return err
				}
				return writeOutput(env, *out, b.Bytes())
			}
		},
	})
}

// writeOutput writes data to path, or to standard output when path is ""
// or "-".
func writeOutput(env *Env, path string, data []byte) error {
	if path == "" || path == "-" {
		_, err := env.data().Write(data)
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}
