package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/reports"
)

// readmeCI returns the YAML blocks of the README's "CI recipes" section,
// by the name of the <!-- ci:NAME --> marker before each.
func readmeCI(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## CI recipes\n")
	if !ok {
		t.Fatal(`README has no "## CI recipes" section`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	blocks := map[string]string{}
	re := regexp.MustCompile("(?s)<!-- ci:([a-z0-9-]+) -->\n```yaml\n(.*?)\n```")
	for _, m := range re.FindAllStringSubmatch(sec, -1) {
		blocks[m[1]] = m[2]
	}
	for _, want := range []string{"github", "github-sharded", "k8s-shards", "k8s-gate"} {
		if blocks[want] == "" {
			t.Fatalf("README's CI recipes lack the %q block (<!-- ci:%s --> before a ```yaml block)", want, want)
		}
	}
	return blocks
}

// workflow is the part of a GitHub Actions workflow the test reads.
type workflow struct {
	On   map[string]any `yaml:"on"`
	Env  map[string]string
	Jobs map[string]struct {
		Needs    any `yaml:"needs"`
		If       string
		Strategy struct {
			Matrix map[string][]any
		}
		Steps []step
	}
}

type step struct {
	Name string
	Uses string
	If   string
	Run  string
	With map[string]any
	Env  map[string]string
}

func parseWorkflow(t *testing.T, name, text string) workflow {
	t.Helper()
	var w workflow
	dec := yaml.NewDecoder(strings.NewReader(text))
	dec.KnownFields(false)
	if err := dec.Decode(&w); err != nil {
		t.Fatalf("README %s workflow: %v", name, err)
	}
	if _, ok := w.On["pull_request"]; !ok {
		t.Errorf("%s workflow does not run on pull_request", name)
	}
	if len(w.Jobs) == 0 {
		t.Fatalf("%s workflow has no job", name)
	}
	if c := w.Env["COMPACT_EVAL_VERSION"]; !fullCommit.MatchString(c) {
		t.Errorf("%s workflow pins COMPACT_EVAL_VERSION to %q; want the full hash of a commit", name, c)
	} else if err := commitExists(c); err != nil {
		t.Errorf("%s workflow pins COMPACT_EVAL_VERSION to %s, which is no commit of this repository: %v", name, c, err)
	}
	return w
}

// fullCommit is a commit's full hash, what a workflow pins the install to.
var fullCommit = regexp.MustCompile(`^[0-9a-f]{40}$`)

// commitExists says whether the repository holding the test has commit c;
// nil when git or a full history is not at hand to tell.
func commitExists(c string) error {
	out, err := exec.Command("git", "rev-parse", "--is-shallow-repository").Output()
	if err != nil || strings.TrimSpace(string(out)) != "false" {
		return nil
	}
	if out, err := exec.Command("git", "cat-file", "-e", c+"^{commit}").CombinedOutput(); err != nil {
		return fmt.Errorf("%v %s", err, out)
	}
	return nil
}

// scriptLines returns the compact-eval command lines of a shell script, in
// order, split into words (the recipes quote nothing).
func scriptLines(script string) [][]string {
	var out [][]string
	for _, line := range strings.Split(script, "\n") {
		for _, part := range strings.Split(line, "&&") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(part), "compact-eval "); ok {
				if i := strings.Index(rest, " #"); i >= 0 {
					rest = rest[:i]
				}
				out = append(out, strings.Fields(rest))
			}
		}
	}
	return out
}

// ciRunner runs compact-eval command lines in-process in one folder, as a
// CI job would, with GITHUB_ACTIONS=true and a step summary file.
type ciRunner struct {
	t       *testing.T
	summary string
}

func (c *ciRunner) run(args []string, want ...int) string {
	c.t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		switch k {
		case "GITHUB_ACTIONS":
			return "true"
		case "GITHUB_STEP_SUMMARY":
			return c.summary
		}
		return ""
	}}
	code := run(context.Background(), args, env)
	if len(want) == 0 {
		want = []int{0}
	}
	for _, w := range want {
		if code == w {
			return out.String()
		}
	}
	c.t.Fatalf("compact-eval %s: exit %d, want %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, out.String(), errb.String())
	return ""
}

