package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// choiceFlag is a flag whose value is one of valid (report's and audit's
// --format); Set names the valid ones.
type choiceFlag struct {
	v     string
	what  string // "format"
	valid []string
}

func (f *choiceFlag) String() string { return f.v }
func (f *choiceFlag) Set(v string) error {
	if slices.Contains(f.valid, v) {
		f.v = v
		return nil
	}
	return fmt.Errorf("unknown %s %q (valid: %s)", f.what, v, strings.Join(f.valid, ", "))
}

func init() {
	register(&Command{
		Name:      "report",
		UsageLine: "report RESULT [--format json|md|junit|html|csv|units-csv|otel] [-o FILE] [--baseline FILE [--baseline-map OLD=NEW]] [--config FILE]",
		Short:     "render a saved result in another format",
		Long: `Report renders a result file written by 'compact-eval run' (result.json) as
JSON, Markdown (for pull requests and $GITHUB_STEP_SUMMARY), JUnit XML (for CI
test reporters), one self-contained HTML page with charts and a drill-down
per unit, CSV with one row per check outcome (csv), CSV with one row per
unit (units-csv: its verdict, the counts of its outcomes, tokens in and out,
compression, latency, cost and error), for a spreadsheet or a notebook (the
columns are in docs/formats.md, "CSV"), or OpenTelemetry spans in OTLP JSON
(otel: a trace for the run, a span per unit and per generation, the check
results as events; docs/formats.md, "OpenTelemetry export"). units-csv
prices the tokens the calls reported with the prices: of the config file
(--config, default ./compact-eval.yaml when it exists), and leaves the cost
empty where a call has no price. Every format is rendered from the result
file alone; secrets were redacted before the result was written.

With --baseline FILE, the Markdown, HTML and JUnit open with what is new
against that baseline: regressions (decisions first), fixes, outcomes no
longer judged and newly judged, with the counts the baseline gate and
compare print (--baseline-map pairs summarizers whose names differ).

	$ compact-eval report out/result.json --format html -o report.html
	$ compact-eval report out/result.json --format md >> "$GITHUB_STEP_SUMMARY"
	$ compact-eval report pr/result.json --baseline main/result.json --format junit -o junit.xml
	$ compact-eval report out/result.json --format csv -o outcomes.csv
	$ compact-eval report out/result.json --format units-csv -o units.csv

Flags may come before or after RESULT.`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			format := choiceFlag{v: "md", what: "format", valid: reports.Formats}
			fs.Var(&format, "format", "output format: "+strings.Join(reports.Formats, ", "))
			out := fs.String("o", "", "write to `FILE` instead of standard output")
			drill := fs.Int("max-drill-down", reports.DefaultMaxDrillDown, "html: units shown in full, worst first; the rest get one row each (-1: all)")
			baseline := fs.String("baseline", "", "a saved result.json `file`: open the report with what is new against it")
			var pairs stringsFlag
			fs.Var(&pairs, "baseline-map", "pair baseline summarizer OLD with NEW of RESULT, as `OLD=NEW` (repeatable; OLD= or =NEW leaves one out)")
			cfg := fs.String("config", "", "units-csv: the config `file` whose prices: price the calls (default: ./"+config.DefaultFile+" when it exists)")
			return func(ctx context.Context, args []string) error {
				if len(args) != 1 {
					return usagef("report takes one result file, got %d arguments", len(args))
				}
				if *cfg != "" && format.v != "units-csv" {
					return usagef("--config gives units-csv its prices; --format %s reads none", format.v)
				}
				r, err := reports.Read(args[0])
				if err != nil {
					return inputError{err}
				}
				opts := reports.Options{MaxDrillDown: *drill}
				if format.v == "units-csv" {
					file, err := loadConfig(*cfg)
					if err != nil {
						return err
					}
					opts.Prices = reportPrices(file)
				}
				switch {
				case *baseline != "":
					base, err := reports.Read(*baseline)
					if err != nil {
						return inputError{fmt.Errorf("baseline: %w", err)}
					}
					p, err := reports.ParsePairing(pairs, result.Summarizers(base), result.Summarizers(r))
					if err != nil {
						return usagef("--baseline-map %v", err)
					}
					g := reports.Gate(r, reports.GateOptions{Baseline: base, Pairing: p})
					opts.Gate = &g
				case len(pairs) > 0:
					return usagef("--baseline-map needs --baseline FILE")
				}
				var b bytes.Buffer
				if err := reports.Write(&b, r, format.v, opts); err != nil {
					return err
				}
				return writeOutput(env, *out, b.Bytes())
			}
		},
	})
}

// reportPrices are the prices: of a config file (nil without a file or
// without prices).
func reportPrices(file *config.File) reports.Prices {
	if file == nil || file.Prices == nil {
		return nil
	}
	out := reports.Prices{}
	for k, p := range file.Prices {
		out[k] = reports.Price{Input: p.Input, Output: p.Output}
	}
	return out
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
