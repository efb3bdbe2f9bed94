package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/reports"
)

func init() {
	register(&Command{
		Name:      "compare",
		UsageLine: "compare [--alpha 0.05] [--map OLD=NEW] [--accept-changed] BASE NEW | compare --a X --b Y [--format md] RESULT",
		Short:     "compare two results, paired, and fail on a regression; or two summarizers of one run",
		Long: `Compare pairs every outcome of two result files by scenario, summarizer,
trial, generation and check (or probe), in the manner of benchstat but paired.
It lists the pass→fail regressions and fail→pass fixes, and for each
summarizer × check type the pass-rate change with its interval and an exact
sign-flip test over scenarios, the unit of independence (McNemar's exact test
when each scenario holds one pair); "~" marks a change not significant at
alpha; the last column counts scenarios. The interval (level 1 − alpha)
excludes 0 exactly when p < alpha. Identical trials leave both as with one
trial, and say so (docs/formats.md, "Statistics over trials and scenarios").

A regression is an outcome that went pass→fail in every trial (with one
trial, any pass→fail) or, with several trials, a drop significant over
scenarios. It fails closed: a pass in BASE that errored, is
skipped or is missing in NEW (its unit errored, its scenario did not run)
counts as pass→fail, and a summarizer of one run with no counterpart in the
other fails the comparison. Summarizers pair by name: give them stable names
(--summarizer NAME=SPEC, or name: in the config file), or pair two names with
--map OLD=NEW (OLD= or =NEW leaves one out on purpose). A scenario whose
meaning changed (its digest, which comments and formatting do not change)
is not compared: its outcomes are listed apart and it fails the comparison
unless --accept-changed. The scenarios of BASE that NEW did not select
(--shard, --run, --scenario) are not compared either.

	$ compact-eval compare main/result.json pr/result.json
	$ compact-eval compare --map 'exec:./sum.sh=exec:./sum.sh --v2' main/result.json pr/result.json

Exit status: 0 no regression, 1 a regression (or a summarizer without a
counterpart), 2 bad usage, an unreadable result file, or nothing paired
(the runs share no summarizer or no scenario).

Head-to-head. With --a and --b, compare pairs two summarizers of ONE run
(each named by its name in the result, or by the spec it ran) on the same
scenarios, trials, generations and checks: their headline figures side by
side (invariants kept, structural checks passed, compaction regressions,
compression), then per check type both pass rates, Δ = B − A with its
interval (as above), the pairs only A kept and only B kept, the p-value of
the test over scenarios ("~": not significant at --alpha) and the scenarios,
and the outcomes only one of them kept. Only outcomes judged for both are compared (an errored unit counts as
failed; a skip on either side, as a text-only summary gets for field-level
checks, leaves the pair out and is counted). --format md writes Markdown for
a pull request or a paper's appendix. It is a measurement, not a gate: exit
0, or 2 when a name is unknown or nothing was judged for both.

	$ compact-eval compare --a builtin:extractive --b ours out/result.json
	$ compact-eval compare --a builtin:extractive --b ours --format md out/result.json >> "$GITHUB_STEP_SUMMARY"`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			lv := levelFlag(reports.DefaultAlpha)
			alpha := (*float64)(&lv)
			fs.Var(&lv, "alpha", "significance `level` of the paired test over scenarios, in (0, 1)")
			acceptChanged := fs.Bool("accept-changed", false, "hold over scenarios whose meaning changed between the runs (listed, not compared; by default a changed scenario fails the comparison)")
			var pairs stringsFlag
			fs.Var(&pairs, "map", "pair summarizer OLD of BASE with NEW of the new run, as `OLD=NEW` (repeatable; OLD= or =NEW leaves one out)")
			a := fs.String("a", "", "head-to-head: summarizer A of the one RESULT, by `NAME or SPEC`")
			b := fs.String("b", "", "head-to-head: summarizer B of the one RESULT, by `NAME or SPEC`")
			format := fs.String("format", "text", "head-to-head output: text or md")
			return func(ctx context.Context, args []string) error {
				if *a != "" || *b != "" {
					return headToHead(env, *a, *b, *format, *alpha, pairs, args)
				}
				if *format != "text" {
					return usagef("--format %s: only the head-to-head (--a, --b) writes Markdown", *format)
				}
				if len(args) != 2 {
					return usagef("compare takes two result files, BASE and NEW; got %d arguments", len(args))
				}
				if !(*alpha > 0 && *alpha < 1) {
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
				c, err := reports.CompareMapped(base, next, pairs, reports.CompareOptions{Alpha: *alpha, AcceptChanged: *acceptChanged})
				if err != nil {
					return usageError{err}
				}
				if err := c.WriteText(env.Stdout); err != nil {
					return err
				}
				if c.NothingPaired() {
					return inputError{errors.New(nothingPaired(c, result.Summarizers(base), result.Summarizers(next)))}
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

// headToHead is compare --a A --b B RESULT.
func headToHead(env *Env, a, b, format string, alpha float64, pairs []string, args []string) error {
	switch {
	case a == "" || b == "":
		return usagef("a head-to-head needs both --a and --b")
	case len(args) != 1:
		return usagef("compare --a --b takes one result file, got %d arguments", len(args))
	case len(pairs) > 0:
		return usagef("--map pairs two runs; a head-to-head compares two summarizers of one run")
	case alpha <= 0 || alpha >= 1:
		return usagef("-alpha %g: want a level in (0, 1), e.g. 0.05", alpha)
	case format != "text" && format != "md":
		return usagef("--format %q: want text or md", format)
	}
	r, err := reports.Read(args[0])
	if err != nil {
		return inputError{err}
	}
	na, err := reports.ResolveSummarizer(r, a)
	if err != nil {
		return usagef("--a %v", err)
	}
	nb, err := reports.ResolveSummarizer(r, b)
	if err != nil {
		return usagef("--b %v", err)
	}
	if na == nb {
		return usagef("--a and --b name the same summarizer %q", na)
	}
	h := reports.CompareSummarizers(r, na, nb, alpha)
	if h.NothingPaired() {
		return inputError{errors.New(h.Verdict())}
	}
	if format == "md" {
		return h.WriteMarkdown(env.Stdout)
	}
	return h.WriteText(env.Stdout)
}
