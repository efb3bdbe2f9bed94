package guard

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/scenarios"
)

// FormatEvents is the format of a history written as events in the
// scenario syntax (docs/formats.md §2), as JSON: an array of events, or
// an object whose "events" holds them.
const FormatEvents = "events"

// Session is a history the guard reads: the events of an agent's log (any
// format `compact-eval import` reads) or of an events document, the
// compactions the log records, and the invariants the import suggests.
type Session struct {
	// Scenario holds the events, the recorded compactions and the
	// invariants the import wrote active (a CompactBench case's); it is
	// what the checks read. Check never modifies it.
	Scenario *scenarios.Scenario
	// Format is the format read: an importer format or FormatEvents.
	Format string
	// Suggestions are the invariants the import suggested, in its order,
	// each with its class and confidence (Confidence). Empty for events.
	Suggestions []Suggestion
	// Warnings are the non-fatal problems met reading it, one line each.
	Warnings []string

	foldOnce    sync.Once
	foldedTexts []string
}

// Suggestion is an invariant `compact-eval import` suggested from the
// history: not confirmed by anyone, so it is checked only when asked
// (Options.Suggested), and only at or above a confidence.
type Suggestion struct {
	Invariant scenarios.Invariant
	// Class is the suggestion's class: its id without the number
	// (constraint, pending, artifact, id, correction, refuted, attempt,
	// secret, quantity).
	Class string
	// Confidence is the class's measured confidence (Confidence).
	Confidence float64
	// Why is the import's reason for it.
	Why string
}

// ReadOptions says how to read a history. The zero value detects the
// format, keeps every event whole and names the session "session".
type ReadOptions struct {
	// Format is an importer format name, FormatEvents, or "" or "auto"
	// to detect it.
	Format string
	// Name is the input's file name, used in messages and for the id.
	Name string
	// MaxEventChars, when positive, trims each event text and tool
	// result to that many characters (importer.Options.MaxEventChars).
	MaxEventChars int
	// TempDir is where the import spills events; "" means os.TempDir().
	TempDir string
}

// InputError is a history, a summary or an invariants file the guard
// cannot read: bad input, exit 2 on the command line.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

func inputErrorf(format string, args ...any) error {
	return &InputError{Err: fmt.Errorf(format, args...)}
}

// trimSteps are the MaxEventChars ReadFile tries, in order, when a log
// imports to more than a scenario may hold.
var trimSteps = []int{0, 20000, 4000}

// ReadFile reads the history in the file at path (see Read). A log whose
// import is over a scenario's limits (scenarios.MaxFileSize) is read
// again with its long event texts trimmed, and a warning says so: a fact
// that only a trimmed part held then reads as absent.
func ReadFile(path string, opts ReadOptions) (*Session, error) {
	if opts.Name == "" {
		opts.Name = filepath.Base(path)
	}
	steps := trimSteps
	if opts.MaxEventChars > 0 {
		steps = []int{opts.MaxEventChars}
	}
	var err error
	for _, n := range steps {
		var f *os.File
		f, err = inputfile.Open(path)
		if err != nil {
			return nil, inputErrorf("%s: %s", path, inputfile.Reason(err))
		}
		o := opts
		o.MaxEventChars = n
		var s *Session
		s, err = Read(f, o)
		f.Close()
		if err == nil {
			if n > 0 && opts.MaxEventChars == 0 {
				s.Warnings = append(s.Warnings, fmt.Sprintf("the log imports to more than a scenario holds (%d MiB): its event texts were trimmed to %d characters, so a fact only a trimmed part held reads as absent", scenarios.MaxFileSize>>20, n))
			}
			return s, nil
		}
		if !errors.Is(err, errTooBig) {
			return nil, err
		}
	}
	return nil, err
}

// errTooBig marks an import over a scenario's size limit.
var errTooBig = errors.New("over the scenario size limit")

