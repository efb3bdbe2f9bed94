package providers

import (
	"fmt"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/internal/execproc"
	"github.com/compact-eval/compact-eval/internal/redact"
)

// ExecOptions are the options of one exec call: timeout, extra environment,
// the key variables passed on purpose, and working directory.
func (o Options) ExecOptions() execproc.Options {
	timeout := o.ExecTimeout
	if timeout <= 0 {
		timeout = DefaultExecTimeout
	}
	return execproc.Options{Timeout: timeout, Env: o.Env, PassEnv: o.PassEnv, Dir: o.Dir}
}

// CheckAgentReads refuses a summarizer whose compaction the agent cannot
// read: an opaque provider item (openai-responses:) goes only to an agent of
// the same kind. The error is one sentence, for `run` to print.
func CheckAgentReads(summarizer, agent Spec) error {
	if summarizer.Kind == KindResponses && agent.Kind != KindResponses {
		return fmt.Errorf("summarizer %s returns an opaque, encrypted compaction item that only the OpenAI Responses API can read, and agent %s cannot read it: use --agent openai-responses:MODEL", summarizer.Raw, agent.Raw)
	}
	return nil
}

// Spec kinds.
const (
	KindBuiltin = "builtin"
	KindExec    = "exec"
	KindOpenAI  = "openai"
	// KindRecorded is the summarizer spec "recorded" (no colon): the
	// compactions the agent really made, kept in the scenario
	// (recorded_compactions). It names no agent.
	KindRecorded = "recorded"
)

// Spec names a summarizer or an agent: builtin:NAME, exec:COMMAND ARGS…, or
// openai:MODEL (docs/formats.md §6), or a provider's own compaction:
// anthropic:MODEL, openai-responses:MODEL (docs/providers.md), or the
// summarizer recorded (the scenario's recorded compactions).
type Spec struct {
	Kind string
	// Name is the builtin's name or the model.
	Name string
	// Command is the exec command line split into words (shell-like quoting
	// with ' and " is honoured; no other shell syntax).
	Command []string
	// Raw is the spec as written; it is the summarizer's name in reports
	// unless a config file names it.
	Raw string
}

func (s Spec) String() string { return s.Raw }

// ParseSpec parses a spec string.
func ParseSpec(raw string) (Spec, error) {
	if strings.TrimSpace(raw) == KindRecorded {
		return Spec{Kind: KindRecorded, Name: KindRecorded, Raw: KindRecorded}, nil
	}
	kind, rest, ok := strings.Cut(raw, ":")
	if !ok || rest == "" {
		return Spec{}, fmt.Errorf("spec %q: want builtin:NAME, exec:COMMAND, openai:MODEL, anthropic:MODEL, openai-responses:MODEL or recorded", redact.CommandLine(raw))
	}
	s := Spec{Kind: kind, Raw: raw}
	switch kind {
	case KindBuiltin, KindOpenAI, KindAnthropic, KindResponses:
		s.Name = strings.TrimSpace(rest)
	case KindExec:
		words, err := SplitCommand(rest)
		if err != nil {
			return Spec{}, fmt.Errorf("spec %q: %w", redact.CommandLine(raw), err)
		}
		if len(words) == 0 {
			return Spec{}, fmt.Errorf("spec %q: empty command", redact.CommandLine(raw))
		}
		if err := CheckCommand(words); err != nil {
			return Spec{}, err
		}
		s.Command = words
		// The spec as written names the summarizer in every record: with
		// a word that looks like a key it is recorded redacted (the
		// command keeps the word, to run).
		s.Raw = redact.CommandLine(raw)
	default:
		return Spec{}, fmt.Errorf("spec %q: unknown kind %q (valid: builtin, exec, openai, anthropic, openai-responses)", redact.CommandLine(raw), kind)
	}
	return s, nil
}

// KeyInCommandError is a command line that holds the value of a key the
// harness knows. Its message names the variable, never the value.
type KeyInCommandError struct{ Var string }

func (e *KeyInCommandError) Error() string {
	return fmt.Sprintf("the command line holds the value of %s: pass the variable to the program with --exec-env %s (or pass_env: [%s] in compact-eval.yaml), never its value", e.Var, e.Var, e.Var)
}

// CheckCommand refuses a command line that holds the value of a key the
// harness knows (redact.Keys, as the finder reads it: with separators
// between its characters too): the program should get the variable
// (--exec-env, pass_env), not its value, which every record of the spec
// would otherwise carry. Words that look like keys (redact.LooksLikeKey)
// are registered as keys, so that whatever writes the spec hides them.
func CheckCommand(words []string) error {
	keys := redact.Keys()
	for i, w := range words {
		// the finder's rule: the value, or its characters with separators
		// or in an encoding, names the variable
		if leaks := keys.Find(w); len(leaks) > 0 {
			return &KeyInCommandError{Var: leaks[0].ID}
		}
		prev := ""
		if i > 0 {
			prev = words[i-1]
		}
		for _, v := range redact.KeysInArgument(prev, w) {
			redact.RegisterKey("command-line-key", v)
		}
	}
	return nil
}

// SplitCommand splits a command line into words, honouring single and double
// quotes and backslash escapes outside single quotes.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if escaped {
		return nil, fmt.Errorf("trailing backslash")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// DefaultExecTimeout bounds one exec call.
const DefaultExecTimeout = 120 * time.Second

// Options configure the summarizers and agents that New builds. The zero
// value is usable: defaults are noted on each field.
type Options struct {
	// ExecTimeout bounds one exec call; 0 means DefaultExecTimeout.
	ExecTimeout time.Duration
	// Env is extra environment for exec processes (KEY=VALUE), on top of the
	// harness's own environment.
	Env []string
	// PassEnv names key variables exec processes may inherit anyway (a
	// config's env:); every other variable holding an API key is left out
	// (see internal/execproc).
	PassEnv []string
	// Dir is the working directory of exec processes; "" means the current one.
	Dir string
	// OpenAI configures openai: specs, and the anthropic: and
	// openai-responses: ones (see provider.go for their endpoints and keys).
	OpenAI OpenAIOptions
}
