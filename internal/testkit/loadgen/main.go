// Command loadgen drives openai: summarizer calls against an endpoint and
// reports wall time against the ideal and the harness CPU time per call
// (getrusage of this process: the client side only). It is the load half
// of scripts/bench-openai.sh.
//
//	loadgen -base http://127.0.0.1:PORT/v1 -n 400 -j 32 -latency 100ms
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
	"github.com/compact-eval/compact-eval/summarizers"
)

func main() { os.Exit(run()) }

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func run() int {
	base := flag.String("base", "", "endpoint base URL (required)")
	n := flag.Int("n", 400, "calls")
	j := flag.Int("j", 32, "concurrency")
	latency := flag.Duration("latency", 100*time.Millisecond, "the endpoint's latency, for the ideal")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the calls here")
	history := flag.Int("history", 3, "events in the history each call summarizes (3: a 6 KB request; 150: about the built-in suite's 21 KB)")
	flag.Parse()
	if *base == "" || *n < 1 || *j < 1 || *history < 3 {
		fmt.Fprintln(os.Stderr, "loadgen: want -base URL, -n ≥ 1, -j ≥ 1, -history ≥ 3")
		return 2
	}
	s, err := summarizers.NewOpenAI("sim", providers.OpenAIOptions{BaseURL: *base, APIKey: "sk-bench", NoCache: true, Concurrency: *j})
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		return 1
	}
	events := []scenarios.Event{
		{Seq: 1, Role: scenarios.RoleUser, Text: "This investigation is READ-ONLY. Do not change prod."},
		{Seq: 2, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: "c1", Name: "dns_lookup", Args: map[string]any{"host": "db"}}},
		{Seq: 3, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: "c1", Status: "ok", Text: "db -> 10.0.3.7"}},
	}
	// More history: pairs of a log read and its result, then a remark.
	for seq := 4; len(events) < *history; seq++ {
		switch seq % 3 {
		case 1:
			events = append(events, scenarios.Event{Seq: seq, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: fmt.Sprintf("c%d", seq), Name: "kubectl", Args: map[string]any{"cmd": "logs deploy/payments-api --since=5m"}}})
		case 2: // the result of the call just before
			events = append(events, scenarios.Event{Seq: seq, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: fmt.Sprintf("c%d", seq-1), Status: "ok",
				Text: "2026-11-29T22:41:12Z ERROR payments.db pool checkout failed after 3 attempts (10.42.7.19:5432 timed out)"}})
		default:
			events = append(events, scenarios.Event{Seq: seq, Role: scenarios.RoleAssistant, Text: "Still timeouts to the primary, not refusals; reading the next window."})
		}
	}
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			return 1
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	// The runner renders a history once for all the units that send it;
	// so does this.
	text := transcript.EventsText(events)
	var errs, retries atomic.Int64
	call := func(i int) {
		req := summarizers.NewRequest()
		req.ScenarioID, req.Generation, req.Cut, req.Trial = "bench", 1, events[len(events)-1].Seq, i
		req.Goal, req.Rules, req.Events = "Diagnose the db failure", "You are on call.", events
		req.SetEventsText(func() string { return text })
		resp, err := s.Summarize(context.Background(), req)
		if resp != nil {
			retries.Add(int64(resp.Call.Retries))
		}
		if err != nil && errs.Add(1) == 1 {
			fmt.Fprintln(os.Stderr, "loadgen: first error:", err)
		}
	}
	jobs := make(chan int, *n)
	for i := range *n {
		jobs <- i
	}
	close(jobs)
	cpu0 := cpu()
	start := time.Now()
	// Like the runner: -j workers take the calls one after another.
	var wg sync.WaitGroup
	for range *j {
		wg.Go(func() {
			for i := range jobs {
				call(i)
			}
		})
	}
	wg.Wait()
	wall := time.Since(start)
	used := cpu() - cpu0
	ideal := time.Duration(*n) * *latency / time.Duration(*j)
	slots := (*n + *j - 1) / *j
	fmt.Printf("calls=%d j=%d latency=%v wall=%.3fs ideal=%.3fs ratio=%.3f floor_ratio=%.3f cpu_total=%.1fms cpu_per_call=%.3fms retries=%d errors=%d\n",
		*n, *j, *latency, wall.Seconds(), ideal.Seconds(), wall.Seconds()/ideal.Seconds(),
		float64(slots)*(*latency).Seconds()/ideal.Seconds(), float64(used)/1e6, float64(used)/1e6/float64(*n), retries.Load(), errs.Load())
	if errs.Load() > 0 {
		return 1
	}
	return 0
}