// eventSteps returns the steps a job runs on event (push to main, or
// pull_request), by their if: (no step failing before them).
func eventSteps(t *testing.T, steps []step, event string) []step {
	t.Helper()
	ref := "refs/heads/main"
	if event == "pull_request" {
		ref = "refs/pull/1/merge"
	}
	var out []step
	for _, s := range steps {
		ok, err := ghCond(s.If, event, ref, false)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			out = append(out, s)
		}
	}
	return out
}

// scriptCommands returns the compact-eval commands of steps, in order,
// and checks that every command of each parses with the real flags.
func scriptCommands(t *testing.T, steps []step) [][]string {
	t.Helper()
	var all [][]string
	for _, s := range steps {
		all = append(all, scriptLines(s.Run)...)
	}
	for _, args := range all {
		cmd := lookup(args[0])
		if cmd == nil {
			t.Fatalf("README runs an unknown command: compact-eval %s", strings.Join(args, " "))
		}
		fs := newFlagSet(cmd.Name)
		cmd.Flags(fs, &Env{Getenv: func(string) string { return "" }})
		if _, err := parseArgs(fs, args[1:]); err != nil {
			t.Errorf("README: compact-eval %s: %v", strings.Join(args, " "), err)
		}
	}
	return all
}

// checkWorkflowSteps checks what every GitHub recipe must have: the
// pinned install, the response cache, the reports uploaded (JUnit among
// them) and the baseline downloaded from main and published on main.
func checkWorkflowSteps(t *testing.T, name string, steps []step, cache bool) {
	t.Helper()
	var install, cached, junit, download, publish bool
	for _, s := range steps {
		switch {
		case strings.Contains(s.Run, "go install github.com/compact-eval/compact-eval/cmd/compact-eval@"):
			// no tag exists and @latest moves: a pinned commit
			install = strings.Contains(s.Run, "/cmd/compact-eval@${{ env.COMPACT_EVAL_VERSION }}")
		case strings.HasPrefix(s.Uses, "actions/cache@"):
			cached = fmt.Sprint(s.With["path"]) == "~/.cache/compact-eval" && strings.Contains(fmt.Sprint(s.With["key"]), "hashFiles(")
		case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
			path := fmt.Sprint(s.With["path"])
			if strings.Contains(path, "junit.xml") && strings.Contains(s.If, "always()") {
				junit = true
			}
			if s.With["name"] == "compact-eval-baseline" && path == "baseline/result.json" && strings.Contains(s.If, "refs/heads/main") {
				publish = true
			}
		case strings.Contains(s.Run, "gh run download") && strings.Contains(s.Run, "--branch main") &&
			strings.Contains(s.Run, "--name compact-eval-baseline --dir baseline") && s.Env["GH_TOKEN"] != "":
			download = true
		}
	}
	for what, ok := range map[string]bool{"a pinned go install": install, "the JUnit upload (if: always())": junit,
		"the baseline downloaded from main's last green run": download, "the baseline published on main": publish} {
		if !ok {
			t.Errorf("%s workflow lacks %s", name, what)
		}
	}
	if cache && !cached {
		t.Errorf("%s workflow lacks the response cache (actions/cache on ~/.cache/compact-eval, keyed on the inputs)", name)
	}
}

