package selftest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"io"
	"slices"

	"github.com/compact-eval/compact-eval/result"
)

// ReportVersion is the version of the selftest JSON document.
const ReportVersion = 1

//go:embed selftest.schema.json
var schemaJSON []byte

// SchemaJSON returns the JSON Schema (draft 2020-12) of the selftest JSON
// document (Report).
func SchemaJSON() []byte { return bytes.Clone(schemaJSON) }

// Outcomes of a planted variant.
const (
	// Caught: a check failed that passed on the oracle, or a probe
	// regressed that the oracle kept.
	Caught = "caught"
	// Uncertain: caught but not settled. No check failed and no probe
	// regressed, but a check that passed on the oracle could not tell
	// (result.Uncertain), or a probe the oracle kept left the agent unsure
	// (result.ProbeUncertain). Never a survivor: strength counts it as
	// noticed, and the report shows it as its own count.
	Uncertain = "uncertain"
	// Survived: nothing noticed the defect.
	Survived = "survived"
	// Errored: the variant could not be evaluated (the agent failed).
	Errored = "error"
)

// Report is what selftest found: the JSON document `compact-eval selftest
// --json` writes, described by `compact-eval schema selftest`.
type Report struct {
	SelftestVersion int    `json:"selftest_version"`
	Harness         string `json:"harness"`
	// Agent is the agent that answered the probes of the variants.
	Agent     string `json:"agent"`
	Tokenizer string `json:"tokenizer"`
	// MinStrength is the gate asked for (--min-strength), nil when none.
	MinStrength *float64 `json:"min_strength,omitempty"`
	// Satisfiable is true when the oracle, in both forms, passes every
	// check and keeps every probe of every scenario.
	Satisfiable bool `json:"satisfiable"`
	// Interrupted is true when the run stopped before every scenario was
	// done; the figures cover the scenarios listed.
	Interrupted bool `json:"interrupted,omitempty"`
	Tally
	// Classes tallies the variants by class, in the order of Classes.
	Classes []ClassTally `json:"classes"`
	// Scenarios are in the order they were given.
	Scenarios []ScenarioReport `json:"scenarios"`

	probes int // probes of the scenarios done
}

// Tally counts planted variants and what became of them. Strength is
// (caught + uncertain) / planted: a defect a check or the agent noticed
// but could not settle is not missed. Nil when nothing was planted
// (nothing was measured).
type Tally struct {
	Planted   int      `json:"planted"`
	Caught    int      `json:"caught"`
	Uncertain int      `json:"uncertain"`
	Survived  int      `json:"survived"`
	Errored   int      `json:"errored"`
	Strength  *float64 `json:"strength"`
}

func (t *Tally) add(outcome string) {
	t.Planted++
	switch outcome {
	case Caught:
		t.Caught++
	case Uncertain:
		t.Uncertain++
	case Survived:
		t.Survived++
	default:
		t.Errored++
	}
	s := float64(t.Caught+t.Uncertain) / float64(t.Planted)
	t.Strength = &s
}

// ClassTally is the tally of one class.
type ClassTally struct {
	Class Class `json:"class"`
	Tally
}

// ScenarioReport is selftest's finding on one scenario.
type ScenarioReport struct {
	ID     string `json:"id"`
	File   string `json:"file"`
	Digest string `json:"digest"`
	Tally
	// Generations is the oracle's compaction timeline (structured form);
	// variants are planted in the last one.
	Generations []Generation `json:"generations"`
	// Defects are the satisfiability failures: what the oracle, a perfect
	// summary, fails. Each one is a defect of the scenario.
	Defects []Defect `json:"defects"`
	// Skipped lists the targets and classes nothing could be planted for,
	// and why.
	Skipped []Skipped `json:"skipped"`
	// Unmeasured lists the probes the agent under test cannot be measured
	// with (it answers wrong on the full context, or on the oracle).
	Unmeasured []Unmeasured `json:"unmeasured,omitempty"`
	// Variants are every planted variant with its outcome.
	Variants []VariantResult `json:"variants"`
	// Error is set when the scenario could not be selftested at all.
	Error string `json:"error,omitempty"`
}

// Generation is one compaction of the oracle's timeline.
type Generation struct {
	N       int    `json:"n"`
	Cut     int    `json:"cut"`
	Trigger string `json:"trigger"`
}

