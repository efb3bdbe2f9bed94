package main

import (
	"errors"
	"flag"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/internal/didyoumean"
)

// suggestCommand is " (did you mean "run"?)" for a mistyped command name,
// or "". Extra names (help's topics) are candidates too.
func suggestCommand(name string, extra ...string) string {
	names := append([]string{"help"}, extra...)
	for _, c := range commands {
		names = append(names, c.Name)
	}
	return didyoumean.Suffix(strings.TrimLeft(name, "-"), names, strconv.Quote)
}

// undefinedFlag is how the flag package words an unknown flag.
const undefinedFlag = "flag provided but not defined: -"

// suggestFlag adds the nearest flag of fs to the flag package's error for
// an unknown flag ("flag provided but not defined: -trails (did you mean
// --trials?)"); other errors come back as they are.
func suggestFlag(fs *flag.FlagSet, err error) error {
	name, ok := strings.CutPrefix(err.Error(), undefinedFlag)
	if !ok {
		return err
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	s := didyoumean.Suffix(name, names, func(n string) string {
		if len(n) == 1 {
			return "-" + n
		}
		return "--" + n
	})
	if s == "" {
		return err
	}
	return errors.New(err.Error() + s)
}
