package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/compact-eval/compact-eval/viewer"
)

func init() {
	register(&Command{
		Name:      "view",
		UsageLine: "view [--addr 127.0.0.1:7878] [DIR…]",
		Short:     "browse every run: runs, trends across commits, diffs, reports (local web server)",
		Long: `View serves the run folders under each DIR (default compact-eval-out/, where
run writes them; a DIR may also be one run folder) as a local web site, until
interrupted:

  Runs    every run, newest first: its time, git commit and branch (when run
          recorded them), suite digest, summarizers with invariants kept,
          regressions and verdict; a filter box; runs written while the viewer
          is open appear without a restart.
  Trends  one figure (invariants kept, structural passed, or any check type)
          per summarizer across runs, in time or commit order, with 95%
          intervals and n per point; click a point to open its run.
  Diff    two runs paired as 'compact-eval compare BASE NEW' pairs them, or two
          summarizers of one run as 'compare --a A --b B': the same counts.
  Run     the run's HTML report (report --format html), and its CSV.

It only reads: nothing is written into a run folder. A folder it cannot read
(a result that does not decode, a run still being written with a journal and
no result yet) is listed with the reason. It listens on 127.0.0.1 only,
unless --addr names another address: anyone who can reach that address can
read every run, so bind another interface only on a network you trust.

	$ compact-eval view
	$ compact-eval view --addr 127.0.0.1:9000 ci-artifacts/ nightly/`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			addr := fs.String("addr", "127.0.0.1:7878", "listen on `host:port` (port 0 picks a free one)")
			return func(ctx context.Context, args []string) error {
				if len(args) == 0 {
					args = []string{"compact-eval-out"}
				}
				for _, d := range args {
					if st, err := os.Stat(d); err != nil {
						return inputError{fmt.Errorf("%s: %w (compact-eval run writes run folders under compact-eval-out/)", d, errors.Unwrap(err))}
					} else if !st.IsDir() {
						return inputError{fmt.Errorf("%s is not a folder: view takes folders of run folders", d)}
					}
				}
				return serveView(ctx, env, *addr, args)
			}
		},
	})
}

// serveView serves the viewer on addr until ctx is canceled.
func serveView(ctx context.Context, env *Env, addr string, dirs []string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usagef("--addr %s: %v", addr, err)
	}
	site := viewer.New(dirs)
	srv := &http.Server{Handler: site, ReadHeaderTimeout: 10 * time.Second}
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(env.Stderr, "warning: listening on %s, not on loopback: anyone who can reach it can read every run\n", ln.Addr())
	}
	fmt.Fprintf(env.Stdout, "serving %d runs at http://%s/ (interrupt to stop)\n", len(site.Store().Runs()), ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	return nil
}
