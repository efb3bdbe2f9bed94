// Command simserver is a simulated OpenAI-compatible chat-completions
// endpoint for benchmarks (scripts/bench-openai.sh): every request is
// answered after a fixed latency with a valid reply (a summary document for
// summarize prompts, the first option for decide prompts).
//
//	simserver -latency 100ms -addr-file addr.txt -first-file first.txt
//
// It writes its base URL (http://HOST:PORT/v1) to -addr-file once it
// listens, the Unix time in nanoseconds of the first request to
// -first-file, and the request count to stderr when it gets SIGINT or
// SIGTERM, with the number of TCP connections they came on.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
)

func main() {
	os.Exit(run())
}

func run() int {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	latency := flag.Duration("latency", 100*time.Millisecond, "delay before every reply")
	addrFile := flag.String("addr-file", "", "write the base URL here once listening")
	firstFile := flag.String("first-file", "", "write the Unix nanosecond time of the first request here")
	flag.Parse()

	h := llmtest.NewHandler()
	h.Latency = *latency
	h.Record = false
	h.SetDefault(llmtest.Simulated)
	if *firstFile != "" {
		h.OnRequest = func(n int) {
			if n == 1 {
				os.WriteFile(*firstFile, []byte(strconv.FormatInt(time.Now().UnixNano(), 10)+"\n"), 0o644)
			}
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "simserver:", err)
		return 1
	}
	base := "http://" + ln.Addr().String() + "/v1"
	if *addrFile != "" {
		if err := os.WriteFile(*addrFile, []byte(base+"\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "simserver:", err)
			return 1
		}
	}
	var conns, body atomic.Int64
	count := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body.Add(max(r.ContentLength, 0))
		h.ServeHTTP(w, r)
	})
	srv := &http.Server{Handler: count, ConnState: func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "simserver:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "simserver: %d requests on %d connections, %d request body bytes\n", h.Count(), conns.Load(), body.Load())
	return 0
}
