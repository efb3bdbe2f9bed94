package runner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/runner"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

// Run a suite from Go, without the command: the built-in suite through the
// extractive baseline, answered by the reference agent.
func ExampleRun() {
	list, err := scenarios.Builtin()
	if err != nil {
		panic(err)
	}
	dir, _ := os.MkdirTemp("", "compact-eval-example")
	defer os.RemoveAll(dir)
	res, err := runner.Run(context.Background(), list[:3], runner.Options{
		Summarizers: []runner.Summarizer{{Name: "builtin:extractive", Summarizer: summarizers.NewExtractive()}},
		Agent:       agents.Reference{}, AgentName: "builtin:reference",
		Out: filepath.Join(dir, "run"),
	})
	if err != nil {
		panic(err)
	}
	r, err := reports.Read(res.ResultPath)
	if err != nil {
		panic(err)
	}
	for _, u := range r.Units[:1] {
		fmt.Println(u.Summarizer, u.Status, len(u.Generations) > 0, len(u.Probes) > 0)
	}
	fmt.Println(len(r.Units), "units")
	// Output:
	// builtin:extractive ok true true
	// 3 units
}
