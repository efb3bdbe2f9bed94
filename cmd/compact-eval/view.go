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

	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/viewer"
)

func init() {
	register(&Command{
		Name:      "view",
		UsageLine: "view [--addr 127.0.0.1:7878] [--public] [--config FILE] [DIR…]",
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
          summarizers of one run as 'compare --a A --b B': the same counts,
          the rows where something changed (the others a click away), and
          the scenario × summarizer grid of both runs side by side.
  Run     the run's leaderboard and its scenario × summarizer grid, a page
          of scenarios at a time: each cell the unit's verdict (trials
          aggregated, with their spread), a mark and a colour, linked to the
          unit; filters for the scenarios that failed or where the
          summarizers differ; the HTML report (report --format html), the
          outcomes CSV (csv) and the per-unit CSV (units-csv).
  Unit    each generation's summary beside the events it replaced, each
          check's evidence marked in both; the unit's figures and decisions.

It only reads: nothing is written into a run folder. A folder it cannot read
(a result that does not decode, a run still being written with a journal and
no result yet) is listed with the reason, and a file of a run folder that
is a symlink leading out of the folder is not followed. It listens on
127.0.0.1 only, and answers only requests addressed to it (a Host of
127.0.0.1, localhost, [::1] or the --addr host, with its port; any other
gets 421), so that a web page on a rebinding domain cannot read the runs
through your browser. An address that is not loopback (0.0.0.0, a LAN
address, ":7878" for every interface) needs --public: anyone who can reach
it can read every run, so bind one only on a network you trust.
--config (default ./compact-eval.yaml when it exists) gives the calls their
prices: for the cost of each unit.

	$ compact-eval view
	$ compact-eval view --addr 127.0.0.1:9000 ci-artifacts/ nightly/
	$ compact-eval view --addr 0.0.0.0:7878 --public`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			addr := fs.String("addr", "127.0.0.1:7878", "listen on `host:port` (port 0 picks a free one)")
			public := fs.Bool("public", false, "allow an --addr that is not loopback (anyone who can reach it reads every run)")
			cfg := fs.String("config", "", "config `file` whose prices: price the units' calls (default: ./"+config.DefaultFile+" when it exists)")
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
				file, err := loadConfig(*cfg)
				if err != nil {
					return err
				}
				return serveView(ctx, env, *addr, *public, args, reportPrices(file))
			}
		},
	})
}

// serveView serves the viewer on addr until ctx is canceled; an address
// that is not loopback only when public is set.
func serveView(ctx context.Context, env *Env, addr string, public bool, dirs []string, prices reports.Prices) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("--addr %s: %v", addr, err)
	}
	ln, err := net.Listen(listenNetwork(host), addr)
	if err != nil {
		return usagef("--addr %s: %v", addr, err)
	}
	bound, _, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(bound); ip == nil || !ip.IsLoopback() {
		if !public {
			ln.Close()
			return usagef("--addr %s listens on %s, which is not a loopback address: anyone who can reach it could read every run; pass --public to serve it all the same", addr, ln.Addr())
		}
		fmt.Fprintf(env.Stderr, "warning: --public: listening on %s, not on loopback: anyone who can reach it can read every run\n", ln.Addr())
	}
	site := viewer.New(dirs)
	site.SetPrices(prices)
	srv := &http.Server{Handler: viewer.OwnHost(site, ln.Addr(), host), ReadHeaderTimeout: 10 * time.Second}
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

// listenNetwork is the network an --addr host is listened on: an IPv4
// address on IPv4 only (net.Listen("tcp", "0.0.0.0:…") would bind [::],
// every IPv6 address too), an IPv6 address on IPv6, a name or no host on
// both.
func listenNetwork(host string) string {
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		return "tcp"
	case ip.To4() != nil:
		return "tcp4"
	}
	return "tcp6"
}
