package guard

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// Boundary is one compaction to check: the last seq of the history the
// summary replaced, and the summary.
type Boundary struct {
	// Seq is the last seq the summary covers: the events 1..Seq are what
	// it replaced.
	Seq int
	// Summary is the summary document (docs/formats.md §2); a text
	// summary is wrapped as a text-only document.
	Summary []byte
	// Form is "text" (a text-only summary, as agents write them) or
	// "structured".
	Form string
	// Source says where the summary came from: "recorded" for a
	// compaction the log records, else the name it was given under.
	Source string
	// Recorded is the compaction the log records at Seq, nil for a
	// summary from elsewhere.
	Recorded *scenarios.RecordedCompaction
}

// Summary forms (Boundary.Form).
const (
	FormText       = "text"
	FormStructured = "structured"
)

// SourceRecorded is Boundary.Source for a compaction the log records.
const SourceRecorded = "recorded"

// Compactions lists the compactions the log records, in order, each as
// the boundary to check it at.
func (s *Session) Compactions() []Boundary {
	var out []Boundary
	for i := range s.Scenario.Recorded {
		r := &s.Scenario.Recorded[i]
		out = append(out, Boundary{Seq: r.Boundary, Summary: textDoc(r.Boundary, r.Summary), Form: FormText, Source: SourceRecorded, Recorded: r})
	}
	return out
}

// Latest is the last compaction the log records; false when it records
// none.
func (s *Session) Latest() (Boundary, bool) {
	all := s.Compactions()
	if len(all) == 0 {
		return Boundary{}, false
	}
	return all[len(all)-1], true
}

// NewBoundary is the boundary of a summary given apart from the log: raw
// is a summary document (a JSON object with schema_version) or text. seq
// is the last seq it replaced; 0 means the document's covers_through, or
// for text the history's last event.
func (s *Session) NewBoundary(raw []byte, seq int, source string) (Boundary, error) {
	b := Boundary{Seq: seq, Source: source}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return b, inputErrorf("%s: the summary is empty", source)
	}
	var probe struct {
		SchemaVersion *int `json:"schema_version"`
		CoversThrough *int `json:"covers_through"`
	}
	if trimmed[0] == '{' && json.Unmarshal(trimmed, &probe) == nil && probe.SchemaVersion != nil {
		b.Form, b.Summary = FormStructured, trimmed
		if b.Seq == 0 {
			if probe.CoversThrough == nil {
				return b, inputErrorf("%s: a summary document needs covers_through (or give the boundary)", source)
			}
			b.Seq = *probe.CoversThrough
		}
	} else {
		if b.Seq == 0 {
			b.Seq = s.Scenario.LastSeq()
		}
		b.Form, b.Summary = FormText, textDoc(b.Seq, string(raw))
	}
	if _, ok := s.eventIndex(b.Seq); !ok {
		return b, inputErrorf("%s: the boundary %d is no event of the history (its events are %d..%d)", source, b.Seq, s.firstSeq(), s.Scenario.LastSeq())
	}
	if r, ok := s.Scenario.RecordedAt(b.Seq); ok && source == SourceRecorded {
		b.Recorded = r
	}
	return b, nil
}

// At is the compaction the log records at seq; false when none does.
func (s *Session) At(seq int) (Boundary, bool) {
	for _, b := range s.Compactions() {
		if b.Seq == seq {
			return b, true
		}
	}
	return Boundary{}, false
}

// textDoc wraps a text summary as a text-only summary document covering
// through seq, as `run --summarizer recorded` does.
func textDoc(seq int, text string) []byte {
	doc, _ := json.Marshal(summary.Summary{SchemaVersion: summary.SchemaVersion, CoversThrough: seq, Text: text})
	return doc
}

func (s *Session) eventIndex(seq int) (int, bool) {
	for i, e := range s.Scenario.Events {
		if e.Seq == seq {
			return i, true
		}
	}
	return -1, false
}

func (s *Session) firstSeq() int {
	if len(s.Scenario.Events) == 0 {
		return 0
	}
	return s.Scenario.Events[0].Seq
}

// previous is the compaction the log records last before seq: the
// summary the one at seq was built on, nil when there is none.
func (s *Session) previous(seq int) *scenarios.RecordedCompaction {
	var prev *scenarios.RecordedCompaction
	for i := range s.Scenario.Recorded {
		if r := &s.Scenario.Recorded[i]; r.Boundary < seq && (prev == nil || r.Boundary > prev.Boundary) {
			prev = r
		}
	}
	return prev
}

func (b Boundary) String() string {
	if r := b.Recorded; r != nil {
		return fmt.Sprintf("the compaction after seq %d (%s)", b.Seq, provenance(r))
	}
	return fmt.Sprintf("the summary %s, after seq %d", b.Source, b.Seq)
}

// provenance is "claude-code, auto, 167402 tokens before".
func provenance(r *scenarios.RecordedCompaction) string {
	var parts []string
	if r.Tool != "" {
		parts = append(parts, r.Tool)
	}
	if r.Trigger != "" {
		parts = append(parts, r.Trigger)
	}
	if r.PreTokens > 0 {
		parts = append(parts, fmt.Sprintf("%d tokens before", r.PreTokens))
	}
	if len(parts) == 0 {
		return "recorded"
	}
	return joinComma(parts)
}

func joinComma(parts []string) string {
	var b bytes.Buffer
	for i, p := range parts {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p)
	}
	return b.String()
}
