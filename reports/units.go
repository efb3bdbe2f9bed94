package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/compact-eval/compact-eval/result"
)

// Price is what a model target charges, in US dollars per million tokens
// (the config file's prices:).
type Price struct {
	// Input is the price of a million prompt tokens, Output of a million
	// completion tokens. Zero is free.
	Input, Output float64
}

// Prices are the prices of model targets, by target name or spec as the
// config file's prices: keys them.
type Prices map[string]Price

// Pricing prices the calls of a run's units: each by the name of the
// target it ran for (the unit's summarizer, the run's agent or judge),
// else by the spec it records.
type Pricing struct {
	// Prices nil: no cost is known.
	Prices Prices
	// Agent and Judge are the run's agent and judge names (RunConfig).
	Agent, Judge string
}

// PricingOf is the pricing of r's calls with prices.
func PricingOf(r *result.Result, prices Prices) Pricing {
	return Pricing{Prices: prices, Agent: r.Config.Agent, Judge: r.Config.Judge}
}

// Tally counts the outcomes of one kind of check in a unit.
type Tally struct {
	Pass, Fail, Uncertain, Error, Skip int
}

// Judged is the outcomes a rate is taken over: pass, fail and uncertain
// (an uncertain outcome is never kept), as every headline counts them.
func (t Tally) Judged() int { return t.Pass + t.Fail + t.Uncertain }

func (t *Tally) add(s result.Status) {
	switch s {
	case result.Pass:
		t.Pass++
	case result.Fail:
		t.Fail++
	case result.Uncertain:
		t.Uncertain++
	case result.Error:
		t.Error++
	default:
		t.Skip++
	}
}

// Unit verdicts (UnitFigures.Verdict), worst first.
const (
	VerdictFail      = "fail"      // an invariant lost or a decision regressed
	VerdictError     = "error"     // the unit, a generation, a check or an agent call errored, and nothing was lost
	VerdictUncertain = "uncertain" // a check or a probe could not tell, and nothing was lost or errored
	VerdictPass      = "pass"      // something was judged and all of it was kept
	VerdictSkip      = "skip"      // nothing was judged (the control arm, a summarizer that does not apply)
)

// UnitFigures are one unit's figures, as the per-unit CSV (format
// units-csv) and the viewer's grid show them.
type UnitFigures struct {
	Scenario, Summarizer, File string
	// Trial is 0-based, as in the result.
	Trial int
	// Status is the unit's status (ok, error, abandoned); Skipped is set
	// when the summarizer did not apply to the scenario.
	Status  string
	Skipped bool
	// Invariants and Structural count the checks of every generation;
	// Decisions the probes by their status in the decisions aggregate
	// (kept passes, compaction_regression fails, agent_error and
	// compacted_only are skips).
	Invariants, Structural, Decisions Tally
	// Generations counts the generations with a summary; SummaryTokens and
	// ReplacedTokens are their sums. Compression is the median over them of
	// summary tokens ÷ replaced tokens, as every report computes it; HasCompression
	// is false when no generation had both.
	Generations                   int
	SummaryTokens, ReplacedTokens int
	Compression                   float64
	HasCompression                bool
	// The tokens the calls reported (prompt: in; completion: out), of the
	// summarizer's calls, the agent's (both arms and the recall arm) and
	// the judge's.
	SummarizerIn, SummarizerOut int
	AgentIn, AgentOut           int
	JudgeIn, JudgeOut           int
	// Calls counts the summarizer, agent and judge calls; CacheHits those
	// answered by the response cache; Retries the retries they took.
	Calls, CacheHits, Retries int
	// SummarizerLatency is the sum of the summarizer calls' latencies;
	// Duration the unit's wall time.
	SummarizerLatency, Duration time.Duration
	// Cost is the price of the tokens the calls reported, in US dollars;
	// CostKnown is false when a call that reported tokens has no price
	// (and always without prices).
	Cost      float64
	CostKnown bool
	// Error is the unit's error, else its first generation's ("" when
	// neither errored).
	Error string
}

