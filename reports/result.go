package reports

import (
	"io"

	"github.com/compact-eval/compact-eval/reports/result"
)

// The canonical result model lives in package reports/result; these names
// keep the callers of package reports compiling. See that package for the
// documentation of each.

// ResultVersion is the version of the canonical JSON result.
const ResultVersion = result.ResultVersion

// The types of the canonical result.
type (
	Result            = result.Result
	RunConfig         = result.RunConfig
	ScenarioRef       = result.ScenarioRef
	Unit              = result.Unit
	Generation        = result.Generation
	Decision          = result.Decision
	Sampling          = result.Sampling
	Probe             = result.Probe
	Aggregate         = result.Aggregate
	SummarizerSummary = result.SummarizerSummary
	JudgeSummary      = result.JudgeSummary
	Disagreement      = result.Disagreement
)

// Unit statuses.
const (
	UnitOK        = result.UnitOK
	UnitError     = result.UnitError
	UnitAbandoned = result.UnitAbandoned
)

// Probe outcome classes.
const (
	Kept                 = result.Kept
	CompactionRegression = result.CompactionRegression
	AgentError           = result.AgentError
	CompactedOnly        = result.CompactedOnly
	ProbeErrored         = result.ProbeErrored
	ProbeSkipped         = result.ProbeSkipped
)

// Disagreement kinds.
const (
	PassContradicted = result.PassContradicted
	FailKept         = result.FailKept
)

// CheckDecisions is the pseudo check type of probe outcomes
// (result.CheckDecisions); KindDecision is its Kind.
const (
	CheckDecisions = result.CheckDecisions
	KindDecision   = result.KindDecision
)

// InvariantTypes and StructuralChecks list the check types of docs/formats.md §2
// in the order reports show them. Unknown check types follow, sorted.
var (
	InvariantTypes   = result.InvariantTypes
	StructuralChecks = result.StructuralChecks
)

// SchemaJSON returns the JSON Schema of the canonical result
// (result.SchemaJSON).
func SchemaJSON() []byte { return result.SchemaJSON() }

// WriteJSON writes r as canonical JSON (result.WriteJSON).
func WriteJSON(w io.Writer, r *Result) error { return result.WriteJSON(w, r) }

// Decode parses a result document with the rules of Read (result.Decode).
func Decode(data []byte) (*Result, error) { return result.Decode(data) }

// Merge joins the results of the shards of one run (result.Merge).
func Merge(results ...*Result) (*Result, error) { return result.Merge(results...) }

// Summarizers returns the summarizers of r in report order
// (result.Summarizers).
func Summarizers(r *Result) []string { return result.Summarizers(r) }

// FindAggregate returns the aggregate of summarizer × check in r, or nil
// (result.FindAggregate).
func FindAggregate(r *Result, summarizer, check string) *Aggregate {
	return result.FindAggregate(r, summarizer, check)
}

// CheckTypes returns the check types present in r.Aggregates, in report
// order (result.CheckTypes).
func CheckTypes(r *Result) []string { return result.CheckTypes(r) }

// Ranked returns the summaries of r best first (result.Ranked).
func Ranked(r *Result) []SummarizerSummary { return result.Ranked(r) }

// Wilson returns the Wilson score 95% interval of pass successes out of n
// trials, and the observed rate (result.Wilson).
func Wilson(pass, n int) (rate, low, high float64) { return result.Wilson(pass, n) }
