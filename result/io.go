package result

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

//go:embed result.schema.json
var schemaJSON []byte

// SchemaJSON returns the JSON Schema (draft 2020-12) of the canonical
// result, as printed by `compact-eval schema result`. The caller may modify
// the returned slice.
func SchemaJSON() []byte { return slices.Clone(schemaJSON) }

// WriteJSON writes r as canonical JSON followed by a newline: indented,
// except that each unit takes one line (diffable, greppable, and twice as
// fast to write as indenting every summary). Each unit's line is
// MarshalUnit's, without its newline.
func WriteJSON(w io.Writer, r *Result) error {
	head := *r
	head.Units = nil
	var hb bytes.Buffer
	enc := json.NewEncoder(&hb)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&head); err != nil {
		return fmt.Errorf("writing result: %w", err)
	}
	const slot = `"units": null`
	before, after, ok := bytes.Cut(hb.Bytes(), []byte(slot))
	if !ok {
		return errors.New("writing result: no units slot")
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(before)
	if len(r.Units) == 0 {
		bw.WriteString(`"units": []`)
	} else {
		bw.WriteString("\"units\": [\n")
		var ue unitEncoder
		for i := range r.Units {
			line, err := ue.encode(&r.Units[i])
			if err != nil {
				return fmt.Errorf("writing result: unit %d: %w", i, err)
			}
			bw.WriteString("    ")
			bw.Write(bytes.TrimSuffix(line, []byte("\n")))
			if i < len(r.Units)-1 {
				bw.WriteByte(',')
			}
			bw.WriteByte('\n')
		}
		bw.WriteString("  ]")
	}
	bw.Write(after)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing result: %w", err)
	}
	return nil
}

// Decode parses a result document written by WriteJSON. It is strict:
// unknown fields, trailing data, a missing or unsupported result_version
// and invalid statuses are errors that name, for syntax errors, the line.
// The aggregates are recomputed from the units, so they always agree.
func Decode(data []byte) (*Result, error) {
	var head struct {
		Version *int `json:"result_version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, syntaxError(data, err)
	}
	switch {
	case head.Version == nil:
		return nil, errors.New("not a compact-eval result: no result_version")
	case *head.Version > ResultVersion:
		return nil, fmt.Errorf("result_version %d is newer than this compact-eval reads (%d): upgrade compact-eval", *head.Version, ResultVersion)
	case *head.Version < 1:
		return nil, fmt.Errorf("invalid result_version %d", *head.Version)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	var r Result
	if err := dec.Decode(&r); err != nil {
		return nil, syntaxError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the result document")
	}
	if err := validate(&r); err != nil {
		return nil, err
	}
	r.Aggregate()
	return &r, nil
}

func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return fmt.Errorf("invalid result: %w", err)
	}
	line := 1 + strings.Count(string(data[:min(int(off), len(data))]), "\n")
	return fmt.Errorf("line %d: invalid result: %w", line, err)
}

// validate checks what the JSON types cannot: statuses and identities.
func validate(r *Result) error {
	var errs []error
	type key struct {
		scenario, summarizer string
		trial                int
	}
	first := map[key]int{}
	var planned map[string]bool
	if r.Config.Suite != nil {
		planned = map[string]bool{}
		for _, s := range r.Config.Suite {
			planned[s.ID] = true
		}
	}
	if r.Resume != "" && !r.Interrupted {
		errs = append(errs, errors.New("the result names a resume command but is not marked interrupted: was it edited?"))
	}
	for i, u := range r.Units {
		where := fmt.Sprintf("units[%d]", i)
		k := key{u.Scenario.ID, u.Summarizer, u.Trial}
		if j, dup := first[k]; dup {
			// A unit counted twice skews every rate and hides the one it
			// displaced: two processes wrote the run folder at once.
			errs = append(errs, fmt.Errorf("%s repeats units[%d] (%s × %s, trial %d): a result holds each unit once; was the run folder written by two processes at once?", where, j, u.Scenario.ID, u.Summarizer, u.Trial+1))
		} else {
			first[k] = i
		}
		if u.Scenario.ID == "" {
			errs = append(errs, fmt.Errorf("%s: no scenario id", where))
		}
		if u.Summarizer == "" {
			errs = append(errs, fmt.Errorf("%s: no summarizer", where))
		}
		switch u.Status {
		case UnitOK, UnitError, UnitAbandoned:
		default:
			errs = append(errs, fmt.Errorf("%s: unknown status %q (want ok, error or abandoned)", where, u.Status))
		}
		if u.Trial < 0 || (r.Config.Trials > 0 && u.Trial >= r.Config.Trials) {
			errs = append(errs, fmt.Errorf("%s: trial %d is outside the run's %d trials (0-based)", where, u.Trial, r.Config.Trials))
		}
		if u.Status == UnitAbandoned && !r.Interrupted {
			errs = append(errs, fmt.Errorf("%s: an abandoned unit in a result not marked interrupted: was it edited?", where))
		}
		if planned != nil && !planned[u.Scenario.ID] {
			errs = append(errs, fmt.Errorf("%s: scenario %q is not in the run's planned suite (config.suite)", where, u.Scenario.ID))
		}
		for gi, g := range u.Generations {
			for ci, c := range g.Checks {
				at := fmt.Sprintf("%s.generations[%d].checks[%d]", where, gi, ci)
				switch c.Status {
				case Pass, Fail, Error, Skip, Uncertain:
				default:
					errs = append(errs, fmt.Errorf("%s: unknown status %q (want pass, fail, uncertain, error or skip)", at, c.Status))
				}
				if !checkName.MatchString(c.Check) {
					errs = append(errs, fmt.Errorf("%s: check %q is not a check type (lower-case letters, digits and _)", at, c.Check))
				}
				switch {
				case c.Kind != KindInvariant && c.Kind != KindStructural && c.Kind != "":
					errs = append(errs, fmt.Errorf("%s: unknown kind %q (want invariant or structural)", at, c.Kind))
				case c.Kind == KindInvariant && !slices.Contains(InvariantTypes, c.Check):
					errs = append(errs, fmt.Errorf("%s: %q is not an invariant type (%s)", at, c.Check, strings.Join(InvariantTypes, ", ")))
				}
			}
		}
		for pi, p := range u.Probes {
			switch p.Class {
			case Kept, CompactionRegression, ProbeUncertain, AgentError, CompactedOnly, ProbeErrored, ProbeSkipped:
			default:
				errs = append(errs, fmt.Errorf("%s.probes[%d]: unknown class %q", where, pi, p.Class))
			}
		}
		if len(errs) >= 10 {
			errs = append(errs, errors.New("too many errors"))
			break
		}
	}
	if want := len(r.Config.Suite) * len(r.Config.Summarizers) * max(r.Config.Trials, 1); planned != nil && len(r.Units) < want &&
		!r.Interrupted && len(r.MissingShards) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("the result holds %d units, but its run planned %d (%d scenarios × %d summarizers × %d trials) and it is not marked interrupted: was it edited?",
			len(r.Units), want, len(r.Config.Suite), len(r.Config.Summarizers), max(r.Config.Trials, 1)))
	}
	return errors.Join(errs...)
}

// checkName is the shape of every check type.
var checkName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
