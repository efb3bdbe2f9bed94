// Package execproc runs one JSON-in/JSON-out process: the exec protocol of
// docs/formats.md §4 that exec summarizers and exec agents speak.
//
// Run starts the command once, writes the request to its stdin, and reads one
// JSON document from its stdout. The process runs in a process group of its
// own (on Unix); a timeout, a cancelled context or output above the cap kills
// the whole group (the command and anything it spawned). Every failure is an *Error
// with a short reason ("exit status 3", "timed out after 2s", ...) and the
// first 4 KiB of the process's stderr, so a runner can turn it into an
// `error` result for the unit without guessing.
//
// # Keys stay with the harness
//
// The command inherits the harness's environment without the variables that
// hold API keys (redact.KeyVars: OPENAI_API_KEY, ANTHROPIC_API_KEY, every
// registered api_key_env) and without any variable whose value holds a known
// key, unless Options.PassEnv names it. Its stderr, and every reason an
// *Error gives, are scrubbed of known key values before they are returned.
//
// # No orphans
//
// On Linux the command gets SIGKILL when the harness dies (a parent-death
// signal), every process of a call carries ExecIDEnv in its environment, and
// the harness is a child subreaper: when a call ends, descendants that left
// the process group (setsid, a double fork) are found among the orphans the
// harness adopted, killed and reaped. A watchdog process (the harness's own
// binary, run again on the first call, in a process group of its own) waits
// for the harness to die and then kills every process of the run, so even a
// harness killed with SIGKILL leaves nothing running. Elsewhere on Unix only
// the process group is killed (a setsid descendant escapes, and nothing
// happens when the harness is killed with SIGKILL); on other systems only the
// command itself.
package execproc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/internal/redact"
)

// Limits and defaults of one call.
const (
	// DefaultTimeout bounds one call when Options.Timeout is zero.
	DefaultTimeout = 120 * time.Second
	// DefaultMaxOutput is the stdout cap when Options.MaxOutput is zero:
	// output above it is an error and the process is killed.
	DefaultMaxOutput = 16 << 20
	// StderrHead is how much of stderr is kept, cut after redaction.
	StderrHead = 4 << 10
	// StderrRead is how much of stderr is read and redacted before its head
	// is cut: cutting first could leave part of an encoded secret that only
	// the whole encoding shows. The rest is read and dropped, never stored.
	StderrRead = 64 << 10
	// ProtocolEnv is added to the environment of every process, after the
	// harness's own environment and Options.Env, so it cannot be overridden.
	ProtocolEnv = "COMPACT_EVAL_PROTOCOL=1"
	// ExecIDEnv marks every process of a call and its descendants (Linux):
	// <run id>.<call number>. It is how the harness finds what a call left
	// running.
	ExecIDEnv = "COMPACT_EVAL_EXEC_ID"
	// watchdogEnv, set in the watchdog's environment, holds the run id whose
	// processes it kills once the harness is gone.
	watchdogEnv = "COMPACT_EVAL_EXEC_WATCHDOG"
)

// pipeGrace bounds how long Run waits for stdout/stderr to close after the
// process has exited or been killed (a grandchild may hold them open).
const pipeGrace = time.Second

// Options configure one call. The zero value is usable.
type Options struct {
	// Timeout bounds the call from start to exit; 0 means DefaultTimeout.
	Timeout time.Duration
	// Env is extra environment (KEY=VALUE) on top of the harness's own
	// environment; a key given here replaces the inherited value.
	Env []string
	// PassEnv names variables that hold API keys and are passed anyway (a
	// config's env: allow-list). Every other key variable, and every
	// variable whose value holds a known key, is left out of the
	// inherited environment.
	PassEnv []string
	// Dir is the working directory; "" means the harness's current one.
	Dir string
	// MaxOutput caps stdout in bytes; 0 means DefaultMaxOutput.
	MaxOutput int
}

// Reasons an *Error carries in its Kind field.
const (
	KindStart    = "start"     // the command could not be started
	KindExit     = "exit"      // it exited with a non-zero status or was killed by a signal
	KindTimeout  = "timeout"   // it ran longer than Options.Timeout
	KindCanceled = "canceled"  // the caller's context was cancelled
	KindTooLarge = "too_large" // stdout exceeded Options.MaxOutput
	KindEmpty    = "empty"     // stdout held nothing but white space
	KindNotJSON  = "not_json"  // stdout was not exactly one JSON document
	KindBadReply = "bad_reply" // valid JSON with the wrong shape (set by callers)
)

