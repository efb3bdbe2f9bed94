package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/compact-eval/compact-eval/reports"
)

func init() {
	register(&Command{
		Name:      "compare",
		UsageLine: "compare [--alpha 0.05] [--map OLD=NEW] BASE NEW",
		Short:     "compare two results, paired, and fail on a regression",
		Long: `Compare pairs every outcome of two result files by scenario, summarizer,
trial, generation and check (or probe), in the manner of benchstat but paired.
It lists the pass→fail regressions and fail→pass fixes, and for each
summarizer × check type the pass-rate change with a 95% interval and an exact
McNemar test; "~" marks a change that is not significant at alpha.

A regression is any pass→fail when the runs have one trial, and a significant
drop when they have several. It fails closed: a pass in BASE that errored, is
skipped or is missing in NEW (its unit errored, its scenario did not run)
counts as pass→fail, and a summarizer of one run with no counterpart in the
other fails the comparison. Summarizers pair by name: give them stable names
(--summarizer NAME=SPEC, or name: in the config file), or pair two names with
--map OLD=NEW (OLD= or =NEW leaves one out on purpose). Scenarios whose
digests differ are listed as warnings and not compared; so are the scenarios
of BASE that NEW did not select (--shard, --run, --scenario).

	$ compact-eval compare main/result.json pr/result.json
	$ compact-eval compare --map 'exec:./sum.sh=exec:./sum.sh --v2' main/result.json pr/result.json

Exit status: 0 no regression, 1 a regression (or a summarizer without a
counterpart), 2 bad usage, an unreadable result file, or nothing paired
(the runs share no summarizer or no scenario).`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			alpha := fs.Float64("alpha", reports.DefaultAlpha, "significance level of the McNemar test, in (0, 1)")
			var pairs stringsFlag
			fs.Var(&pairs, "map", "pair summarizer OLD of BASE with NEW of the new run, as `OLD=NEW` (repeatable; OLD= or =NEW leaves one out)")
			return func(ctx context.Context, args []string) error {
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
				p, err := reports.ParsePairing(pairs, reports.Summarizers(base), reports.Summarizers(next))
				if err != nil {
					return usagef("--map %v", err)
				}
				c := reports.CompareWith(base, next, reports.CompareOptions{Alpha: *alpha, Pairing: p, MapFlag: "--map"})
				if err := c.WriteText(env.Stdout); err != nil {
					return err
				}
				if c.NothingPaired() {
					return inputError{errors.New(nothingPaired(c, reports.Summarizers(base), reports.Summarizers(next)))}
				}
				if c.Regressed {
					return errGate
				}
				return nil
			}
		},
	})
}

// nothingPaired is the sentence that explains a comparison with nothing
// paired.
func nothingPaired(c *reports.Comparison, base, next []string) string {
	if len(c.Pairs) == 0 {
		return fmt.Sprintf("nothing to compare: BASE has summarizers %q and NEW has %q, with no name in common; give them stable names (--summarizer NAME=SPEC, or name: in the config file) or pair them with --map OLD=NEW", base, next)
	}
	return "nothing to compare: the two runs share no scenario (or every shared scenario changed), so no outcome pairs up"
}
