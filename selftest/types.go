package selftest

import (
	"encoding/json"

	"github.com/compact-eval/compact-eval/result"
)

// Form is the shape of an oracle summary.
type Form string

// The two forms of the oracle (docs/formats.md §3): every field the contract
// has, or text alone.
const (
	Structured Form = "structured"
	TextOnly   Form = "text"
)

// Forms lists the oracle's forms in the order selftest checks them.
var Forms = []Form{Structured, TextOnly}

// Class is a class of planted defect.
type Class string

// The classes of planted defects, in the order reports list them. Which
// class applies to which invariant type is in docs/selftest.md and on
// plant.
const (
	// Omit drops the fact.
	Omit Class = "omit"
	// Invert states the opposite with the same words: a negated rule, a
	// reversed correction, a re-asserted refuted hypothesis, an operation
	// marked done, a swapped unit, the wrong file marked live.
	Invert Class = "invert"
	// MoveToText states the fact only in the free text of a structured
	// summary, outside the field that carries it.
	MoveToText Class = "move-to-text"
	// MoveToSupersedes parks the fact in corrections[].supersedes, the field
	// that holds only old values.
	MoveToSupersedes Class = "move-to-supersedes"
	// MoveToExtensions parks the fact under extensions.
	MoveToExtensions Class = "move-to-extensions"
	// OverList lists everything so that the right one is among them: both
	// near-twin files with no status, every operation as unknown, both
	// values of a correction.
	OverList Class = "over-list"
	// FabricateCitation cites an event that does not support the entry.
	FabricateCitation Class = "fabricate-citation"
	// RemoveCitation keeps every word of the summary and drops its
	// citations (source_seq, resolved_by) of the invariant's evidence:
	// nothing leads back to the stored events, which the recall figures
	// ("evidence cited") measure.
	RemoveCitation Class = "remove-citation"
	// RelationSwap keeps the cited event's own tokens and swaps their
	// relation: a quoted figure trades places with another figure of the
	// same sentence (the TTFT budget gets the timeout's value).
	RelationSwap Class = "relation-swap"
	// LeakWhole copies a secret into the summary.
	LeakWhole Class = "leak-whole"
	// LeakPart copies part of a secret into the summary.
	LeakPart Class = "leak-part"
)

// Classes lists every class, in report order.
var Classes = []Class{Omit, Invert, MoveToText, MoveToSupersedes, MoveToExtensions, OverList, FabricateCitation, RemoveCitation, RelationSwap, LeakWhole, LeakPart}

// Target kinds.
const (
	KindInvariant = "invariant"
	KindProbe     = "probe"
)

// Target is what a planted variant is derived from: one invariant or one
// probe of a scenario.
type Target struct {
	// Kind is KindInvariant or KindProbe.
	Kind string `json:"kind"`
	// ID is the invariant's or the probe's id.
	ID string `json:"id"`
	// Type is the invariant type (constraint, …), or "probe".
	Type string `json:"type"`
	// Pos is where the invariant or probe is written in its file.
	Pos result.Pos `json:"pos"`
}

// key names a target uniquely within its scenario.
func (t Target) key() string { return t.Kind + ":" + t.ID }

// String is "invariant ro" or "probe apply-patch".
func (t Target) String() string { return t.Kind + " " + t.ID }

// Labels of a document: what a perfect judge would say of it.
const (
	// LabelFaithful is the oracle: it keeps everything and breaks nothing.
	LabelFaithful = "faithful"
	// LabelDefect is a planted variant: exactly one defect of its class.
	LabelDefect = "defect"
)

// Variant is one planted single-defect summary: the oracle of one
// generation with one defect of one class planted for one target. The list
// of variants (Plan.Variants) is the data set a judge can be scored
// against: every variant is labelled LabelDefect, every oracle document
// LabelFaithful.
type Variant struct {
	Scenario string `json:"scenario"`
	Target   Target `json:"target"`
	Class    Class  `json:"class"`
	// Detail tells apart the variants of one class for one target ("status
	// confirmed", "listed in verified"); "" when the class has one.
	Detail string `json:"detail,omitempty"`
	// Generation is the generation the defect is planted in (1-based): the
	// last one, whose summary the probes read; Cut is its cut.
	Generation int `json:"generation"`
	Cut        int `json:"cut"`
	// Said is what the variant states in place of the fact, one line; a
	// secret is shown as [redacted:ID].
	Said string `json:"said"`
	// Document is the variant summary document of that generation.
	Document json.RawMessage `json:"-"`
	// Label is LabelDefect.
	Label string `json:"label"`
}

// ID names the variant within its scenario: target, class and detail.
func (v *Variant) ID() string {
	id := v.Target.key() + "/" + string(v.Class)
	if v.Detail != "" {
		id += "/" + v.Detail
	}
	return id
}
