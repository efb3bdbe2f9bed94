package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
	"github.com/compact-eval/compact-eval/scenarios"
)

// benchServerEnv, when set in the environment of this test binary, makes it
// the simulated endpoint of BenchmarkSuiteOpenAI instead of running tests:
// it serves llmtest.Simulated with the latency the variable holds (a
// time.Duration, "0s" for none), prints its base URL on standard output,
// and tells the number of requests so far at GET /count. The endpoint runs in its own process so that the benchmark's
// CPU time (getrusage of this process) and its -cpuprofile are the
// harness's alone, as they are for the real command against a real
// endpoint.
const benchServerEnv = "COMPACT_EVAL_BENCH_SIMSERVER"

func init() {
	lat, ok := os.LookupEnv(benchServerEnv)
	if !ok {
		return
	}
	os.Exit(serveSimulated(lat))
}

func serveSimulated(latency string) int {
	d, err := time.ParseDuration(latency)
	if err != nil {
		fmt.Fprintln(os.Stderr, "simulated endpoint:", err)
		return 2
	}
	h := llmtest.NewHandler()
	h.Latency = d
	h.Record = false
	h.SetDefault(llmtest.Simulated)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "simulated endpoint:", err)
		return 1
	}
	fmt.Printf("http://%s/v1\n", ln.Addr())
	// The parent closes our stdin when it is done with us.
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	count := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/count" {
			fmt.Fprint(w, h.Count())
			return
		}
		h.ServeHTTP(w, r)
	})
	if err := http.Serve(ln, count); err != nil {
		fmt.Fprintln(os.Stderr, "simulated endpoint:", err)
		return 1
	}
	return 0
}

// startSimulated starts the simulated endpoint in a child process (this
// test binary again) and returns its base URL; it stops when b ends.
func startSimulated(b *testing.B, latency time.Duration) string {
	b.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), benchServerEnv+"="+latency.String())
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("simulated endpoint did not start: %v", err)
	}
	return strings.TrimSpace(line)
}

// requests asks the simulated endpoint at base how many requests it had.
func requests(b *testing.B, base string) int {
	b.Helper()
	resp, err := http.Get(strings.TrimSuffix(base, "/v1") + "/count")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var n int
	if _, err := fmt.Fscan(resp.Body, &n); err != nil {
		b.Fatal(err)
	}
	return n
}

// cpuTime is the user plus system CPU time of this process so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSuiteOpenAI runs the real run command on the built-in suite × 4
// trials through an openai: summarizer (response cache off) against a
// simulated endpoint that answers at once, with -j 32 and the reference
// agent: every unit's harness work (prompt rendering, the request and its
// reply, the checks, both decision arms, the journal, the result) and
// nothing of the model's. It reports the harness CPU per unit (cpu-ms/unit,
// the issue-17 target is ≤ 0.7), wall time per unit and the requests a unit
// sends (one per generation); the endpoint's CPU is in another process. Profile a unit with
//
//	go test ./cmd/compact-eval -run '^$' -bench SuiteOpenAI -benchtime 3x \
//	    -cpuprofile cpu.out -memprofile mem.out
//	go tool pprof -top cpu.out
func BenchmarkSuiteOpenAI(b *testing.B) {
	const trials = 4
	list, err := scenarios.Builtin()
	if err != nil {
		b.Fatal(err)
	}
	units := len(list) * trials
	base := startSimulated(b, 0)
	b.Setenv("OPENAI_BASE_URL", base)
	b.Setenv("OPENAI_API_KEY", "sk-bench")
	b.Setenv("XDG_CACHE_HOME", b.TempDir())
	dir := b.TempDir()
	args := func(out string) []string {
		return []string{"run", "--summarizer", "openai:sim", "--trials", fmt.Sprint(trials), "-j", "32", "--no-cache", "--out", out}
	}
	// One run outside the timing: the suite's parse, the tokenizer's
	// tables and the client's connections are set up once per process.
	warm := func(out string) {
		llm.ForgetOutputModes() // as in a new process
		var stderr strings.Builder
		if code := run(context.Background(), args(out), newEnv(strings.NewReader(""), io.Discard, &stderr)); code != exitOK {
			b.Fatalf("run: exit %d\n%s", code, stderr.String())
		}
	}
	warm(filepath.Join(dir, "warm"))
	r0 := requests(b, base)
	b.ReportAllocs()
	var cpu time.Duration
	i := 0
	b.ResetTimer()
	for b.Loop() {
		i++
		c0 := cpuTime(b)
		warm(filepath.Join(dir, fmt.Sprint(i)))
		cpu += cpuTime(b) - c0
	}
	b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(i*units), "cpu-ms/unit")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(i*units), "wall-ms/unit")
	b.ReportMetric(float64(units), "units/op")
	b.ReportMetric(float64(requests(b, base)-r0)/float64(i*units), "requests/unit")
}
