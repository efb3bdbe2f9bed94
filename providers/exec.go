package providers

import (
	"errors"
	"strings"

	"github.com/compact-eval/compact-eval/internal/execproc"
	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/result"
)

// ExecErrorCall is the provenance of a failed exec call: the spec, and the
// latency and stderr head an *execproc.Error carries.
func ExecErrorCall(spec string, err error) result.Call {
	c := result.Call{Spec: spec}
	var e *execproc.Error
	if errors.As(err, &e) {
		c.Latency, c.Stderr = e.Latency, e.Stderr
	}
	return c
}

// ExecSpec writes command back as an exec: spec, as every record of a
// call writes it: words quoted so that ParseSpec reads the same words, and
// the credentials of a command line hidden (redact.CommandLine: a URL's
// password, a key-named query value, a known key), so that a command
// without any parses back to itself.
func ExecSpec(command []string) string {
	words := make([]string, len(command))
	for i, w := range command {
		words[i] = quoteWord(w)
	}
	return redact.CommandLine(KindExec + ":" + strings.Join(words, " "))
}

func quoteWord(w string) string {
	if w != "" && !strings.ContainsAny(w, " \t\n'\"\\") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// Protocol is the exec protocol version (docs/formats.md §4).
const Protocol = 1
