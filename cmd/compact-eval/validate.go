package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/scenarios"
)

func init() {
	register(&Command{
		Name:      "validate",
		UsageLine: "validate [-q] [--strict] [--show] [paths…]",
		Short:     "check scenario files",
		Long: `Validate loads scenario files or folders (searched recursively for *.yaml
and *.yml, leaving out compact-eval.yaml and hidden files and folders such
as .github/; default: the suite built into the binary), lints them, and checks
that the reference agent picks each probe's expect on the full context.

Every problem is printed to stderr as file:line:col: message, then a verdict.
The exit code is 0 when every scenario is valid and 2 otherwise.

Warnings (file:line:col: warning: message) mark a valid scenario that is
weak: a TODO(author) placeholder left by import, or evidence that the agent
reads whatever the summary keeps (in the goal, the rules, or after the last
cut), so a probe can never regress. They do not change the exit code unless
--strict is given, which counts them as problems.

--show prints, for each valid scenario, its expanded timeline: every event
with its seq, role, tool call id (c1 → on the call, → c1 on its result),
token count and a [filler] mark, the cuts where a run places them, and the
anchors of every invariant and probe (the seqs that hold their evidence, ◂
in the timeline and listed after it). Use it to find the seqs an invariant
cites and to see which evidence lies before the last cut. Explicit cuts and
the first token-triggered cut do not depend on the summarizer; later
token-triggered cuts are placed with builtin:extractive.

	$ compact-eval validate
	$ compact-eval validate ./my-scenarios
	$ compact-eval validate --show my-scenarios/readonly.yaml`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			quiet := fs.Bool("q", false, "print only problems, no verdict when all is well")
			strict := fs.Bool("strict", false, "count warnings as problems (exit 2)")
			show := fs.Bool("show", false, "print each scenario's expanded timeline with its cuts and anchors")
			return func(ctx context.Context, args []string) error {
				return runValidate(ctx, env, args, *quiet, *strict, *show)
			}
		},
	})
}

func validateCount(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// runValidate is the validate command on args (none: the built-in suite).
func runValidate(ctx context.Context, env *Env, args []string, quiet, strict, show bool) error {
	var list []*scenarios.Scenario
	var err error
	if len(args) == 0 {
		list, err = scenarios.Builtin()
	} else {
		list, err = scenarios.LoadPaths(args)
	}
	var problems scenarios.ErrorList
	if err != nil {
		var el scenarios.ErrorList
		if !errors.As(err, &el) {
			return err
		}
		problems = append(problems, el...)
	}
	problems = append(problems, scenarios.Lint(list)...)
	for _, s := range list {
		problems = append(problems, agents.CheckProbes(s)...)
	}
	if show {
		for i, s := range list {
			if i > 0 {
				fmt.Fprintln(env.Stdout)
			}
			if err := showScenario(ctx, env.Stdout, s, ""); err != nil {
				return err
			}
		}
		if len(list) > 0 {
			fmt.Fprintln(env.Stdout)
		}
	}
	warnings := scenarios.Warnings(list)
	all := append(append(scenarios.ErrorList(nil), problems...), warnings...)
	all.Sort()
	for _, p := range all {
		fmt.Fprintln(env.Stderr, problem(p))
	}
	if len(warnings) > 0 && len(problems) == 0 {
		where := strings.Join(args, " ")
		if where == "" {
			where = "(the built-in suite)"
		}
		fmt.Fprintf(env.Stderr, "validate: %s\n", selftestHint(where))
	}
	if strict {
		problems = all
	}
	if len(problems) > 0 {
		files := map[string]bool{}
		for _, p := range problems {
			files[p.File] = true
		}
		return inputError{fmt.Errorf("%s in %s", validateCount(len(problems), "problem"), validateCount(len(files), "file"))}
	}
	if !quiet {
		msg := validateCount(len(list), "scenario") + " OK"
		if len(warnings) > 0 {
			msg += fmt.Sprintf(", %s (--strict fails on them)", validateCount(len(warnings), "warning"))
		}
		fmt.Fprintln(env.Stdout, msg)
	}
	return nil
}
