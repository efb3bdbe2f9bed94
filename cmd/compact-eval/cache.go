package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/compact-eval/compact-eval/internal/llm"
)

func init() {
	register(&Command{
		Name:      "cache",
		UsageLine: "cache [-dir DIR] stats|clear",
		Short:     "show or clear the model response cache",
		Long: `Cache manages the on-disk cache of model responses used by openai:
summarizers and agents. Entries are content-addressed: the key covers the
endpoint, the model, every request parameter, the messages and the trial
index (never the API key), so a second run with unchanged inputs sends no
request. Only successful responses are stored. Disable it for a run with
--no-cache.

Every reply is stored byte for byte as the provider sent it (indented JSON,
CRLF, escaped unicode, a trailing newline), on every path: openai:,
anthropic:, openai-responses: and the judge.

stats prints the cache directory, the number of entries and their size. It
reads every entry, and reports each one that cannot be read (torn, damaged,
or written by an older version that reformatted the reply; a run that meets
one moves it aside and fetches the reply again) once: it removes it after
saying so. clear removes every entry (and only files the cache wrote).

The default directory is the user cache directory plus compact-eval
($XDG_CACHE_HOME/compact-eval or ~/.cache/compact-eval on Linux,
~/Library/Caches/compact-eval on macOS).

Beside the responses, tokens/o200k.v2.bin holds the o200k_base token
table, derived from the tokenizer on a machine's first run (about 0.1 s)
so that later runs start at once; it is rebuilt if missing or damaged, and
neither stats nor clear counts it.

	$ compact-eval cache stats
	$ compact-eval cache clear`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			dir := fs.String("dir", "", "cache directory (default: the user cache directory plus compact-eval)")
			return func(ctx context.Context, args []string) error {
				if len(args) != 1 {
					return usagef("cache wants one action: stats or clear")
				}
				if args[0] != "stats" && args[0] != "clear" {
					return usagef("unknown action %q (valid: stats, clear)", args[0])
				}
				d := *dir
				if d == "" {
					d = llm.DefaultCacheDir()
				}
				if args[0] == "stats" {
					st, err := llm.Inspect(d)
					if err != nil {
						return err
					}
					fmt.Fprintf(env.Stdout, "dir: %s\nentries: %d\nsize: %s\n", d, st.Entries, byteSize(st.Bytes))
					if len(st.Unreadable) > 0 {
						fmt.Fprintf(env.Stdout, "unreadable: %d, removed (their requests are sent again on the next run):\n", len(st.Unreadable))
						for _, u := range st.Unreadable {
							fmt.Fprintf(env.Stdout, "  %s\n", u)
						}
					}
					return nil
				}
				n, size, err := llm.Stats(d)
				if err != nil {
					return err
				}
				if err := llm.Clear(d); err != nil {
					return err
				}
				fmt.Fprintf(env.Stdout, "removed %d entries (%s) from %s\n", n, byteSize(size), d)
				return nil
			}
		},
	})
}

// byteSize renders a size in bytes, with a binary-unit figure when large.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%d B (%.1f %ciB)", n, float64(n)/float64(div), "KMGTPE"[exp])
}
