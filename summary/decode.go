package summary

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Limits on a summary document. A document beyond them is not read: Decode
// returns an error, and the schema check reports it, so a runaway or hostile
// summarizer costs neither memory nor a stack overflow.
const (
	// MaxSummaryBytes is the largest summary document read: 8 MiB, far above
	// any useful summary (the compression check fails long before).
	MaxSummaryBytes = 8 << 20
	// MaxSummaryDepth is the deepest nesting of arrays and objects accepted,
	// extensions included. The contract itself needs 3 levels.
	MaxSummaryDepth = 64
)

// ErrUnreadable wraps every reason a document could not be read as JSON at
// all (too large, too deep, not JSON).
var ErrUnreadable = errors.New("summary is not a readable JSON document")

// Decode reads a summary document. It returns:
//   - an error (wrapping ErrUnreadable) when raw is empty, larger than
//     MaxSummaryBytes, nested deeper than MaxSummaryDepth, or not one JSON
//     value; the summary and violations are then nil;
//   - otherwise the schema violations (nil when valid), and the decoded
//     summary, which is nil when the document's shape does not fit the
//     Summary type (not an object, schema_version or covers_through
//     missing, a field of the wrong type such as covers_through as a
//     string): then the violations say why.
//
// A document with violations but a usable shape (an unknown top-level
// property, a bad enum value) still decodes, so that other checks can judge
// its content while the schema check reports the violations.
func Decode(raw []byte) (*Summary, []Violation, error) {
	if err := sizeBound(raw); err != nil {
		return nil, nil, err
	}
	st := strictOf(raw)
	// A document strictDecode read nests 3 levels deep at most.
	if !st.ok {
		if d, at := depth(raw); d > MaxSummaryDepth {
			return nil, nil, fmt.Errorf("%w: it nests deeper than %d levels (at byte %d)", ErrUnreadable, MaxSummaryDepth, at)
		}
	}
	if s, ok := fastValidFrom(raw, st); ok {
		return s, nil, nil
	}
	return decodeSlow(raw)
}

// Bounds reports (wrapping ErrUnreadable) a document that is empty, larger
// than MaxSummaryBytes or nested deeper than MaxSummaryDepth: one no part
// of the harness reads, stores or shows. It does not parse the document.
func Bounds(raw []byte) error {
	if err := sizeBound(raw); err != nil {
		return err
	}
	if d, at := depth(raw); d > MaxSummaryDepth {
		return fmt.Errorf("%w: it nests deeper than %d levels (at byte %d)", ErrUnreadable, MaxSummaryDepth, at)
	}
	return nil
}

func sizeBound(raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return fmt.Errorf("%w: the document is empty", ErrUnreadable)
	}
	if len(raw) > MaxSummaryBytes {
		return fmt.Errorf("%w: it is %d bytes; the limit is %d (8 MiB)", ErrUnreadable, len(raw), MaxSummaryBytes)
	}
	return nil
}

// strict is strictDecode's answer on a document.
type strict struct {
	s          Summary
	sv, ct, ok bool
}

func strictOf(raw []byte) strict {
	var st strict
	st.s, st.sv, st.ct, st.ok = strictDecode(raw)
	return st
}

// decodeSlow validates with the schema library and decodes.
func decodeSlow(raw []byte) (*Summary, []Violation, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("%w: data after the end of the JSON value", ErrUnreadable)
	}
	vs := validateValue(v)
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, vs, nil
	}
	if iv := unwrittenInts(obj); len(iv) > 0 {
		vs = append(vs, iv...)
		sort.SliceStable(vs, func(i, j int) bool { return vs[i].Pointer < vs[j].Pointer })
	}
	for _, req := range []string{"schema_version", "covers_through"} {
		if _, ok := obj[req]; !ok {
			return nil, vs, nil
		}
	}
	var s Summary
	if err := json.Unmarshal(raw, &s); err != nil {
		if len(vs) == 0 {
			vs = []Violation{{Message: fmt.Sprintf("does not fit the summary document: %v", err)}}
		}
		return nil, vs, nil
	}
	return &s, vs, nil
}

