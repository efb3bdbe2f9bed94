package importer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
	FormatSWEAgent   Format = "swe-agent"
	FormatOpenHands  Format = "openhands"
	// FormatCompactBench reads CompactBench cases: a transcript with its
	// ground truth and evaluation items, turned into a finished scenario
	// (invariants and probes active) rather than a skeleton.
	FormatCompactBench Format = "compactbench"
	// FormatOTel reads OpenTelemetry GenAI traces in OTLP JSON: one
	// trace a session (otel.go).
	FormatOTel Format = "otel"
	// FormatLangSmith reads LangSmith run exports: one thread (or trace)
	// a session (langsmith.go).
	FormatLangSmith Format = "langsmith"
)

// Formats lists the concrete formats.
var Formats = []Format{FormatOpenAI, FormatAnthropic, FormatClaudeCode, FormatCodex, FormatSWEAgent, FormatOpenHands, FormatCompactBench, FormatOTel, FormatLangSmith}

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
	names := []string{string(FormatAuto)}
	for _, f := range Formats {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown format %q (want %s)", s, strings.Join(names, ", "))
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
	// Index picks the record in a file of records (one conversation a line,
	// an array of benchmark records, OpenHands evaluation output); 0 is the
	// first.
	Index int
	// MessagesPath is an RFC 6901 JSON pointer to the array of OpenAI or
	// Anthropic messages inside each record (or inside the document), for
	// files that hold messages somewhere else than a format expects
	// ("/traj" in {task_id, reward, traj: [...]}). "" lets the format, or
	// auto-detection, find them.
	MessagesPath string
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
	// Cut places the compaction cut (compaction.at): after an event's seq,
	// or near a fraction of the events; the zero value cuts near two
	// thirds. A session whose log records its compactions, and a
	// CompactBench case, are cut where they say.
	Cut Cut
}

