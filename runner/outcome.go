package runner

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/internal/version"
)

// newHeader is the result's header for a run of suite started at started:
// the configuration, with no unit yet.
func newHeader(opts *Options, trials int, tokenizer string, suite []result.SuiteScenario, started time.Time) *result.Result {
	h := &result.Result{
		ResultVersion: result.ResultVersion, Harness: version.Harness(),
		RunID: opts.RunID, Started: started, Git: opts.Git,
		Config: result.RunConfig{Agent: opts.AgentName, Trials: trials, Shard: opts.Shard.String(), Paths: opts.Paths, Tokenizer: tokenizer,
			Scenarios: opts.Scenarios, Judge: opts.JudgeName, JudgeGate: opts.JudgeGate, JudgeScope: opts.judgeScope(),
			AgentSeed: opts.AgentSeed, AgentSamples: opts.AgentSamples, Suite: suite, Flags: opts.Flags},
	}
	if h.RunID == "" {
		h.RunID = NewRunID(started)
	}
	if l := opts.recall(); l != nil {
		h.Config.Recall = &result.RecallConfig{Calls: l.Calls, Events: l.Events, Tokens: l.Tokens}
	}
	if opts.Run != nil {
		h.Config.Run = opts.Run.String()
	}
	for _, s := range opts.Summarizers {
		h.Config.Summarizers = append(h.Config.Summarizers, s.Name)
	}
	if keys := redact.Keys(); keys != nil {
		result.RedactHeader(h, keys)
	}
	return h
}

// outcome writes the result file of the run planned as pl from its journal
// j and returns what the run did: interrupted, with the command that
// resumes it, when some planned unit did not finish (the error then wraps
// ErrInterrupted).
func outcome(pl *plan, j *journal, header *result.Result, opts *Options, now func() time.Time, ran, reused int) (*Outcome, error) {
	out := &Outcome{Planned: len(pl.jobs), Ran: ran, Reused: reused}
	missing := pl.missing(j.finished)
	if missing > 0 {
		out.Interrupted = true
		out.Resume = opts.ResumeCommand
		if out.Resume == "" {
			out.Resume = "compact-eval run --resume " + opts.Out
		}
		header.Interrupted, header.Resume = true, out.Resume
		header.Warnings = append(header.Warnings, fmt.Sprintf("%d of %d units did not finish; resume with: %s", missing, len(pl.jobs), out.Resume))
	}
	header.Finished = now().UTC()
	if keys := redact.Keys(); keys != nil {
		result.RedactHeader(header, keys)
	}
	out.ResultPath = filepath.Join(opts.Out, ResultFile)
	if err := writeResult(out.ResultPath, header, j, pl.keys(), opts.OnUnit); err != nil {
		return nil, err
	}
	out.Header = header
	if out.Interrupted {
		return out, fmt.Errorf("%w: %d of %d units did not finish", ErrInterrupted, missing, len(pl.jobs))
	}
	return out, nil
}