// Read reads a history from r, as a stream: a log in any format
// `compact-eval import` reads (importer.Import), or FormatEvents. The
// format is detected unless opts.Format names it.
func Read(r io.Reader, opts ReadOptions) (*Session, error) {
	name := opts.Name
	if name == "" {
		name = "session"
	}
	br := bufio.NewReaderSize(r, 1<<20)
	format := opts.Format
	if format == "" || format == string(importer.FormatAuto) {
		if looksLikeEvents(br) {
			format = FormatEvents
		}
	}
	if format == FormatEvents {
		return readEvents(br, name)
	}
	f, err := importer.ParseFormat(format)
	if err != nil {
		return nil, &InputError{Err: fmt.Errorf("%w, or %s", err, FormatEvents)}
	}
	var out bytes.Buffer
	rep, err := importer.Import(br, &out, importer.Options{Format: f, Name: name, MaxEventChars: opts.MaxEventChars, TempDir: opts.TempDir})
	if err != nil {
		var ie *importer.InputError
		if errors.As(err, &ie) {
			return nil, &InputError{Err: fmt.Errorf("%s: %w", name, err)}
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return fromImport(name, out.Bytes(), rep)
}

// fromImport is the session of an imported scenario.
func fromImport(name string, data []byte, rep *importer.Report) (*Session, error) {
	if len(data) > scenarios.MaxFileSize {
		return nil, &InputError{Err: fmt.Errorf("%s: %w: it imports to %.1f MB, and a scenario holds at most %d MiB; trim long tool outputs (--max-event-chars)", name, errTooBig, float64(len(data))/1e6, scenarios.MaxFileSize>>20)}
	}
	sc, err := scenarios.LoadBytes(name, data)
	if err != nil {
		return nil, &InputError{Err: fmt.Errorf("%s: the import of this %s log cannot be loaded: %w", name, rep.Format, err)}
	}
	s := &Session{Scenario: sc, Format: string(rep.Format)}
	for _, w := range rep.Warnings {
		s.Warnings = append(s.Warnings, "import: "+w)
	}
	sugs, warns := suggestionsOf(name, data)
	s.Suggestions = sugs
	s.Warnings = append(s.Warnings, warns...)
	return s, nil
}

// ReadEach reads every session of the log at path: one, or, for a file of
// records (OpenHands evaluation output, benchmark trajectories, one
// conversation a line), one a record, named PATH#ID. It calls each with
// every session, or with the error of one that cannot be read; the others
// are still read. An error that each returns stops it.
func ReadEach(path string, opts ReadOptions, each func(name string, s *Session, err error) error) error {
	f, err := inputfile.Open(path)
	if err != nil {
		return each(path, nil, inputErrorf("%s: %s", path, inputfile.Reason(err)))
	}
	br := bufio.NewReaderSize(f, 1<<20)
	det, derr := importer.DetectInput(br)
	if derr != nil || !det.Records || opts.Format == FormatEvents || looksLikeEvents(br) {
		f.Close()
		s, err := ReadFile(path, opts)
		return each(path, s, err)
	}
	defer f.Close()
	if opts.Name == "" {
		opts.Name = filepath.Base(path)
	}
	_, err = importer.ImportEach(br, importer.Options{Format: importer.Format(opts.Format), Name: opts.Name, MaxEventChars: opts.MaxEventChars, TempDir: opts.TempDir},
		func(rep *importer.Report, write func(io.Writer) error, rerr error) error {
			name := path + "#" + strconv.Itoa(rep.Record)
			if rep.ID != "" {
				name = path + "#" + rep.ID
			}
			if rerr != nil {
				return each(name, nil, &InputError{Err: fmt.Errorf("%s: %w", name, rerr)})
			}
			var out bytes.Buffer
			if err := write(&out); err != nil {
				return each(name, nil, err)
			}
			s, err := fromImport(name, out.Bytes(), rep)
			return each(name, s, err)
		})
	if err != nil {
		return each(path, nil, &InputError{Err: fmt.Errorf("%s: %w", path, err)})
	}
	return nil
}

// looksLikeEvents reports whether the input starts as events in the
// scenario syntax: a JSON array, or an object's "events", whose first
// element carries seq, tool_call or tool_result (chat messages carry
// none of them). Plain text events read the same as chat messages and
// are left to the importer.
func looksLikeEvents(br *bufio.Reader) bool {
	head, _ := br.Peek(64 << 10)
	dec := json.NewDecoder(bytes.NewReader(head))
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	if d, ok := tok.(json.Delim); ok && d == '{' {
		found := false
		for dec.More() && !found {
			k, err := dec.Token()
			if err != nil {
				return false
			}
			if k == "events" {
				found = true
				break
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return false
			}
		}
		if !found {
			return false
		}
		if tok, err = dec.Token(); err != nil {
			return false
		}
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' || !dec.More() {
		return false
	}
	var first map[string]json.RawMessage
	if dec.Decode(&first) != nil {
		return false
	}
	_, seq := first["seq"]
	_, call := first["tool_call"]
	_, res := first["tool_result"]
	return seq || call || res
}

// readEvents reads events in the scenario syntax, as JSON.
func readEvents(br *bufio.Reader, name string) (*Session, error) {
	data, err := io.ReadAll(io.LimitReader(br, scenarios.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var raw json.RawMessage
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '{' {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(data, &obj); err != nil {
			return nil, inputErrorf("%s: not JSON: %v", name, err)
		}
		raw = obj["events"]
		if raw == nil {
			return nil, inputErrorf("%s: an events document is an array of events or an object with \"events\"", name)
		}
	} else {
		raw = data
	}
	if !json.Valid(raw) {
		return nil, inputErrorf("%s: not JSON", name)
	}
	doc := []byte(`{"version": 1, "id": "events", "events": ` + string(raw) + "}")
	sc, err := scenarios.LoadBytes(name, doc)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	return &Session{Scenario: sc, Format: FormatEvents}, nil
}

// suggestionsOf reads the suggested invariants an import wrote as YAML
// comments (the "# invariants:" block, each entry after a "# # why"
// line), with their classes and confidences.
func suggestionsOf(name string, data []byte) ([]Suggestion, []string) {
	at := bytes.Index(data, []byte("\n# invariants:\n"))
	if at < 0 {
		return nil, nil
	}
	var block strings.Builder
	block.WriteString("invariants:\n")
	var whys []string
	why := ""
	rest := data[at+len("\n# invariants:\n"):]
	for len(rest) > 0 {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if !bytes.HasPrefix(line, []byte("#")) {
			break
		}
		text := strings.TrimPrefix(strings.TrimPrefix(string(line), "#"), " ")
		if w, ok := strings.CutPrefix(text, "# "); ok {
			why = w
			continue
		}
		if strings.HasPrefix(text, "- ") {
			whys = append(whys, why)
		}
		block.WriteString(text + "\n")
	}
	if len(whys) == 0 {
		return nil, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(block.String()), &doc); err != nil || len(doc.Content) == 0 || len(doc.Content[0].Content) < 2 {
		return nil, []string{fmt.Sprintf("the import's suggestions cannot be read: %v", err)}
	}
	invs, err := scenarios.DecodeInvariants("suggestions of "+name, doc.Content[0].Content[1])
	if err != nil {
		return nil, []string{fmt.Sprintf("the import's suggestions cannot be read: %v", err)}
	}
	out := make([]Suggestion, len(invs))
	for i, inv := range invs {
		cl := ClassOf(inv.InvariantID())
		out[i] = Suggestion{Invariant: inv, Class: cl, Confidence: Confidence(cl)}
		if i < len(whys) {
			out[i].Why = whys[i]
		}
	}
	return out, nil
}
