package viewer

import (
	"encoding/json"
	"time"

	"github.com/compact-eval/compact-eval/result"
)

// The decode of a unit for its figures alone (the grid, units.csv).
//
// reports.FiguresOf reads a few fields of a unit: statuses, classes,
// token counts, calls. encoding/json must scan every byte of a unit's line
// whatever it decodes, but decoding every field (messages, evidence,
// summaries, reasons, diffs, plans) allocates as much again: a unit decoded
// into slimUnit costs about half of one decoded in full. slimUnit mirrors
// the fields FiguresOf reads, under their names in result.json, and
// nothing else; TestSlimFigures keeps its figures equal to the full
// decode's for a unit that sets every one of them.

type slimCall struct {
	Spec     string        `json:"spec"`
	Latency  time.Duration `json:"latency_ns"`
	Usage    result.Usage  `json:"usage"`
	Retries  int           `json:"retries"`
	CacheHit bool          `json:"cache_hit"`
}

func (c slimCall) call() result.Call {
	return result.Call{Spec: c.Spec, Latency: c.Latency, Usage: c.Usage, Retries: c.Retries, CacheHit: c.CacheHit}
}

type slimJudge struct {
	Call slimCall `json:"call"`
}

func (j *slimJudge) judgement() *result.Judgement {
	if j == nil {
		return nil
	}
	return &result.Judgement{Call: j.Call.call()}
}

type slimDecision struct {
	Call  slimCall   `json:"call"`
	Judge *slimJudge `json:"judge"`
}

func (d slimDecision) decision() result.Decision {
	return result.Decision{Call: d.Call.call(), Judge: d.Judge.judgement()}
}

// present records whether a value is there (not null), never the value.
type present bool

func (p *present) UnmarshalJSON(b []byte) error {
	*p = string(b) != "null"
	return nil
}

type slimUnit struct {
	Scenario struct {
		ID   string `json:"id"`
		File string `json:"file"`
	} `json:"scenario"`
	Summarizer  string        `json:"summarizer"`
	Trial       int           `json:"trial"`
	Status      string        `json:"status"`
	Error       string        `json:"error"`
	Skipped     string        `json:"skipped"`
	Duration    time.Duration `json:"duration_ns"`
	Generations []struct {
		Error          string   `json:"error"`
		Call           slimCall `json:"call"`
		Summary        present  `json:"summary"`
		SummaryTokens  int      `json:"summary_tokens"`
		ReplacedTokens int      `json:"replaced_tokens"`
		Checks         []struct {
			Kind   string        `json:"kind"`
			Status result.Status `json:"status"`
			Judge  *slimJudge    `json:"judge"`
		} `json:"checks"`
	} `json:"generations"`
	Probes []struct {
		Class     string        `json:"class"`
		Full      slimDecision  `json:"full"`
		Compacted slimDecision  `json:"compacted"`
		Recall    *slimDecision `json:"recall"`
	} `json:"probes"`
}

// someSummary stands for a summary that is there.
var someSummary = json.RawMessage("{}")

// decodeSlim decodes one unit's line with only what its figures need.
func decodeSlim(line []byte) (*result.Unit, error) {
	var s slimUnit
	if err := json.Unmarshal(line, &s); err != nil {
		return nil, err
	}
	u := &result.Unit{Scenario: result.ScenarioRef{ID: s.Scenario.ID, File: s.Scenario.File}, Summarizer: s.Summarizer,
		Trial: s.Trial, Status: s.Status, Error: s.Error, Skipped: s.Skipped, Duration: s.Duration}
	for _, sg := range s.Generations {
		g := result.Generation{Error: sg.Error, Call: sg.Call.call(), SummaryTokens: sg.SummaryTokens, ReplacedTokens: sg.ReplacedTokens}
		if sg.Summary {
			g.Summary = someSummary
		}
		for _, sc := range sg.Checks {
			g.Checks = append(g.Checks, result.CheckResult{Kind: sc.Kind, Status: sc.Status, Judge: sc.Judge.judgement()})
		}
		u.Generations = append(u.Generations, g)
	}
	for _, sp := range s.Probes {
		p := result.Probe{Class: sp.Class, Full: sp.Full.decision(), Compacted: sp.Compacted.decision()}
		if sp.Recall != nil {
			d := sp.Recall.decision()
			p.Recall = &d
		}
		u.Probes = append(u.Probes, p)
	}
	return u, nil
}
