package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/compact-eval/compact-eval/internal/version"
)

func init() {
	register(&Command{
		Name:      "version",
		UsageLine: "version",
		Short:     "print the version and the contract versions",
		Long:      "Version prints compact-eval's version and the versions of the formats it reads and writes.",
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			return func(ctx context.Context, args []string) error {
				if len(args) > 0 {
					return usagef("version takes no arguments")
				}
				fmt.Fprintf(env.Stdout, "compact-eval %s (scenario v%d, summary v%d.%d, protocol v%d, result v%d)\n",
					version.Harness(), version.Scenario, version.Summary, version.SummaryMinor, version.Protocol, version.Result)
				return nil
			}
		},
	})
}