// unwrittenInts reports each integer of the contract (schema_version,
// covers_through, an entry's source_seq and resolved_by) not written as
// one: 1.0, 1e2 and 0e-0 are integers to JSON Schema, which compares
// values, and no integer to the contract, which reads a seq as written
// (issue 35: a covers_through of 0e-0 was refused only as "does not fit",
// at no field, and not at all beside another violation).
func unwrittenInts(obj map[string]any) []Violation {
	var out []Violation
	check := func(ptr, name string, x any) {
		if n, ok := x.(json.Number); ok && strings.ContainsAny(string(n), ".eE") {
			out = append(out, Violation{ptr, fmt.Sprintf("%s is %s; want an integer written as one, without a fraction or an exponent", name, n)})
		}
	}
	for _, k := range []string{"schema_version", "covers_through"} {
		check("/"+k, k, obj[k])
	}
	for list, items := range obj {
		entries, _ := items.([]any)
		if list == "extensions" {
			continue
		}
		for i, e := range entries {
			m, _ := e.(map[string]any)
			for _, k := range []string{"source_seq", "resolved_by"} {
				if x, ok := m[k]; ok {
					check(fmt.Sprintf("/%s/%d/%s", list, i, k), k, x)
				}
			}
		}
	}
	return out
}

// depth returns the maximum nesting depth of arrays and objects in raw and
// the offset where it was first exceeded beyond MaxSummaryDepth. Strings are
// skipped, escapes honoured; invalid JSON is left to the decoder.
func depth(raw []byte) (max, at int) {
	d := 0
	inString, esc := false, false
	for i, c := range raw {
		if inString {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			d++
			if d > max {
				max = d
				if d > MaxSummaryDepth && at == 0 {
					at = i
					return max, at
				}
			}
		case ']', '}':
			d--
		}
	}
	return max, at
}

// fastValid decodes raw strictly into the Summary type and checks in Go what
// the schema says, for the common case of a valid document: the schema
// library then has nothing to report, and skipping it (and its generic
// decode) halves the cost of a check run. It is conservative: anything it
// is not sure of (a null, an empty string, a zero seq, an unknown property,
// a wrong type) returns false, and Decode then validates with the schema,
// which is the authority. A fuzz test holds the two to agreement.
func fastValid(raw []byte) (*Summary, bool) { return fastValidFrom(raw, strictOf(raw)) }

