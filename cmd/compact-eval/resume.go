package main

import (
	"flag"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/runner"
)

// notRecorded are the flags of run that are not the run's own: where it is
// written and how it is watched. They are neither recorded in run.json nor
// read back by --resume.
var notRecorded = []string{"out", "resume", "repair", "dry-run", "progress"}

// recordedFlags lists the flags set on the command line of a run as
// NAME=VALUE, a repeatable flag once per value, in the order of
// flag.FlagSet.Visit (sorted by name), those of notRecorded aside: what a
// bare --resume DIR reads back from the run's run.json
// (result.RunConfig.Flags). Each value is hidden as a recorded command
// line is (redact.CommandLine: a URL's password, a key-named query value,
// every key the harness knows), since run.json and result.json are
// shared; resumeFlags refuses a value recorded redacted.
func recordedFlags(fs *flag.FlagSet) []string {
	var out []string
	fs.Visit(func(fl *flag.Flag) {
		if slices.Contains(notRecorded, fl.Name) {
			return
		}
		if vs, ok := fl.Value.(*stringsFlag); ok {
			for _, v := range *vs {
				out = append(out, fl.Name+"="+redact.CommandLine(v))
			}
			return
		}
		out = append(out, fl.Name+"="+redact.CommandLine(fl.Value.String()))
	})
	return out
}

// resumeFlags sets on fs the flags the run in dir was started with (its
// run.json), but those given on this command line, which win: after a
// kill -9 no resume command was printed, and a bare --resume DIR must
// finish the run it names, not a run of the defaults. A run.json written
// before flags were recorded sets none. A flag recorded with a redacted
// value (it held a key) cannot be read back: the error says to give it.
func resumeFlags(fs *flag.FlagSet, dir string) error {
	cfg := runner.RecordedConfig(dir)
	if cfg == nil {
		return nil // the runner says why it cannot resume
	}
	given := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	for _, nv := range cfg.Flags {
		name, value, ok := strings.Cut(nv, "=")
		if !ok || given[name] || slices.Contains(notRecorded, name) {
			continue
		}
		if fs.Lookup(name) == nil {
			return usagef("resuming %s: its run.json records --%s, which this compact-eval does not know: give the run's flags again", shown(dir), shown(name))
		}
		if strings.Contains(value, "[redacted:") {
			return usagef("resuming %s: the run's --%s was recorded redacted (it held a key): give it again on the command line", shown(dir), shown(name))
		}
		if err := fs.Set(name, value); err != nil {
			return usagef("resuming %s: the run's --%s: %v", shown(dir), shown(name), err)
		}
	}
	return nil
}

// resumeCommand is the command line that finishes this run: the flags that
// were set, except those of notRecorded, then --resume OUT and the paths.
func resumeCommand(fs *flag.FlagSet, out string, args []string) string {
	words := []string{"compact-eval", "run"}
	for _, nv := range recordedFlags(fs) {
		name, value, _ := strings.Cut(nv, "=")
		fl := fs.Lookup(name)
		switch b, ok := fl.Value.(interface{ IsBoolFlag() bool }); {
		case ok && b.IsBoolFlag():
			// "--flag true" would make "true" a path: bools take "=".
			words = append(words, "--"+name+"="+value)
		case len(name) == 1:
			words = append(words, "-"+name, shellQuote(value))
		default:
			words = append(words, "--"+name, shellQuote(value))
		}
	}
	words = append(words, "--resume", shellQuote(out))
	if slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-") }) {
		words = append(words, "--")
	}
	for _, a := range args {
		words = append(words, shellQuote(a))
	}
	return strings.Join(words, " ")
}
