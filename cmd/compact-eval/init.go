package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
	"github.com/compact-eval/compact-eval/internal/version"
)

// workflowFile is where init writes the GitHub Actions workflow.
const workflowFile = ".github/workflows/compact-eval.yml"

func init() {
	register(&Command{
		Name:      "init",
		UsageLine: "init [--force] | init --claude-code [--settings FILE] [--block]",
		Short:     "write a commented compact-eval.yaml and a GitHub Actions workflow, or Claude Code's guard hooks",
		Long: `Init writes two files into the current folder, each commented for a first
reader:

	compact-eval.yaml                    the summarizer under test (named "ours":
	                                     replace its spec with yours) and a gate
	.github/workflows/compact-eval.yml   the CI job: on main it runs the gates
	                                     and publishes the baseline; on a pull
	                                     request it gates against main's baseline

The workflow's first run on main finds no baseline, passes and creates it;
the next run on a pull request fails (exit 1) on a regression against it,
and so does a pull request with no baseline to download
(--require-baseline).
It installs the compact-eval this binary was built from (its module version
or commit), so that a gate compares like with like.

Init writes nothing when either file exists, and says which; --force
overwrites them. When the folder has a scenarios/ folder, the config runs
its scenarios; otherwise the built-in suite.

	$ compact-eval init
	$ compact-eval validate && compact-eval run

Init --claude-code instead writes the hooks that run compact-eval guard in
Claude Code (docs/guard.md): PreCompact, which asks the compaction to keep
the project's invariants, and SessionStart after a compaction, which checks
the summary and restates what it lost into the context. They go into
.claude/settings.json (the project's settings, checked in; --settings
.claude/settings.local.json keeps them to you, ~/.claude/settings.json to
every project), merged into the file when it exists: its other keys and
hooks are kept, and hooks init wrote before are updated, never doubled.
--block makes a loss stop the session. It also writes
.compact-eval/invariants.yaml, commented, when there is none.

	$ compact-eval init --claude-code`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			force := fs.Bool("force", false, "overwrite compact-eval.yaml and the workflow when they exist")
			claude := fs.Bool("claude-code", false, "write Claude Code's guard hooks and .compact-eval/invariants.yaml instead")
			settings := fs.String("settings", claudeSettingsFile, "with --claude-code: the Claude Code settings `FILE` to merge the hooks into")
			block := fs.Bool("block", false, "with --claude-code: the hooks stop the session after a compaction that lost an invariant")
			return func(ctx context.Context, args []string) error {
				if len(args) > 0 {
					return usagef("init takes no arguments (it writes into the current folder)")
				}
				if *claude {
					if *force {
						return usagef("--force overwrites compact-eval.yaml and the workflow; --claude-code merges into the settings and needs no --force")
					}
					return runInitClaude(env, *settings, *block)
				}
				if *block || *settings != claudeSettingsFile {
					return usagef("--settings and --block go with --claude-code")
				}
				return runInit(env, *force)
			}
		},
	})
}

func runInit(env *Env, force bool) error {
	cfg := config.Template
	if st, err := os.Stat("scenarios"); err == nil && st.IsDir() {
		cfg = strings.Replace(cfg, config.TemplateScenariosOff, config.TemplateScenariosOn, 1)
	}
	files := []struct{ path, text string }{
		{config.DefaultFile, cfg},
		{workflowFile, workflowText(installVersion())},
	}
	if !force {
		var exist []string
		for _, f := range files {
			if _, err := os.Lstat(f.path); err == nil {
				exist = append(exist, f.path)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		if len(exist) > 0 {
			return usagef("%s already %s: nothing written (--force overwrites)", strings.Join(exist, " and "), map[bool]string{true: "exists", false: "exist"}[len(exist) == 1])
		}
	}
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "wrote %s\n", f.path)
	}
	fmt.Fprintf(env.Stdout, `
next:
  1. in %s, replace builtin:extractive with your summarizer (keep the name)
  2. compact-eval run       evaluates it here, offline for builtin and exec specs
  3. commit both files: the first run on main writes the baseline, and pull
     requests are gated against it
`, config.DefaultFile)
	return nil
}