// Error is a failed call. Error() reads "exec NAME: REASON" followed by the
// head of stderr when there is one.
type Error struct {
	// Command is the command's name (its first word).
	Command string
	// Kind is one of the Kind* constants.
	Kind string
	// Reason says what went wrong, in a few words: "exit status 3",
	// "timed out after 2s", "output exceeds 16777216 bytes", ...
	Reason string
	// ExitCode is the process's exit status; -1 when it did not exit on its
	// own (killed, timed out, never started).
	ExitCode int
	// Stderr is the first StderrHead bytes of the process's stderr.
	Stderr string
	// Latency is the time from start to the end of the call.
	Latency time.Duration
	// Err is the underlying error, if any.
	Err error
}

func (e *Error) Error() string {
	msg := "exec " + e.Command + ": " + e.Reason
	if s := strings.TrimSpace(e.Stderr); s != "" {
		msg += "; stderr: " + s
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Result is a successful call.
type Result struct {
	// Output is the JSON document the process wrote, white space trimmed.
	Output json.RawMessage
	// Stderr is the first StderrHead bytes of the process's stderr.
	Stderr string
	// Latency is the time from start to exit.
	Latency time.Duration
}

// Run starts command (its first word is looked up in PATH), writes input to
// its stdin, closes it, and reads one JSON document from its stdout. It is
// safe for concurrent use. A failure is always an *Error.
func Run(ctx context.Context, command []string, input []byte, opts Options) (*Result, error) {
	if len(command) == 0 || command[0] == "" {
		return nil, &Error{Command: "", Kind: KindStart, Reason: "empty command", ExitCode: -1}
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	maxOut := opts.MaxOutput
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := exec.CommandContext(callCtx, command[0], command[1:]...)
	cmd.Dir = opts.Dir
	id := newCallID()
	cmd.Env = append(append(filterEnv(os.Environ(), opts.PassEnv), opts.Env...), ProtocolEnv)
	if id != "" {
		cmd.Env = append(cmd.Env, ExecIDEnv+"="+id)
	}
	setGroup(cmd)
	childAttrs(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = pipeGrace
	cmd.Stdin = bytes.NewReader(input)
	stdout := &capWriter{max: maxOut, onExceed: func() { killGroup(cmd) }}
	stderr := &headWriter{max: StderrRead}
	cmd.Stdout = stdout
	cmd.Stderr = stderr

	begin := time.Now()
	// The keys, and the secrets of the scenario the call is for.
	keys := redact.Join(redact.FromContext(ctx), redact.Keys())
	head := func() string { return cutHead(keys.String(stderr.String()), StderrHead) }
	fail := func(kind, reason string, code int, err error) (*Result, error) {
		return nil, &Error{Command: command[0], Kind: kind, Reason: keys.String(reason), ExitCode: code,
			Stderr: head(), Latency: time.Since(begin), Err: err}
	}
	if err := start(cmd); err != nil {
		switch {
		case ctx.Err() != nil:
			return fail(KindCanceled, "canceled: "+context.Cause(ctx).Error(), -1, ctx.Err())
		case callCtx.Err() != nil:
			return fail(KindTimeout, fmt.Sprintf("timed out after %v", timeout), -1, callCtx.Err())
		}
		return fail(KindStart, "start: "+err.Error(), -1, err)
	}
	swept := whenExited(cmd, id)
	waitErr := cmd.Wait()
	latency := time.Since(begin)
	swept()
	// Whatever happened, nothing of the call may outlive it: kill what is
	// left of the group (a grandchild that the command left running). The
	// leader is reaped by now, but Linux does not hand its pid to a new
	// process while a group member still uses it as a group id; with no
	// member left this finds no group. Then what left the group.
	killGroup(cmd)
	cleanup(cmd, id)

	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	exited := cmd.ProcessState != nil && cmd.ProcessState.Success()
	copied := waitErr == nil || errors.Is(waitErr, exec.ErrWaitDelay)
	if !exited || !copied || stdout.exceeded() {
		switch {
		case ctx.Err() != nil:
			return fail(KindCanceled, "canceled: "+context.Cause(ctx).Error(), -1, ctx.Err())
		case callCtx.Err() != nil:
			return fail(KindTimeout, fmt.Sprintf("timed out after %v", timeout), -1, callCtx.Err())
		case stdout.exceeded():
			return fail(KindTooLarge, fmt.Sprintf("output exceeds %d bytes", maxOut), -1, nil)
		case cmd.ProcessState == nil:
			return fail(KindExit, fmt.Sprintf("wait: %v", waitErr), code, waitErr)
		case !exited:
			return fail(KindExit, cmd.ProcessState.String(), code, waitErr)
		default:
			// The process exited 0 but copying its output failed.
			return fail(KindExit, waitErr.Error(), code, waitErr)
		}
	}
	out, err := oneDocument(stdout.buf.Bytes())
	if err != nil {
		kind := KindNotJSON
		if len(bytes.TrimSpace(stdout.buf.Bytes())) == 0 {
			kind = KindEmpty
		}
		return fail(kind, err.Error(), code, nil)
	}
	return &Result{Output: out, Stderr: head(), Latency: latency}, nil
}

// filterEnv returns env without the entries that carry an API key
// (redact.HoldsKey), except the variables pass names, and without the
// markers of an outer harness.
func filterEnv(env []string, pass []string) []string {
	known := redact.KeyValues()
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == ExecIDEnv || name == watchdogEnv:
		case redact.HoldsKey(kv, known) && !slices.Contains(pass, name):
		default:
			out = append(out, kv)
		}
	}
	return out
}

// oneDocument checks that b holds exactly one JSON document.
func oneDocument(b []byte) (json.RawMessage, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, errors.New("empty output: want one JSON document on stdout")
	}
	if !utf8.Valid(b) {
		// JSON text is UTF-8 (RFC 8259); anything else would travel into
		// reports as broken text.
		return nil, errors.New("output is not JSON: not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("output is not JSON: %v (starts with %q)", err, head(b, 40))
	}
	if _, err := dec.Token(); err != io.EOF {
		rest := b[dec.InputOffset():]
		if err == nil || json.Valid(bytes.TrimSpace(rest)) {
			return nil, errors.New("output holds more than one JSON document")
		}
		return nil, fmt.Errorf("output is not JSON: trailing data after the document (%q)", head(bytes.TrimSpace(rest), 40))
	}
	return raw, nil
}

func head(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return truncUTF8(b[:n]) + "…"
}

// capWriter keeps at most max bytes; past that it calls onExceed once and
// fails every write, which makes os/exec stop reading the pipe.
type capWriter struct {
	mu       sync.Mutex
	buf      bytes.Buffer
	max      int
	over     bool
	onExceed func()
}

var errTooLarge = errors.New("output cap exceeded")

func (w *capWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.over {
		return 0, errTooLarge
	}
	if w.buf.Len()+len(p) > w.max {
		w.over = true
		w.onExceed()
		return 0, errTooLarge
	}
	return w.buf.Write(p)
}

func (w *capWriter) exceeded() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.over
}

// headWriter keeps the first max bytes and drops the rest, so the process
// never blocks on a full stderr pipe.
type headWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (w *headWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if room := w.max - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// String returns the kept head, cut at a rune boundary.
func (w *headWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return truncUTF8(w.buf.Bytes())
}

// cutHead returns the first n bytes of redacted text s, cut at a rune
// boundary and before a redaction tag the cut would split.
func cutHead(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = truncUTF8([]byte(s[:n]))
	const tag = "[redacted:"
	if i := strings.LastIndexByte(s, '['); i >= 0 && !strings.Contains(s[i:], "]") &&
		(strings.HasPrefix(s[i:], tag) || strings.HasPrefix(tag, s[i:])) {
		s = s[:i]
	}
	return s
}

// truncUTF8 drops a rune cut in half at the end of b.
func truncUTF8(b []byte) string {
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if utf8.Valid(b) {
			break
		}
		b = b[:len(b)-1]
	}
	return string(b)
}

// Check reports whether command can be started: its first word names an
// executable in PATH, or a file when it holds a slash (relative to dir when
// dir is not ""). Use it to refuse a bad spec before any work starts.
func Check(command []string, dir string) error {
	if len(command) == 0 || command[0] == "" {
		return errors.New("empty command")
	}
	name := command[0]
	if strings.ContainsRune(name, filepath.Separator) && !filepath.IsAbs(name) && dir != "" {
		name = filepath.Join(dir, name)
	}
	if _, err := exec.LookPath(name); err != nil {
		if inner := errors.Unwrap(err); inner != nil {
			err = inner
		}
		return fmt.Errorf("command %q: %w", command[0], err)
	}
	return nil
}

// DocumentType names the type of a valid JSON document: "object", "array",
// "string", "number", "boolean" or "null" ("" for empty input).
func DocumentType(doc []byte) string {
	doc = bytes.TrimSpace(doc)
	if len(doc) == 0 {
		return ""
	}
	switch doc[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}
