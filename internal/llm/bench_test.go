package llm_test

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
)

func cpuTime(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchServer(b *testing.B, latency time.Duration) *llmtest.Server {
	b.Helper()
	srv := llmtest.New(b)
	h := srv.Handler()
	h.Latency = latency
	h.Record = false
	h.SetDefault(func(llmtest.Request) llmtest.Reply {
		return llmtest.Text(`{"schema_version":1,"covers_through":40,"text":"ok"}`)
	})
	return srv
}

func benchRequest(i int) *llm.Request {
	return &llm.Request{Trial: i, Chat: openai.ChatCompletionRequest{
		Model: "sim",
		Messages: []openai.ChatCompletionMessage{
			{Role: "system", Content: "Summarize the events into the summary document."},
			{Role: "user", Content: fmt.Sprintf("request %d: [#1 user] READ-ONLY. [#2 assistant call c1] dns_lookup({\"host\":\"db\"}) [#3 tool c1] db -> 10.0.3.7", i)},
		},
	}}
}

// BenchmarkChatCPU measures the CPU time per call with a zero-latency
// endpoint, client and in-process server together (an upper bound of the
// harness's own cost; scripts/bench-openai.sh measures the client alone).
func BenchmarkChatCPU(b *testing.B) {
	srv := benchServer(b, 0)
	c, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), NoCache: true, Limits: llm.Limits{Concurrency: 32}})
	if err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	next := 0
	b.SetParallelism(16)
	cpu0 := cpuTime(b)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			i := next
			next++
			mu.Unlock()
			if _, err := c.Chat(context.Background(), benchRequest(i)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N)/1e3, "cpu-µs/call")
}

// BenchmarkWall400 runs 400 calls against an endpoint with 100 ms latency
// at concurrency 32 and reports wall time over the ideal (400 × 0.1 s / 32
// = 1.25 s), and over the floor of ceil(400/32) rounds (1.30 s). Run it
// with -benchtime=1x.
func BenchmarkWall400(b *testing.B) {
	const calls, conc, latency = 400, 32, 100 * time.Millisecond
	srv := benchServer(b, latency)
	ideal := time.Duration(calls) * latency / conc
	// With every call taking exactly the latency, no client beats
	// ceil(calls/conc) rounds: 13 × 100 ms = 1.30 s, 1.04 × ideal.
	floor := time.Duration((calls+conc-1)/conc) * latency
	for n := range b.N {
		c, err := llm.New(llm.Config{BaseURL: srv.BaseURL(), NoCache: true, Limits: llm.Limits{Concurrency: conc}})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		var wg sync.WaitGroup
		for i := range calls {
			wg.Go(func() {
				if _, err := c.Chat(context.Background(), benchRequest(n*calls+i)); err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
		wall := time.Since(start)
		b.ReportMetric(wall.Seconds(), "wall-s")
		b.ReportMetric(wall.Seconds()/ideal.Seconds(), "x-ideal")
		b.ReportMetric(wall.Seconds()/floor.Seconds(), "x-floor")
	}
}