// Verdict is the unit's verdict, one of the Verdict constants: fail when an
// invariant failed or a decision regressed, else error when anything
// errored, else uncertain when a check or probe could not tell, else pass
// when something was judged, else skip. Structural checks do not make the
// verdict (they are counted apart).
func (f *UnitFigures) Verdict() string {
	switch {
	case f.Invariants.Fail+f.Decisions.Fail > 0:
		return VerdictFail
	case f.Status != result.UnitOK || f.Error != "" || f.Invariants.Error+f.Structural.Error+f.Decisions.Error > 0:
		return VerdictError
	case f.Invariants.Uncertain+f.Decisions.Uncertain > 0:
		return VerdictUncertain
	case f.Invariants.Pass+f.Decisions.Pass > 0:
		return VerdictPass
	}
	return VerdictSkip
}

// FiguresOf computes u's figures, its calls priced by p.
func FiguresOf(u *result.Unit, p Pricing) UnitFigures {
	f := UnitFigures{Scenario: u.Scenario.ID, Summarizer: u.Summarizer, File: u.Scenario.File, Trial: u.Trial,
		Status: u.Status, Skipped: u.Skipped != "", Duration: u.Duration, Error: u.Error}
	pr := pricer{prices: p.Prices, known: p.Prices != nil}
	var ratios []float64
	for i := range u.Generations {
		g := &u.Generations[i]
		if f.Error == "" && g.Error != "" {
			f.Error = g.Error
		}
		if called(&g.Call) {
			f.count(&g.Call)
			f.SummarizerIn += g.Call.Usage.PromptTokens
			f.SummarizerOut += g.Call.Usage.CompletionTokens
			f.SummarizerLatency += g.Call.Latency
			pr.add(&g.Call, u.Summarizer)
		}
		if len(g.Summary) > 0 {
			f.Generations++
			f.SummaryTokens += g.SummaryTokens
			f.ReplacedTokens += g.ReplacedTokens
			if g.ReplacedTokens > 0 {
				ratios = append(ratios, float64(g.SummaryTokens)/float64(g.ReplacedTokens))
			}
		}
		for j := range g.Checks {
			c := &g.Checks[j]
			if c.Kind == result.KindInvariant {
				f.Invariants.add(c.Status)
			} else {
				f.Structural.add(c.Status)
			}
			if c.Judge != nil {
				f.judge(&c.Judge.Call, &pr, p.Judge)
			}
		}
	}
	for i := range u.Probes {
		pb := &u.Probes[i]
		f.Decisions.add(result.DecisionStatus(pb.Class))
		for _, d := range []*result.Decision{&pb.Full, &pb.Compacted, pb.Recall} {
			if d == nil {
				continue
			}
			if called(&d.Call) {
				f.count(&d.Call)
				f.AgentIn += d.Call.Usage.PromptTokens
				f.AgentOut += d.Call.Usage.CompletionTokens
				pr.add(&d.Call, p.Agent)
			}
			if d.Judge != nil {
				f.judge(&d.Judge.Call, &pr, p.Judge)
			}
		}
	}
	if len(ratios) > 0 {
		slices.Sort(ratios)
		m := len(ratios) / 2
		f.Compression, f.HasCompression = ratios[m], true
		if len(ratios)%2 == 0 {
			f.Compression = (ratios[m-1] + ratios[m]) / 2
		}
	}
	f.Cost, f.CostKnown = pr.cost, pr.known
	return f
}

// called reports whether c records a call (a probe skipped has none).
func called(c *result.Call) bool {
	return c.Spec != "" || c.Latency > 0 || c.Usage != (result.Usage{})
}

func (f *UnitFigures) count(c *result.Call) {
	f.Calls++
	f.Retries += c.Retries
	if c.CacheHit {
		f.CacheHits++
	}
}

func (f *UnitFigures) judge(c *result.Call, pr *pricer, name string) {
	f.count(c)
	f.JudgeIn += c.Usage.PromptTokens
	f.JudgeOut += c.Usage.CompletionTokens
	pr.add(c, name)
}

