// Command ce-gen writes synthetic scenario files for benchmarks:
//
//	$ go run ./runner/internal/gen/cmd/ce-gen -n 1000 -events 500 -out /tmp/gen
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/compact-eval/compact-eval/runner/internal/gen"
)

func main() {
	n := flag.Int("n", 100, "scenarios to write")
	events := flag.Int("events", 500, "events per scenario")
	out := flag.String("out", "", "folder to write into (created)")
	flag.Parse()
	if err := run(*n, *events, *out); err != nil {
		fmt.Fprintln(os.Stderr, "ce-gen:", err)
		os.Exit(2)
	}
}

func run(n, events int, out string) error {
	if out == "" {
		return fmt.Errorf("-out is required")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for i := 1; i <= n; i++ {
		f, err := os.Create(filepath.Join(out, fmt.Sprintf("gen-%05d.yaml", i)))
		if err != nil {
			return err
		}
		if err := gen.Write(f, i, gen.Options{Events: events}); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
