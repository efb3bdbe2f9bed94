package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/providers"
)

// cmdGHActions is the script command "ghactions EVENT": it runs the one job
// of .github/workflows/compact-eval.yml as GitHub Actions would on EVENT
// (push, to main, or pull_request), step by step, and fails unless the job
// succeeds ("! ghactions EVENT": unless it fails). What each step runs is
// read from the file, never written again here:
//
//   - a run: line "compact-eval ARGS" runs the command (exit code kept);
//   - the install line (go install …/cmd/compact-eval@…) is the binary the
//     script already has;
//   - the lines that fetch main's baseline with gh download the artifact
//     compact-eval-baseline of the last push run that succeeded;
//   - actions/upload-artifact stores its files under the artifact's name,
//     for a later run; checkout, setup-go and cache do nothing here.
//
// Anything else (another command, another action) fails the script, so the
// workflow cannot do something the test does not. A step runs when its
// if: holds (success() by default); the expressions the workflow may use
// are always(), success(), failure(), and github.event_name or github.ref
// compared with == to a quoted string, joined by &&. Every step's command
// lines, output and exit code are appended to actions.log.
func cmdGHActions(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || args[0] != "push" && args[0] != "pull_request" {
		ts.Fatalf("usage: ghactions push|pull_request")
	}
	event := args[0]
	ref := "refs/heads/main"
	if event == "pull_request" {
		ref = "refs/pull/1/merge"
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Name string
				Uses string
				If   string
				Run  string
				With map[string]any
			}
		}
	}
	ts.Check(yaml.Unmarshal([]byte(ts.ReadFile(workflowFile)), &wf))
	if len(wf.Jobs) != 1 {
		ts.Fatalf("the workflow has %d jobs, want 1", len(wf.Jobs))
	}
	logPath := ts.MkAbs("actions.log")
	var log strings.Builder
	defer func() {
		f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		ts.Check(err)
		f.WriteString(log.String())
		f.Close()
	}()
	store := ts.MkAbs(".artifacts")
	failed := false
	for _, job := range wf.Jobs {
		for i, s := range job.Steps {
			name := s.Name
			if name == "" {
				name = fmt.Sprintf("step %d (%s)", i+1, s.Uses)
			}
			if !ghIf(ts, s.If, event, ref, failed) {
				fmt.Fprintf(&log, "== %s: skipped\n", name)
				continue
			}
			fmt.Fprintf(&log, "== %s\n", name)
			switch {
			case s.Run != "":
				if err := ghRun(ts, s.Run, event, store, &log); err != nil {
					fmt.Fprintf(&log, "%s: %v\n", name, err)
					failed = true
				}
			case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
				art := fmt.Sprint(s.With["name"])
				for _, p := range strings.Fields(fmt.Sprint(s.With["path"])) {
					if _, err := os.Stat(ts.MkAbs(p)); err != nil {
						fmt.Fprintf(&log, "upload %s: no %s\n", art, p)
						continue
					}
					dst := filepath.Join(store, event, art, p)
					ts.Check(os.MkdirAll(filepath.Dir(dst), 0o755))
					ts.Check(copyFile(ts.MkAbs(p), dst))
					fmt.Fprintf(&log, "uploaded %s: %s\n", art, p)
				}
			case strings.HasPrefix(s.Uses, "actions/checkout@"), strings.HasPrefix(s.Uses, "actions/setup-go@"), strings.HasPrefix(s.Uses, "actions/cache@"):
			default:
				ts.Fatalf("step %q: the test does not know what %q does", name, s.Uses)
			}
		}
	}
	switch {
	case failed && !neg:
		ts.Fatalf("the %s job failed:\n%s", event, log.String())
	case !failed && neg:
		ts.Fatalf("the %s job succeeded, want it to fail:\n%s", event, log.String())
	}
}

var ghCompare = regexp.MustCompile(`^github\.(event_name|ref) == '([^']*)'$`)

// ghIf evaluates a step's if: expression.
func ghIf(ts *testscript.TestScript, expr, event, ref string, failed bool) bool {
	ok, err := ghCond(expr, event, ref, failed)
	if err != nil {
		ts.Fatalf("%v", err)
	}
	return ok
}

