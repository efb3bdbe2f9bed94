package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/internal/version"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/runner"
	"github.com/compact-eval/compact-eval/scenarios"

	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
	"github.com/compact-eval/compact-eval/reports"
)

func init() {
	register(&Command{
		Name:      "gate",
		UsageLine: "gate [--min-pass RATES] [--baseline FILE] [--require-baseline] [--baseline-map OLD=NEW] [--allow-empty] [--allow-unjudged] [--uncertain miss|skip|pass] [--fail-on-unjudged] [--accept-changed] [--write-baseline FILE] [--config FILE] RESULT",
		Short:     "apply the gates to a saved result, such as merged shards",
		Long: `Gate applies the gates of 'compact-eval run' to a result file that is
already written: typically the result 'compact-eval merge' joins from the
shards of a run split over several CI jobs. The gates and their rules are
run's: --min-pass, --baseline (with --baseline-map and --alpha), --uncertain
(how an outcome a check could not tell counts: miss, the default, skip or
pass), and gates:
in compact-eval.yaml (or --config FILE), flags winning. They fail closed: an
errored unit counts as failed, a gate with nothing to judge fails unless
--allow-empty, a summarizer without a counterpart in the baseline fails, and
so does a partial result (interrupted, or merged with a shard missing).
Against a baseline, outcomes judged there and skipped now ("no longer
judged"), or the reverse ("newly judged"), are counted apart and fail
nothing unless --fail-on-unjudged; but a summarizer left with no evidence
(none of its outcomes, or none of a kind, judged in both runs, or fewer
than half of those the baseline judged still judged, as when it became
builtin:none) fails unless --allow-unjudged. --require-baseline fails
(exit 1) when the --baseline file does not exist.

It prints the gate verdict first (PASS or FAIL), then one line per gate. With
GITHUB_ACTIONS=true it writes the step summary and annotations, as
run does. --write-baseline FILE copies RESULT to FILE when every gate holds,
as run does: when --baseline names the same FILE and it does not exist yet,
the gate creates it instead of failing (the first baseline of a sharded
suite).

	$ compact-eval merge -o all.json shard-*/result.json
	$ compact-eval gate --min-pass constraint=1 --baseline base/result.json all.json

Exit status: 0 every gate holds, 1 a gate failed, 2 bad usage or an
unreadable file, 3 nothing was evaluated (every unit errored).`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			var g gateFlags
			g.register(fs)
			writeBaseline := fs.String("write-baseline", "", "when every gate holds, copy RESULT to this `file`, the baseline of later runs (it may be the --baseline file itself)")
			cfg := fs.String("config", "", "config `file` whose gates: apply (default: ./"+config.DefaultFile+" when it exists)")
			return func(ctx context.Context, args []string) error {
				if len(args) != 1 {
					return usagef("gate takes one result file, got %d arguments", len(args))
				}
				file, err := loadConfig(*cfg)
				if err != nil {
					return err
				}
				settings, err := config.Merge(file, config.Flags{Agent: "builtin:reference", MinPass: g.minPass.Rates, Baseline: g.baseline, Uncertain: g.uncertain}, config.FlagsSet(fs))
				if err != nil {
					return usageError{err}
				}
				r, err := reports.Read(args[0])
				if err != nil {
					return inputError{err}
				}
				opts, notes, err := runGates(settings, &g, *writeBaseline, result.Summarizers(r))
				if err != nil {
					return err
				}
				if !opts.Asked() && len(notes) == 0 {
					return usagef("no gate asked for: give --min-pass or --baseline, or gates: in the config file")
				}
				// The plan the result records is checked against the
				// scenarios themselves, where they are at hand.
				var note string
				if opts.Plans, note = derivePlans(r); note != "" {
					notes = append(notes, note)
				}
				gr := applyGates(r, opts, notes)
				printGateVerdict(env, gr)
				for _, l := range gr.Lines {
					fmt.Fprintln(env.Stdout, "  "+l)
				}
				if env.Getenv("GITHUB_ACTIONS") == "true" {
					writeGitHub(env, r, gr)
				}
				if nothingEvaluated(r) {
					return errors.New("nothing was evaluated: every unit of the result errored")
				}
				if gr.Failed {
					if *writeBaseline != "" {
						fmt.Fprintf(env.Stderr, "baseline not written: a gate failed\n")
					}
					return errGate
				}
				if *writeBaseline != "" {
					if err := copyFile(args[0], *writeBaseline); err != nil {
						return fmt.Errorf("writing the baseline: %w", err)
					}
					fmt.Fprintf(env.Stdout, "baseline: %s\n", *writeBaseline)
				}
				return nil
			}
		},
	})
}

// nothingEvaluated reports whether r has units and every one of them
// failed to finish.
func nothingEvaluated(r *result.Result) bool {
	for _, u := range r.Units {
		if u.Status == result.UnitOK {
			return false
		}
	}
	return len(r.Units) > 0
}

// derivePlans derives the plan of each scenario of r from the scenario
// itself (runner.PlanOf), for the gate to check the recorded plans against
// and to stand in for a plan the result does not record: the built-in
// scenarios from the binary, the others from their files, read relative to
// the current folder as the run recorded them. A file that is not there,
// does not load, or whose meaning is no longer the run's is left out, as
// is everything when the result was written by another harness (whose
// timeline may cut otherwise). The note says what could not be derived.
func derivePlans(r *result.Result) (map[string]*result.Plan, string) {
	if r.Harness != version.Harness() {
		return nil, fmt.Sprintf("note plan: the result was written by compact-eval %s, this is %s: its plan is checked against its own units only, not derived from the scenarios", r.Harness, version.Harness())
	}
	plans := map[string]*result.Plan{}
	tried := map[string]bool{}
	missing := 0
	for _, u := range r.Units {
		ref := u.Scenario
		if tried[ref.Digest] {
			continue
		}
		tried[ref.Digest] = true
		var sc *scenarios.Scenario
		var err error
		if strings.HasPrefix(ref.File, scenarios.BuiltinPrefix) {
			sc, err = scenarios.LoadBuiltin(ref.File)
		} else {
			sc, err = scenarios.LoadFile(ref.File)
		}
		if err != nil || sc.Digest != ref.Digest {
			missing++
			continue
		}
		plans[ref.Digest] = runner.PlanOf(sc)
	}
	if missing > 0 {
		return plans, fmt.Sprintf("note plan: %d of %d scenarios are not here as the run read them (file absent, changed or unreadable): their plan is checked against the result alone", missing, len(tried))
	}
	return plans, ""
}
