package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/reports"
)

func init() {
	register(&Command{
		Name:      "merge",
		UsageLine: "merge -o OUT RESULT…",
		Short:     "join the results of sharded runs into one",
		Long: `Merge joins the result files of 'compact-eval run --shard i/n' jobs into one
result, re-sorted and re-aggregated, ready for 'report', 'compare' or a gate.
It refuses results of different runs (harness version, tokenizer,
summarizers, agent or trial count differ) and overlapping shards (the same
scenario × summarizer × trial twice). A missing shard is a warning, printed
and kept in the merged result.

	$ compact-eval merge -o result.json shard-1/result.json shard-2/result.json

Use -o - to write to standard output.`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			out := fs.String("o", "", "write the merged result to `OUT` (required; - for standard output)")
			return func(ctx context.Context, args []string) error {
				if *out == "" {
					return usagef("merge needs -o OUT")
				}
				if len(args) == 0 {
					return usagef("merge needs at least one result file")
				}
				var rs []*result.Result
				for _, p := range args {
					r, err := reports.Read(p)
					if err != nil {
						return inputError{err}
					}
					rs = append(rs, r)
				}
				m, err := result.Merge(rs...)
				if err != nil {
					return inputError{fmt.Errorf("merging: %w", err)}
				}
				var b bytes.Buffer
				if err := result.WriteJSON(&b, m); err != nil {
					return err
				}
				if err := writeOutput(env, *out, b.Bytes()); err != nil {
					return err
				}
				for _, w := range m.Warnings {
					fmt.Fprintf(env.Stderr, "warning: %s\n", w)
				}
				fmt.Fprintf(env.Stderr, "merged %d results: %d units\n", len(rs), len(m.Units))
				return nil
			}
		},
	})
}