// fastValidFrom is fastValid with strictDecode's answer on raw already read.
func fastValidFrom(raw []byte, st strict) (*Summary, bool) {
	// Every key of a document strictDecode read is a known one, in its place.
	if bytes.Contains(raw, []byte("null")) || bytes.Contains(raw, []byte(`""`)) || !st.ok && !keysKnown(raw) {
		return nil, false
	}
	s, sv, ct, ok := st.s, st.sv, st.ct, st.ok
	if !ok {
		var shadow struct {
			Summary
			SchemaVersion *int `json:"schema_version"`
			CoversThrough *int `json:"covers_through"`
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if dec.Decode(&shadow) != nil {
			return nil, false
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, false
		}
		s = shadow.Summary
		sv, ct = shadow.SchemaVersion != nil, shadow.CoversThrough != nil
		if sv {
			s.SchemaVersion = *shadow.SchemaVersion
		}
		if ct {
			s.CoversThrough = *shadow.CoversThrough
		}
	}
	if !sv || s.SchemaVersion != SchemaVersion || !ct || s.CoversThrough < 0 {
		return nil, false
	}
	// A seq written as 0 decodes like an absent one but breaks "minimum 1".
	for _, key := range []string{`"source_seq"`, `"resolved_by"`, `"invalidated_by"`} {
		for rest := raw; ; {
			i := bytes.Index(rest, []byte(key))
			if i < 0 {
				break
			}
			rest = bytes.TrimLeft(rest[i+len(key):], " \t\r\n")
			rest = bytes.TrimLeft(bytes.TrimPrefix(rest, []byte(":")), " \t\r\n")
			if len(rest) == 0 || rest[0] < '1' || rest[0] > '9' {
				return nil, false
			}
		}
	}
	seqOK := func(n int) bool { return n >= 0 }
	for _, x := range s.Constraints {
		if x.Text == "" || !seqOK(x.SourceSeq) {
			return nil, false
		}
	}
	for _, x := range s.Decisions {
		if x.Text == "" || !seqOK(x.SourceSeq) {
			return nil, false
		}
	}
	for _, x := range s.Verified {
		if x.Claim == "" || !seqOK(x.SourceSeq) {
			return nil, false
		}
	}
	for _, x := range s.Hypotheses {
		switch x.Status {
		case "", HypothesisOpen, HypothesisRefuted, HypothesisConfirmed:
		default:
			return nil, false
		}
		if x.Claim == "" || !seqOK(x.SourceSeq) || !seqOK(x.ResolvedBy) {
			return nil, false
		}
	}
	for _, x := range s.Pending {
		switch x.Status {
		case "", PendingPending, PendingInFlight, PendingUnknown, PendingFailed, PendingDone:
		default:
			return nil, false
		}
		if x.OpID == "" && x.Description == "" || !seqOK(x.SourceSeq) {
			return nil, false
		}
	}
	for _, x := range s.Artifacts {
		switch x.Status {
		case "", ArtifactCurrent, ArtifactStale, ArtifactSuperseded, ArtifactDeleted:
		default:
			return nil, false
		}
		if x.Path == "" || !seqOK(x.SourceSeq) {
			return nil, false
		}
	}
	for _, x := range s.Corrections {
		if x.Value == "" || !seqOK(x.SourceSeq) {
			return nil, false
		}
	}
	for _, x := range s.Errors {
		if x.Text == "" || !seqOK(x.SourceSeq) {
			return nil, false
		}
	}
	if !typedStateValid(&s) {
		return nil, false
	}
	return &s, true
}

// typedStateValid is fastValid for the fields of contract 1.3: approvals
// and the handoff.
func typedStateValid(s *Summary) bool {
	for _, x := range s.Approvals {
		switch x.Status {
		case "", ApprovalValid, ApprovalExpired, ApprovalStale, ApprovalRevoked:
		default:
			return false
		}
		if x.Text == "" || x.SourceSeq < 0 || x.InvalidatedBy < 0 {
			return false
		}
	}
	if h := s.Handoff; h != nil && (h.PreviousSession == "" || h.SourceSeq < 0) {
		return false
	}
	return true
}

// knownKeys are the property names of the summary document and its items.
var knownKeys = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`schema_version covers_through goal constraints decisions
		verified hypotheses pending artifacts corrections errors next_steps text extensions
		claim source_seq status resolved_by op_id description path digest subject value
		supersedes resolution target scope condition expires approvals handoff approver
		resource invalidated_by previous_session reason approved_artifacts unresolved`) {
		knownKeys[k] = true
	}
}

// keysKnown reports whether every object key in raw is, byte for byte, a
// property name of the contract. encoding/json matches names without regard
// to case, the schema does not: a "Covers_through" must go to the schema.
func keysKnown(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(raw) && raw[j] != '"' {
			if raw[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(raw) {
			return false
		}
		k := j + 1
		for k < len(raw) && (raw[k] == ' ' || raw[k] == '\t' || raw[k] == '\n' || raw[k] == '\r') {
			k++
		}
		if k < len(raw) && raw[k] == ':' && !knownKeys[string(raw[i+1:j])] {
			return false
		}
		i = j
	}
	return true
}
