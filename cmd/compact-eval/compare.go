package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/compact-eval/compact-eval/reports"
)

func init() {
	register(&Command{
		Name:      "compare",
		UsageLine: "compare [-alpha 0.05] BASE NEW",
		Short:     "compare two results, paired, and fail on a regression",
		Long: `Compare pairs every outcome of two result files by scenario, summarizer,
trial, generation and check (or probe), in the manner of benchstat but paired.
It lists the pass→fail regressions and fail→pass fixes, and for each
summarizer × check type the pass-rate change with a 95% interval and an exact
McNemar test; "~" marks a change that is not significant at alpha.

A regression is any pass→fail when the runs have one trial, and a significant
drop when they have several. Scenarios whose digests differ, and summarizers
present in one run only, are listed as warnings and not compared.

	$ compact-eval compare main/result.json pr/result.json

Exit status: 0 no regression, 1 a regression, 2 bad usage or an unreadable
result file.`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			alpha := fs.Float64("alpha", reports.DefaultAlpha, "significance level of the McNemar test, in (0, 1)")
			return func(ctx context.Context, args []string) error {
				args, err := parseInterspersed(fs, args)
				if err != nil {
					return err
				}
				if len(args) != 2 {
					return usagef("compare takes two result files, BASE and NEW; got %d arguments", len(args))
				}
				if *alpha <= 0 || *alpha >= 1 {
					return usagef("-alpha %g: want a level in (0, 1), e.g. 0.05", *alpha)
				}
				base, err := reports.Read(args[0])
				if err != nil {
					return inputError{fmt.Errorf("base: %w", err)}
				}
				next, err := reports.Read(args[1])
				if err != nil {
					return inputError{fmt.Errorf("new: %w", err)}
				}
				c := reports.Compare(base, next, *alpha)
				if err := c.WriteText(env.Stdout); err != nil {
					return err
				}
				if c.Regressed {
					return errGate
				}
				return nil
			}
		},
	})
}