// pricer sums the cost of calls; known turns false at the first call that
// reported tokens and has no price.
type pricer struct {
	prices Prices
	cost   float64
	known  bool
}

func (p *pricer) add(c *result.Call, name string) {
	if c.Usage == (result.Usage{}) {
		return
	}
	price, ok := p.prices[name]
	if !ok {
		price, ok = p.prices[c.Spec]
	}
	if !ok {
		p.known = false
		return
	}
	p.cost += (float64(c.Usage.PromptTokens)*price.Input + float64(c.Usage.CompletionTokens)*price.Output) / 1e6
}

// UnitColumns are the columns of the per-unit CSV (format units-csv), in
// order (docs/formats.md, "CSV").
var UnitColumns = []string{"run_id", "scenario", "summarizer", "trial", "status", "verdict",
	"invariants_pass", "invariants_fail", "invariants_uncertain", "invariants_error", "invariants_skip",
	"structural_pass", "structural_fail", "structural_uncertain", "structural_error", "structural_skip",
	"decisions_kept", "decisions_regressed", "decisions_uncertain", "decisions_error", "decisions_skip",
	"generations", "summary_tokens", "replaced_tokens", "compression",
	"summarizer_tokens_in", "summarizer_tokens_out", "agent_tokens_in", "agent_tokens_out", "judge_tokens_in", "judge_tokens_out",
	"calls", "cache_hits", "retries", "summarizer_latency_ms", "duration_ms", "cost_usd", "error", "file"}

// UnitRecord is f's row of the per-unit CSV, under UnitColumns, for the
// run runID: counts as integers, the compression to four decimals, times
// in milliseconds to one, the cost in dollars to six; a figure that is not
// known (no compression, no price) is empty. Text cells a spreadsheet would
// read as a formula get a leading apostrophe, as in WriteCSV.
func UnitRecord(runID string, f *UnitFigures) []string {
	status := f.Status
	if f.Skipped {
		status = "skipped"
	}
	compression, cost := "", ""
	if f.HasCompression {
		compression = strconv.FormatFloat(f.Compression, 'f', 4, 64)
	}
	if f.CostKnown {
		cost = strconv.FormatFloat(f.Cost, 'f', 6, 64)
	}
	ms := func(d time.Duration) string {
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64)
	}
	row := []string{cell(runID), cell(f.Scenario), cell(f.Summarizer), strconv.Itoa(f.Trial + 1), status, f.Verdict()}
	for _, t := range []Tally{f.Invariants, f.Structural, f.Decisions} {
		row = append(row, strconv.Itoa(t.Pass), strconv.Itoa(t.Fail), strconv.Itoa(t.Uncertain), strconv.Itoa(t.Error), strconv.Itoa(t.Skip))
	}
	for _, n := range []int{f.Generations, f.SummaryTokens, f.ReplacedTokens} {
		row = append(row, strconv.Itoa(n))
	}
	row = append(row, compression)
	for _, n := range []int{f.SummarizerIn, f.SummarizerOut, f.AgentIn, f.AgentOut, f.JudgeIn, f.JudgeOut, f.Calls, f.CacheHits, f.Retries} {
		row = append(row, strconv.Itoa(n))
	}
	return append(row, ms(f.SummarizerLatency), ms(f.Duration), cost, cell(f.Error), cell(f.File))
}

// WriteUnitsCSV writes one row per unit of r, in result order, under a
// header of UnitColumns (see UnitRecord), its calls priced with prices.
func WriteUnitsCSV(w io.Writer, r *result.Result, prices Prices) error {
	cw := csv.NewWriter(w)
	cw.Write(UnitColumns)
	p := PricingOf(r, prices)
	for i := range r.Units {
		f := FiguresOf(&r.Units[i], p)
		cw.Write(UnitRecord(r.RunID, &f))
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing csv: %w", err)
	}
	return nil
}