// Defect is one thing a perfect summary fails: the scenario cannot be
// passed, so its figures cannot be trusted.
type Defect struct {
	// Form is the oracle's form that failed.
	Form Form `json:"form"`
	// Generation is the generation (1-based), 0 for a probe.
	Generation int `json:"generation"`
	// Check is the check that failed (constraint, compression, …), or
	// "probe".
	Check string `json:"check"`
	// Target is the invariant or probe, nil for a structural check.
	Target *Target `json:"target,omitempty"`
	// Pos is where to fix it (the invariant's or probe's position), zero for
	// a structural check.
	Pos     result.Pos `json:"pos,omitzero"`
	Message string     `json:"message"`
	// Why is what the oracle builder could not do for the target, when it
	// explains the failure.
	Why string `json:"why,omitempty"`
}

// Unmeasured is a probe the agent under test cannot be measured with.
type Unmeasured struct {
	Probe  string `json:"probe"`
	Reason string `json:"reason"`
	// Errored is set when the agent failed (rather than answered wrong).
	Errored bool `json:"errored,omitempty"`
}

// AgentFailed reports whether the agent under test failed on every probe
// of every scenario, so that no probe measured anything (an unreachable
// endpoint must not pass as a weak agent).
func (r *Report) AgentFailed() bool {
	n := 0
	for _, s := range r.Scenarios {
		for _, u := range s.Unmeasured {
			if !u.Errored {
				return false
			}
			n++
		}
	}
	return n > 0 && n == r.probes
}

// VariantResult is one planted variant and what became of it.
type VariantResult struct {
	Variant
	// Outcome is Caught, Uncertain, Survived or Errored.
	Outcome string `json:"outcome"`
	// CaughtBy lists what noticed the defect.
	CaughtBy []Catch `json:"caught_by,omitempty"`
	// UncertainBy lists, for an uncertain variant, the checks that could
	// not tell and the probes the agent was unsure of.
	UncertainBy []Catch `json:"uncertain_by,omitempty"`
	// Why says why nothing caught a survivor.
	Why string `json:"why,omitempty"`
	// Error says why the variant could not be evaluated.
	Error string `json:"error,omitempty"`
	// Summary is the variant document, for survivors only (secrets
	// redacted).
	Summary json.RawMessage `json:"summary,omitempty"`
}

// CitationsCheck is the Check of a Catch made by the recall figures
// (evidence cited) rather than by a check of the run.
const CitationsCheck = "citations"

// Catch is one thing that noticed a planted defect: a check that failed,
// a probe that regressed, or the recall figures (Check CitationsCheck).
type Catch struct {
	// Check and Invariant name a failed check (Invariant for invariant
	// checks); Probe names a regressed probe.
	Check     string `json:"check,omitempty"`
	Invariant string `json:"invariant,omitempty"`
	Probe     string `json:"probe,omitempty"`
	// Generation is the generation the check failed at.
	Generation int    `json:"generation,omitempty"`
	Message    string `json:"message"`
}

// finish computes the report's tallies from its scenarios.
func (r *Report) finish() {
	r.Tally = Tally{}
	byClass := map[Class]*Tally{}
	r.Satisfiable = true
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		s.Tally = Tally{}
		if len(s.Defects) > 0 || s.Error != "" {
			r.Satisfiable = false
		}
		for _, v := range s.Variants {
			s.add(v.Outcome)
			r.add(v.Outcome)
			t := byClass[v.Class]
			if t == nil {
				t = &Tally{}
				byClass[v.Class] = t
			}
			t.add(v.Outcome)
		}
	}
	r.Classes = nil
	for _, c := range Classes {
		if t := byClass[c]; t != nil {
			r.Classes = append(r.Classes, ClassTally{Class: c, Tally: *t})
		}
	}
}

// Survivors returns every surviving variant, scenario by scenario.
func (r *Report) Survivors() []VariantResult {
	var out []VariantResult
	for _, s := range r.Scenarios {
		for _, v := range s.Variants {
			if v.Outcome == Survived {
				out = append(out, v)
			}
		}
	}
	return out
}

// Defective returns the scenarios with a satisfiability failure or an
// error.
func (r *Report) Defective() []ScenarioReport {
	return slices.DeleteFunc(slices.Clone(r.Scenarios), func(s ScenarioReport) bool { return len(s.Defects) == 0 && s.Error == "" })
}

// WriteJSON writes r as an indented JSON document.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}