// installVersion is what the workflow installs: this binary's module
// version (a tag or the pseudo-version of a commit), else the commit it
// was built from, else "main" (a devel build knows no commit).
func installVersion() string {
	v := version.Harness()
	if strings.HasPrefix(v, "v") {
		v, _, _ = strings.Cut(v, "+") // +dirty: the commit is the nearest
		return v
	}
	if rev, _ := version.Revision(); rev != "" {
		return rev
	}
	return "main"
}

// workflowText is the workflow init writes, installing compact-eval at ver.
func workflowText(ver string) string {
	pin := "  # The compact-eval to install, pinned so that a gate compares like with like:\n" +
		"  # move it on purpose, and expect the baseline to move with it.\n"
	if ver == "main" {
		pin = "  # The compact-eval to install. This one was written by a build that knows no\n" +
			"  # commit: replace main with the full hash of the commit you tested, so that a\n" +
			"  # gate compares like with like.\n"
	}
	return strings.Replace(workflowTemplate, "  COMPACT_EVAL_VERSION: VERSION\n", pin+"  COMPACT_EVAL_VERSION: "+ver+"\n", 1)
}

// workflowTemplate is the GitHub Actions workflow of init. Its compact-eval
// commands are what TestScripts/init_workflow runs, read from the file.
const workflowTemplate = `# compact-eval: evaluates the summarizers of compact-eval.yaml on every push
# to main and every pull request (written by compact-eval init).
#
# - On main, the run applies the gates of compact-eval.yaml; when they hold it
#   writes baseline/result.json and publishes it as the artifact
#   compact-eval-baseline. The first run on main finds no baseline and
#   creates it.
# - On a pull request, it downloads the baseline of main's last green run and
#   fails (exit 1) on a regression against it, as well as on the gates. A pull
#   request with no baseline to download (main has not run green yet, or the
#   artifact expired) fails at once: --require-baseline. Run the workflow on
#   main, then rerun the pull request's job.
#
# The step summary opens with the verdict and what is new against the
# baseline; failures are annotated on your scenario files.
name: compact-eval
on:
  push:
    branches: [main]
  pull_request:
env:
  COMPACT_EVAL_VERSION: VERSION
permissions:
  contents: read
  actions: read # to download main's baseline artifact
jobs:
  compact-eval:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: "1.26"
      - name: Install compact-eval
        run: go install github.com/compact-eval/compact-eval/cmd/compact-eval@${{ env.COMPACT_EVAL_VERSION }}
      - name: Response cache
        # a rerun with unchanged inputs sends no request to a model
        uses: actions/cache@v4
        with:
          path: ~/.cache/compact-eval
          key: compact-eval-${{ runner.os }}-${{ hashFiles('compact-eval.yaml', 'scenarios/**', 'prompts/**') }}
          restore-keys: compact-eval-${{ runner.os }}-
      - name: Baseline from main
        if: github.event_name == 'pull_request'
        env:
          GH_TOKEN: ${{ github.token }}
        run: |
          id=$(gh run list --workflow compact-eval.yml --branch main --event push --status success --limit 1 --json databaseId --jq '.[0].databaseId')
          if [ -n "$id" ]; then gh run download "$id" --name compact-eval-baseline --dir baseline; fi
      # A model summarizer needs its key: pass it from a secret to both
      # steps, by the name the summarizer reads, for example
      # env:
      #   OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}
      - name: Evaluate and gate against main's baseline
        if: github.event_name == 'pull_request'
        run: |
          compact-eval run --out out --baseline baseline/result.json --require-baseline
      - name: Evaluate, gate and move the baseline forward
        if: github.event_name == 'push'
        run: |
          compact-eval run --out out --baseline baseline/result.json --write-baseline baseline/result.json
      - name: Reports
        if: always()
        run: |
          compact-eval report out/result.json --format junit -o junit.xml
          compact-eval report out/result.json --format html -o report.html
      - name: Upload the reports
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: compact-eval-report
          path: |
            junit.xml
            report.html
            out/result.json
      - name: Publish the baseline
        if: github.ref == 'refs/heads/main' && success()
        uses: actions/upload-artifact@v4
        with:
          name: compact-eval-baseline
          path: baseline/result.json
          retention-days: 90
`