// TestReadmeCI parses the README's CI recipes (two GitHub Actions
// workflows and a Kubernetes Indexed Job) and runs the compact-eval
// commands they hold, in order, offline: on main (no baseline yet: the
// recipe creates it) and then on a pull request (gated against it). The
// sharded forms run each shard as its own command, merge and gate, and the
// merged aggregates must equal one whole run's.
func TestReadmeCI(t *testing.T) {
	blocks := readmeCI(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	// The user's config: the summarizer under test.
	config := []byte("summarizers:\n  - name: ours\n    spec: builtin:extractive\n")

	t.Run("github", func(t *testing.T) {
		w := parseWorkflow(t, "github", blocks["github"])
		if len(w.Jobs) != 1 {
			t.Fatalf("the one-job workflow has %d jobs", len(w.Jobs))
		}
		for _, j := range w.Jobs {
			checkWorkflowSteps(t, "github", j.Steps, true)
			cmds := scriptCommands(t, eventSteps(t, j.Steps, "push"))
			pr := scriptCommands(t, eventSteps(t, j.Steps, "pull_request"))
			if len(cmds) < 3 || cmds[0][0] != "run" || len(pr) < 3 || pr[0][0] != "run" {
				t.Fatalf("the workflow runs %v on main and %v on a pull request; want run, then the reports", cmds, pr)
			}
			requireBaseline(t, "github", cmds[0], pr[0])
			t.Chdir(t.TempDir())
			os.WriteFile("compact-eval.yaml", config, 0o644)
			c := &ciRunner{t: t, summary: filepath.Join(t.TempDir(), "summary.md")}
			// A pull request before main has a baseline: it fails, saying
			// so, and runs nothing.
			c.run(pr[0], 1)
			if _, err := os.Stat("out"); err == nil {
				t.Errorf("a pull request with no baseline ran")
			}
			// On main: no baseline yet, the run creates it.
			for _, args := range cmds {
				c.run(args)
			}
			for _, f := range []string{"baseline/result.json", "junit.xml", "report.html", c.summary} {
				if _, err := os.Stat(f); err != nil {
					t.Errorf("on main the workflow should have written %s: %v", f, err)
				}
			}
			// On a pull request: gated against main's baseline.
			os.RemoveAll("out")
			out := c.run(pr[0])
			if !strings.Contains(out, "ok   baseline: no regression") {
				t.Errorf("the pull request run did not gate against the baseline:\n%s", out)
			}
		}
	})

	t.Run("github-sharded", func(t *testing.T) {
		w := parseWorkflow(t, "github-sharded", blocks["github-sharded"])
		shard, gate := w.Jobs["shard"], w.Jobs["gate"]
		if fmt.Sprint(gate.Needs) != "shard" || !strings.Contains(gate.If, "always()") {
			t.Errorf("the gate job must need the shard job and run always (needs %v, if %q)", gate.Needs, gate.If)
		}
		matrix := shard.Strategy.Matrix["shard"]
		if len(matrix) < 2 {
			t.Fatalf("the shard job's matrix is %v; want shard: [1, …, n]", matrix)
		}
		checkWorkflowSteps(t, "github-sharded", gate.Steps, false)
		gateCmd := func(event string) []string {
			for _, args := range scriptCommands(t, eventSteps(t, gate.Steps, event)) {
				if args[0] == "gate" {
					return args
				}
			}
			t.Fatalf("the gate job runs no gate on %s", event)
			return nil
		}
		requireBaseline(t, "github-sharded", gateCmd("push"), gateCmd("pull_request"))
		t.Chdir(t.TempDir())
		os.WriteFile("compact-eval.yaml", config, 0o644)
		c := &ciRunner{t: t, summary: filepath.Join(t.TempDir(), "summary.md")}
		for _, v := range matrix {
			i := fmt.Sprint(v)
			for _, s := range shard.Steps {
				s.Run = strings.ReplaceAll(s.Run, "${{ matrix.shard }}", i)
				for _, args := range scriptCommands(t, []step{s}) {
					if want := fmt.Sprintf("%s/%d", i, len(matrix)); !strings.Contains(strings.Join(args, " "), "--shard "+want) {
						t.Errorf("shard %s runs %v, want --shard %s", i, args, want)
					}
					c.run(args)
				}
			}
			// download-artifact with a pattern puts each artifact in
			// PATH/NAME/.
			os.MkdirAll(filepath.Join("shards", "shard-"+i), 0o755)
			copyFile(filepath.Join("shard-"+i, "result.json"), filepath.Join("shards", "shard-"+i, "result.json"))
		}
		cmds := scriptCommands(t, eventSteps(t, gate.Steps, "push"))
		for _, args := range cmds {
			c.run(args)
		}
		if _, err := os.Stat("baseline/result.json"); err != nil {
			t.Errorf("on main the gate job should have created the baseline: %v", err)
		}
		c.run([]string{"run", "--out", "whole"})
		sameAggregates(t, "whole/result.json", "all.json")
		if out := c.run(gateCmd("pull_request")); !strings.Contains(out, "ok   baseline: no regression") {
			t.Errorf("the pull request gate did not gate against the baseline:\n%s", out)
		}
		os.Rename("baseline", "baseline.kept")
		c.run(gateCmd("pull_request"), 1)
	})

	t.Run("k8s", func(t *testing.T) {
		var job struct {
			Spec struct {
				CompletionMode string `yaml:"completionMode"`
				Completions    int
				Template       struct {
					Spec struct {
						Containers []struct {
							Command []string
							Args    []string
						}
					}
				}
			}
		}
		if err := yaml.Unmarshal([]byte(blocks["k8s-shards"]), &job); err != nil {
			t.Fatal(err)
		}
		if job.Spec.CompletionMode != "Indexed" || job.Spec.Completions < 2 {
			t.Fatalf("the shard Job is %q with %d completions; want an Indexed Job", job.Spec.CompletionMode, job.Spec.Completions)
		}
		var gateJob = job
		if err := yaml.Unmarshal([]byte(blocks["k8s-gate"]), &gateJob); err != nil {
			t.Fatal(err)
		}
		results := t.TempDir()
		t.Chdir(t.TempDir())
		os.WriteFile("compact-eval.yaml", config, 0o644)
		c := &ciRunner{t: t, summary: filepath.Join(t.TempDir(), "summary.md")}
		script := strings.Join(job.Spec.Template.Spec.Containers[0].Args, "\n")
		if !strings.Contains(script, "$((JOB_COMPLETION_INDEX + 1))/"+fmt.Sprint(job.Spec.Completions)) {
			t.Fatalf("the pods must run --shard $((JOB_COMPLETION_INDEX + 1))/%d: %s", job.Spec.Completions, script)
		}
		for idx := range job.Spec.Completions {
			s := strings.ReplaceAll(script, "$((JOB_COMPLETION_INDEX + 1))", fmt.Sprint(idx+1))
			s = strings.ReplaceAll(s, "/results", results)
			for _, args := range scriptLines(s) {
				c.run(args)
			}
		}
		s := strings.ReplaceAll(strings.Join(gateJob.Spec.Template.Spec.Containers[0].Args, "\n"), "/results", results)
		cmds := scriptLines(s)
		if len(cmds) != 2 || cmds[0][0] != "merge" || cmds[1][0] != "gate" {
			t.Fatalf("the gate Job runs %v; want merge, then gate", cmds)
		}
		for _, args := range cmds {
			c.run(args)
		}
		c.run([]string{"run", "--out", "whole"})
		sameAggregates(t, "whole/result.json", filepath.Join(results, "all.json"))
		if out := c.run(cmds[1]); !strings.Contains(out, "ok   baseline: no regression") {
			t.Errorf("the second gate did not gate against the baseline:\n%s", out)
		}
	})
}

// requireBaseline checks the baseline flags of a workflow's gating command:
// on main it creates or moves the baseline (--write-baseline naming the
// --baseline file), on a pull request it requires it (--require-baseline),
// so that a pull request is never gated on the other gates alone.
func requireBaseline(t *testing.T, name string, main, pr []string) {
	t.Helper()
	m, p := strings.Join(main, " "), strings.Join(pr, " ")
	if !strings.Contains(m, "--baseline baseline/result.json") || !strings.Contains(m, "--write-baseline baseline/result.json") || strings.Contains(m, "--require-baseline") {
		t.Errorf("%s workflow on main runs %q; want --baseline and --write-baseline of baseline/result.json", name, m)
	}
	if !strings.Contains(p, "--baseline baseline/result.json") || !strings.Contains(p, "--require-baseline") || strings.Contains(p, "--write-baseline") {
		t.Errorf("%s workflow on a pull request runs %q; want --baseline baseline/result.json --require-baseline", name, p)
	}
}

func sameAggregates(t *testing.T, a, b string) {
	t.Helper()
	ra, err := reports.Read(a)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := reports.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ra.Aggregates) != fmt.Sprint(rb.Aggregates) || len(ra.Units) != len(rb.Units) {
		t.Errorf("merged shards differ from one whole run:\n%v\n%v", ra.Aggregates, rb.Aggregates)
	}
}
