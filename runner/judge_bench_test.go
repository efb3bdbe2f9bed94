package runner

import (
	"context"
	"fmt"
	"github.com/compact-eval/compact-eval/result"
	"path/filepath"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
	"github.com/compact-eval/compact-eval/judges"
)

// BenchmarkJudge runs the built-in suite through the four built-in
// summarizers at -j 32 with an openai: judge behind an endpoint that takes
// 100 ms a reply: cold (no cache: one call per invariant per generation)
// and warm (every verdict from the cache: no call), against the same run
// without a judge. It reports the judge's calls per unit.
func BenchmarkJudge(b *testing.B) {
	list := builtinSuite(b)
	sums := builtins(b, nil)
	srv := llmtest.New(b)
	srv.Handler().Latency = 100 * time.Millisecond
	srv.SetDefault(llmtest.Simulated)
	warmCache := b.TempDir()
	newJudge := func(cache string, noCache bool) judges.Judge {
		llm.ForgetOutputModes()
		j, err := judges.NewOpenAI("sim", providers.OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: "sk-bench-Xq7f3LmN9pR2tVw8",
			CacheDir: cache, NoCache: noCache, Getenv: func(string) string { return "" }, Concurrency: 32,
			Limiter: llm.NewLimiter(llm.Limits{Concurrency: 32})})
		if err != nil {
			b.Fatal(err)
		}
		return j
	}
	// Fill the warm cache once.
	run := func(b *testing.B, j judges.Judge, dir string) {
		opts := Options{Summarizers: sums, Agent: agents.Reference{}, AgentName: "builtin:reference", Out: dir, Jobs: 32}
		if j != nil {
			opts.Judge, opts.JudgeName, opts.JudgeScope = j, "openai:sim", result.JudgeScopeAll
		}
		res, err := Run(context.Background(), list, opts)
		if err != nil {
			b.Fatal(err)
		}
		if res.Ran != len(list)*len(sums) {
			b.Fatalf("ran %d units", res.Ran)
		}
	}
	run(b, newJudge(warmCache, false), filepath.Join(b.TempDir(), "fill"))
	units := float64(len(list) * len(sums))
	for _, tc := range []struct {
		name  string
		judge func() judges.Judge
	}{
		{"none", func() judges.Judge { return nil }},
		{"cold", func() judges.Judge { return newJudge("", true) }},
		{"warm", func() judges.Judge { return newJudge(warmCache, false) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			dir := b.TempDir()
			before := srv.Count()
			i := 0
			for b.Loop() {
				i++
				run(b, tc.judge(), filepath.Join(dir, fmt.Sprint(i)))
			}
			b.ReportMetric(float64(srv.Count()-before)/float64(i)/units, "calls/unit")
			b.ReportMetric(float64(srv.Count()-before)/float64(i), "calls/op")
		})
	}
}
