package importer

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Format names an input format.
type Format string

// The formats Import reads. FormatAuto asks Import to detect the format.
const (
	FormatAuto       Format = "auto"
	FormatOpenAI     Format = "openai"
	FormatAnthropic  Format = "anthropic"
	FormatClaudeCode Format = "claude-code"
	FormatCodex      Format = "codex"
)

// Formats lists the concrete formats, in the order detection prefers them.
var Formats = []Format{FormatOpenAI, FormatAnthropic, FormatClaudeCode, FormatCodex}

// ParseFormat returns the Format named s ("" means FormatAuto), or an error
// that lists the valid names.
func ParseFormat(s string) (Format, error) {
	if s == "" {
		return FormatAuto, nil
	}
	for _, f := range append([]Format{FormatAuto}, Formats...) {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q (want auto, openai, anthropic, claude-code or codex)", s)
}

// DefaultMaxLineBytes is the longest JSONL line read when
// Options.MaxLineBytes is zero.
const DefaultMaxLineBytes = 256 << 20

// Options controls Import. The zero value detects the format, imports the
// first conversation, skips malformed lines with a warning, keeps every text
// whole and names the scenario "imported-session".
type Options struct {
	// Format is the input format; "" or FormatAuto detects it.
	Format Format
	// Index picks the conversation in a JSONL file that holds one
	// conversation a line (openai, anthropic); 0 is the first.
	Index int
	// Strict makes a malformed line an error instead of a warning.
	Strict bool
	// MaxEventChars, when positive, trims each event text and tool result to
	// that many characters followed by "…[trimmed N chars]". Zero keeps all.
	MaxEventChars int
	// ID is the scenario id; "" derives it from Name.
	ID string
	// Name is the input's file name, used for the id and the title; "" means
	// "imported-session".
	Name string
	// MaxLineBytes bounds one JSONL line; 0 means DefaultMaxLineBytes.
	MaxLineBytes int
	// TempDir is where events are spilled; "" means os.TempDir().
	TempDir string
}

// Report says what Import did.
type Report struct {
	// Format is the format read; Detected is true when auto-detection chose it.
	Format   Format
	Detected bool
	// ID is the scenario id written.
	ID string
	// Events is the number of events written; Cut the compaction cut.
	Events int
	Cut    int
	// Unresolved counts tool calls that never got a result.
	Unresolved int
	// Suggestions counts the suggested invariants written as comments.
	Suggestions int
	// Warnings are the non-fatal problems met, one line each; they never
	// contain a secret found in the input.
	Warnings []string
}

// InputError is an error in the input: a malformed line under Strict, a
// document that is not JSON, a session with no events. Line is 1-based, 0 when
// unknown.
type InputError struct {
	Line int
	Err  error
}

// Error reads "line N: message", or just the message when the line is unknown.
func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

func inputErrorf(line int, format string, args ...any) error {
	return &InputError{Line: line, Err: fmt.Errorf(format, args...)}
}

// Import reads a session in opts.Format from r and writes a scenario YAML
// document to w. Nothing is written to w unless the whole input was read
// successfully. Errors about the input are *InputError; others come from
// writing or from the temporary spill file. Once the format is known the
// report is returned even with an error, so a caller can say which format
// auto-detection chose.
func Import(r io.Reader, w io.Writer, opts Options) (*Report, error) {
	if opts.MaxEventChars < 0 {
		return nil, errors.New("max event chars must not be negative")
	}
	if opts.Index < 0 {
		return nil, errors.New("index must not be negative")
	}
	format := opts.Format
	if format == "" {
		format = FormatAuto
	}
	br := bufio.NewReaderSize(r, peekSize)
	rep := &Report{}
	if format == FormatAuto {
		f, err := Detect(br)
		if err != nil {
			return nil, err
		}
		format, rep.Detected = f, true
	}
	rep.Format = format
	if opts.Index > 0 && format != FormatOpenAI && format != FormatAnthropic {
		return rep, inputErrorf(0, "--index picks a conversation in an openai or anthropic file; a %s log holds one session", format)
	}
	b, err := newBuilder(opts, format)
	if err != nil {
		return rep, err
	}
	defer b.close()
	switch format {
	case FormatOpenAI:
		err = parseChat(br, b, chatOpenAI)
	case FormatAnthropic:
		err = parseChat(br, b, chatAnthropic)
	case FormatClaudeCode:
		err = parseClaudeCode(br, b)
	case FormatCodex:
		err = parseCodex(br, b)
	default:
		return rep, fmt.Errorf("unknown format %q", format)
	}
	if err != nil {
		return rep, err
	}
	if err := b.finish(); err != nil {
		return rep, err
	}
	if err := b.write(w, rep); err != nil {
		return rep, err
	}
	return rep, nil
}

// MaxIDLen is the longest id SanitizeID returns.
const MaxIDLen = 64

// SanitizeID turns a file name into a scenario id: lower case, the extension
// dropped, runs of characters outside [a-z0-9] replaced by one "-". An id
// longer than MaxIDLen is cut and ends with "-" and 8 hex digits of the
// SHA-256 of the whole name, so two long names that share a prefix (two
// sessions of one benchmark) keep distinct ids. It returns
// "imported-session" when nothing is left.
func SanitizeID(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	for _, ext := range []string{".jsonl", ".json", ".ndjson", ".txt", ".log"} {
		if strings.HasSuffix(strings.ToLower(name), ext) {
			name = name[:len(name)-len(ext)]
			break
		}
	}
	var sb strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && sb.Len() > 0 {
				sb.WriteByte('-')
			}
			dash = false
			sb.WriteRune(r)
			continue
		}
		dash = true
	}
	id := sb.String()
	if id == "" {
		return "imported-session"
	}
	return fitID(id)
}

// fitID cuts an id of lowercase letters, digits and dashes to MaxIDLen,
// appending a short hash of the whole id when it cuts.
func fitID(id string) string {
	if len(id) <= MaxIDLen {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	suffix := "-" + hex.EncodeToString(sum[:4])
	return strings.TrimRight(id[:MaxIDLen-len(suffix)], "-") + suffix
}