// Report says what Import did.
type Report struct {
	// Format is the format read; Detected is true when auto-detection chose
	// it, and Detection says what it found.
	Format    Format
	Detected  bool
	Detection Detection
	// Record is the index of the record imported and Records how many the
	// input holds (0 when it is not a file of records).
	Record, Records int
	// ID is the scenario id written.
	ID string
	// Events is the number of events written; Cut the compaction cut
	// (the last recorded boundary when the log records compactions).
	Events int
	Cut    int
	// Recorded lists the boundaries of the compactions the log records,
	// kept under recorded_compactions (nil when none).
	Recorded []int
	// Unresolved counts tool calls that never got a result.
	Unresolved int
	// Suggestions counts the suggested invariants written as comments.
	Suggestions int
	// Tally says how many suggestions were kept, repaired and left out by
	// the satisfiability check, and what the caps pushed out.
	Tally Tally
	// Invariants and Probes count the active invariants and probes written
	// (CompactBench cases, whose ground truth says what matters).
	Invariants, Probes int
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
	if err := opts.validate(); err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(r, peekSize)
	rep, err := detect(br, &opts)
	if err != nil {
		return rep, err
	}
	format := rep.Format
	if format == FormatCompactBench {
		if !opts.Cut.IsZero() {
			return rep, errCaseCut(opts.Cut)
		}
		return rep, importCase(br, w, opts, rep)
	}
	if opts.Index > 0 && !recordFormat(format, opts) && !rep.Detection.Records {
		return rep, inputErrorf(0, "--record picks a record in a file of records; this %s input holds one session", format)
	}
	b, err := newBuilder(opts, format)
	if err != nil {
		return rep, err
	}
	defer b.close()
	switch format {
	case FormatOpenAI, FormatAnthropic:
		d := chatOpenAI
		if format == FormatAnthropic {
			d = chatAnthropic
		}
		if opts.MessagesPath != "" {
			tokens, _ := parsePointer(opts.MessagesPath)
			err = pickRecord(br, b, func(raw json.RawMessage) error { return b.messagesAt(raw, tokens, d) })
		} else {
			err = parseChat(br, b, d)
		}
	case FormatClaudeCode:
		err = parseClaudeCode(br, b)
	case FormatCodex:
		err = parseCodex(br, b)
	case FormatSWEAgent:
		err = parseSWEAgent(br, b)
	case FormatOpenHands:
		err = parseOpenHands(br, b)
	case FormatOTel:
		err = parseOTel(br, b)
	case FormatLangSmith:
		err = parseLangSmith(br, b)
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

func (opts *Options) validate() error {
	if opts.MaxEventChars < 0 {
		return errors.New("max event chars must not be negative")
	}
	if opts.Index < 0 {
		return errors.New("the record index must not be negative")
	}
	if err := ValidPointer(opts.MessagesPath); err != nil {
		return fmt.Errorf("--messages-path: %w", err)
	}
	if err := opts.Cut.validate(); err != nil {
		return err
	}
	if opts.MessagesPath != "" && opts.Format != "" && opts.Format != FormatAuto && opts.Format != FormatOpenAI && opts.Format != FormatAnthropic {
		return fmt.Errorf("--messages-path points at OpenAI or Anthropic messages; it does not apply to --from %s", opts.Format)
	}
	return nil
}

// detect fills the report's format, detecting it when asked, and the
// messages path found by detection.
func detect(br *bufio.Reader, opts *Options) (*Report, error) {
	rep := &Report{Format: opts.Format}
	if (opts.Format == "" || opts.Format == FormatAuto) && opts.MessagesPath != "" {
		// Only the dialect is left to find.
		_, head, err := peekStart(br)
		if err != nil {
			return nil, err
		}
		rep.Format, rep.Detected = chatMarkers(head), true
		rep.Detection = Detection{Format: rep.Format, MessagesPath: opts.MessagesPath, Records: true}
		return rep, nil
	}
	if opts.Format == "" || opts.Format == FormatAuto {
		d, err := DetectInput(br)
		if err != nil {
			return nil, err
		}
		rep.Format, rep.Detected, rep.Detection = d.Format, true, d
		opts.MessagesPath = d.MessagesPath
	}
	return rep, nil
}

// recordFormat reports whether a format reads files of records.
func recordFormat(f Format, opts Options) bool {
	return f == FormatOpenAI || f == FormatAnthropic || f == FormatOpenHands || f == FormatOTel || f == FormatLangSmith || opts.MessagesPath != ""
}

// ImportEach imports every record of a file of records (benchmark
// trajectories, OpenHands evaluation output, one conversation a line): one
// scenario a record, each with its own id (the file's name and the record's
// task_id, instance_id or id, else its index). For each record it calls
// emit with the record's report and, when the record could be read, a
// function that writes its scenario; a record that cannot be read reaches
// emit with its error instead, and the others are still imported. It
// returns the number of records.
func ImportEach(r io.Reader, opts Options, emit func(rep *Report, write func(io.Writer) error, err error) error) (int, error) {
	if err := opts.validate(); err != nil {
		return 0, err
	}
	if opts.ID != "" {
		return 0, errors.New("an id names one scenario; with every record imported, ids come from the records")
	}
	br := bufio.NewReaderSize(r, peekSize)
	base, err := detect(br, &opts)
	if err != nil {
		return 0, err
	}
	format := base.Format
	if format == FormatCompactBench {
		if !opts.Cut.IsZero() {
			return 0, errCaseCut(opts.Cut)
		}
		return eachCase(br, opts, base, emit)
	}
	if format == FormatOTel {
		return eachTrace(br, opts, base, emit)
	}
	if format == FormatLangSmith {
		return eachLangSmith(br, opts, base, emit)
	}
	used := map[string]bool{}
	var tokens []string
	if opts.MessagesPath != "" {
		tokens, _ = parsePointer(opts.MessagesPath)
	}
	parse := func(b *builder, raw json.RawMessage) error {
		switch {
		case format == FormatOpenHands:
			return b.ohRecord(raw)
		case format == FormatSWEAgent:
			return parseSWEAgent(bufio.NewReader(bytes.NewReader(raw)), b)
		case format != FormatOpenAI && format != FormatAnthropic:
			return inputErrorf(0, "a %s log holds one session; import it without --all", format)
		}
		d := chatOpenAI
		if format == FormatAnthropic {
			d = chatAnthropic
		}
		if tokens != nil {
			return b.messagesAt(raw, tokens, d)
		}
		return parseConversation(raw, b, d)
	}
	return eachRecord(br, opts.MaxLineBytes, func(i, line int, raw json.RawMessage, rerr error) error {
		o := opts
		o.Index = i
		rep := *base
		rep.Record = i
		if rerr != nil {
			return emit(&rep, nil, &InputError{Line: line, Err: fmt.Errorf("record %d: %w", i, rerr)})
		}
		b, err := newBuilder(o, format)
		if err != nil {
			return err
		}
		defer b.close()
		b.each = true
		b.record = recordInfoOf(raw)
		err = parse(b, raw)
		if err == nil {
			err = b.finish()
		}
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				err = &InputError{Line: line, Err: fmt.Errorf("record %d: %w", i, err)}
			} else if ie.Line == 0 {
				ie.Line = line
				ie.Err = fmt.Errorf("record %d: %w", i, ie.Err)
			}
			return emit(&rep, nil, err)
		}
		// Two records with the same name (a task run twice) keep
		// distinct ids: the later one adds its index.
		id := b.scenarioID()
		if used[id] {
			id = fitID(fmt.Sprintf("%s-%d", id, i))
			b.opts.ID = id
		}
		used[id] = true
		rep.ID = id
		return emit(&rep, func(w io.Writer) error { return b.write(w, &rep) }, nil)
	})
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
	if id := sanitize(fileStem(name)); id != "" {
		return fitID(id)
	}
	return "imported-session"
}

// fileStem is a path's last element without a known session extension.
func fileStem(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	for _, ext := range []string{".jsonl", ".json", ".ndjson", ".traj", ".txt", ".log"} {
		if strings.HasSuffix(strings.ToLower(name), ext) {
			return name[:len(name)-len(ext)]
		}
	}
	return name
}

// sanitize lowercases s and joins its runs of [a-z0-9] with single dashes.
func sanitize(s string) string {
	var sb strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
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
	return sb.String()
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