// ghCond evaluates an if: expression as GitHub Actions does, for the
// expressions the workflows use: an expression without a status function
// (always(), success(), failure()) has success() implied.
func ghCond(expr, event, ref string, failed bool) (bool, error) {
	ok, status := true, false
	for _, term := range strings.Split(expr, "&&") {
		term = strings.TrimSpace(term)
		switch {
		case term == "":
		case term == "always()":
			status = true
		case term == "success()":
			ok, status = ok && !failed, true
		case term == "failure()":
			ok, status = ok && failed, true
		default:
			m := ghCompare.FindStringSubmatch(term)
			if m == nil {
				return false, fmt.Errorf("if: %q: the test cannot evaluate %q", expr, term)
			}
			got := event
			if m[1] == "ref" {
				got = ref
			}
			ok = ok && got == m[2]
		}
	}
	if !status {
		ok = ok && !failed
	}
	return ok, nil
}

// installLine is the workflow's install of compact-eval.
var installLine = regexp.MustCompile(`^go install github\.com/compact-eval/compact-eval/cmd/compact-eval@(\$\{\{ env\.COMPACT_EVAL_VERSION \}\}|[0-9a-f]{40}|v\S+)$`)

// ghRun runs a run: script line by line, as described at cmdGHActions; the
// first command that fails fails the step, as bash -e does.
func ghRun(ts *testscript.TestScript, script, event, store string, log *strings.Builder) error {
	lines := strings.Split(strings.TrimSpace(script), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		fmt.Fprintf(log, "$ %s\n", line)
		switch {
		case installLine.MatchString(line):
		case strings.HasPrefix(line, "id=$(gh run list ") && strings.Contains(line, "--branch main --event push --status success"):
			// the next line downloads that run's baseline, if any
			if i+1 >= len(lines) || !strings.Contains(lines[i+1], `gh run download "$id" --name compact-eval-baseline --dir baseline`) {
				ts.Fatalf("the workflow lists main's runs but does not download the baseline on the next line")
			}
			i++
			fmt.Fprintf(log, "$ %s\n", strings.TrimSpace(lines[i]))
			src := filepath.Join(store, "push", "compact-eval-baseline", "baseline", "result.json")
			if _, err := os.Stat(src); err != nil {
				fmt.Fprintf(log, "(main has no baseline yet)\n")
				continue
			}
			ts.Check(os.MkdirAll(ts.MkAbs("baseline"), 0o755))
			ts.Check(copyFile(src, ts.MkAbs("baseline/result.json")))
			fmt.Fprintf(log, "downloaded compact-eval-baseline to baseline/\n")
		case strings.HasPrefix(line, "compact-eval "):
			words, err := providers.SplitCommand(strings.TrimPrefix(line, "compact-eval "))
			ts.Check(err)
			err = ts.Exec("compact-eval", words...)
			log.WriteString(ts.ReadFile("stdout"))
			log.WriteString(ts.ReadFile("stderr"))
			if err != nil {
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					return fmt.Errorf("exit %d", ee.ExitCode())
				}
				return err
			}
		default:
			ts.Fatalf("the workflow runs %q, which the test does not know", line)
		}
	}
	return nil
}

// TestInitWorkflow: the workflow init writes has what every GitHub recipe
// of the README must have, and pins the version it is given.
func TestInitWorkflow(t *testing.T) {
	const rev = "8f2796b0909561da2c5bf378e5d0a9165f2cb2db"
	text := workflowText(rev)
	w := parseWorkflow(t, "init", text)
	if len(w.Jobs) != 1 {
		t.Fatalf("init's workflow has %d jobs", len(w.Jobs))
	}
	for _, j := range w.Jobs {
		checkWorkflowSteps(t, "init", j.Steps, true)
		var main, pr []string
		for _, event := range []string{"push", "pull_request"} {
			for _, args := range scriptCommands(t, eventSteps(t, j.Steps, event)) {
				if args[0] == "run" && event == "push" {
					main = args
				} else if args[0] == "run" {
					pr = args
				}
			}
		}
		requireBaseline(t, "init", main, pr)
	}
	if strings.Contains(text, "replace main") {
		t.Errorf("a pinned workflow still asks to replace main")
	}
	devel := workflowText("main")
	if !strings.Contains(devel, "COMPACT_EVAL_VERSION: main\n") || !strings.Contains(devel, "replace main with the full hash") {
		t.Errorf("a workflow written by a build that knows no commit must say to pin one:\n%s", devel)
	}
}
