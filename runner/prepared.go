package runner

import (
	"context"
	"errors"
	"time"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Prepared is one scenario made ready to run units in memory, with no run
// folder and no journal: its token counts and safe cut boundaries are
// computed once and shared by every unit run from it. It is for callers
// that need a unit's generations, checks and probes as values (compact-eval
// selftest runs hundreds of units of one scenario this way); Run remains the
// way to evaluate a suite. A Prepared is safe for concurrent use.
type Prepared struct{ p *prepared }

// Prepare readies sc for in-memory units, counting tokens with the named
// encoding ("" means tokens.DefaultEncoding). sc must not be modified
// afterwards.
func Prepare(sc *scenarios.Scenario, tokenizer string) (*Prepared, error) {
	if sc == nil {
		return nil, errors.New("no scenario")
	}
	counter, err := tokens.Get(tokenizer)
	if err != nil {
		return nil, err
	}
	return &Prepared{p: prepare(sc, counter)}, nil
}

// RecallIndex is the scenario's history indexed for the recall tool, built
// once and shared by every unit: what the recall figures (citation
// quality) are measured against.
func (p *Prepared) RecallIndex() *agents.RecallIndex { return p.p.recallIndex() }

// Unit runs one unit of the prepared scenario exactly as Run does (the
// timeline, install, the checks of every generation, then every probe on
// the full and the compacted context) and returns it. check nil means
// checks.Run. Canceling ctx stops the summarizer and agent calls in flight;
// the unit then ends in error. Unlike Run, secrets are not redacted from the
// unit: the caller decides what it shows.
func (pr *Prepared) Unit(ctx context.Context, s Summarizer, agent agents.Agent, trial int, check func(*checks.Input) []result.CheckResult) result.Unit {
	if check == nil {
		check = checks.Run
	}
	u := &unit{p: pr.p, spec: s.Name, sum: s.Summarizer, agent: agent, trial: trial, check: check, hard: ctx, now: time.Now}
	return u.run()
}

// RecallUnit is Unit with the recall arm asked within limits lim (zero
// fields: agents.DefaultRecallLimits), as Run does with Options.Recall.
func (pr *Prepared) RecallUnit(ctx context.Context, s Summarizer, agent agents.Agent, trial int, check func(*checks.Input) []result.CheckResult, lim agents.RecallLimits) result.Unit {
	if check == nil {
		check = checks.Run
	}
	l := lim.WithDefaults()
	u := &unit{p: pr.p, spec: s.Name, sum: s.Summarizer, agent: agent, trial: trial, check: check, hard: ctx, now: time.Now, recall: &l}
	return u.run()
}

// EventTokens returns the token count attributed to each event of the
// scenario, in order (the counts the timeline sums): what `compact-eval
// validate --show` prints.
func (pr *Prepared) EventTokens() []int {
	return append([]int(nil), pr.p.tok...)
}

// HeaderTokens returns the token count of the context's header (rules and
// goal) with no summary.
func (pr *Prepared) HeaderTokens() int { return pr.p.headerBase }
