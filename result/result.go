package result

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// ResultVersion is the version of the canonical JSON result. It changes when a
// field changes meaning or disappears; adding fields does not change it.
const ResultVersion = 1

// Result is the canonical result of a run: every unit, every check result
// and every decision, with provenance. Every report format is rendered from it.
type Result struct {
	ResultVersion int       `json:"result_version"`
	Harness       string    `json:"harness"` // compact-eval version
	RunID         string    `json:"run_id"`
	Started       time.Time `json:"started"`
	Finished      time.Time `json:"finished,omitzero"`
	Config        RunConfig `json:"config"`
	// Units are sorted by scenario id, summarizer (in config order) and trial.
	Units []Unit `json:"units"`
	// Aggregates are computed from Units by Result.Aggregate.
	Aggregates []Aggregate `json:"aggregates,omitempty"`
	// Summaries are the per-summarizer headline figures, computed by
	// Result.Aggregate.
	Summaries []SummarizerSummary `json:"summaries,omitempty"`
	// Judge counts the model judge's verdicts per summarizer, and
	// Disagreements lists the invariants on which check and judge disagree
	// (run --judge); both computed by Result.Aggregate, nil without a judge.
	Judge         []JudgeSummary `json:"judge,omitempty"`
	Disagreements []Disagreement `json:"disagreements,omitempty"`
	Warnings      []string       `json:"warnings,omitempty"`
	// Interrupted is set when the run stopped early (Ctrl-C); Resume holds
	// the command that finishes it.
	Interrupted bool   `json:"interrupted,omitempty"`
	Resume      string `json:"resume,omitempty"`
	// MissingShards lists the shards ("i/n") a merged result lacks: its
	// evidence is partial, and the gates fail on it.
	MissingShards []string `json:"missing_shards,omitempty"`
	// Git is the state of the git checkout the run was started in, nil
	// when the working directory is not one (or git is not installed).
	Git *Git `json:"git,omitempty"`
}

// Git is the state of a git checkout when a run started.
type Git struct {
	// Commit is the full hash of HEAD.
	Commit string `json:"commit"`
	// Branch is the checked-out branch, "" when HEAD is detached.
	Branch string `json:"branch,omitempty"`
	// Dirty is set when a tracked file differs from HEAD (staged or
	// not); untracked files do not count.
	Dirty bool `json:"dirty,omitempty"`
}

// RunConfig is what the run was asked to do.
type RunConfig struct {
	Summarizers []string `json:"summarizers"`
	Agent       string   `json:"agent"`
	Trials      int      `json:"trials"`
	Shard       string   `json:"shard,omitempty"` // "i/n"
	Paths       []string `json:"paths,omitempty"`
	// Run and Scenarios are the scenario filters of the run (--run REGEXP
	// on the id, --scenario ID…); empty: every scenario of the paths.
	Run       string   `json:"run,omitempty"`
	Scenarios []string `json:"scenarios,omitempty"`
	Tokenizer string   `json:"tokenizer"`
	// Judge is the model judge's name (run --judge), "" when none was
	// asked; JudgeGate is set when its contradicted verdicts fail
	// invariants (--judge-gate).
	Judge     string `json:"judge,omitempty"`
	JudgeGate bool   `json:"judge_gate,omitempty"`
	// JudgeScope is which invariants the judge was asked about (run
	// --judge-scope): JudgeScopeUncertain or JudgeScopeAll. "" with a judge
	// is a result written before the scope existed: all.
	JudgeScope string `json:"judge_scope,omitempty"`
	// AgentSeed and AgentSamples are how an openai: agent's choice probes
	// are asked (--agent-seed, --agent-samples); zero for other agents.
	AgentSeed    uint64 `json:"agent_seed,omitempty"`
	AgentSamples int    `json:"agent_samples,omitempty"`
	// Suite is the scenarios the run planned (after --run, --scenario and
	// --shard), each with the digest of its meaning: --resume refuses a
	// suite that differs, naming the scenarios. Absent in a result written
	// before it existed.
	Suite []SuiteScenario `json:"suite,omitempty"`
	// Recall is the recall arm's limits when the run asked it (run
	// --recall), nil otherwise (docs/formats.md, "The recall arm").
	Recall *RecallConfig `json:"recall,omitempty"`
	// Flags are the flags the run was started with on the command line,
	// each NAME=VALUE (a repeatable flag once per value), those that do
	// not change what the run is (--out, --resume, --repair, --dry-run,
	// --progress) aside: a bare --resume DIR reads them back. Absent in a
	// result written before it existed.
	Flags []string `json:"flags,omitempty"`
	// Redact lists secret values' ids → values are never written; see Redact.
}

// RecallConfig is what the recall tool allowed per probe: Calls calls,
// each returning at most Events events and Tokens tokens.
type RecallConfig struct {
	Calls  int `json:"calls"`
	Events int `json:"events"`
	Tokens int `json:"tokens"`
}

// SuiteScenario is one scenario a run planned.
// Like a unit's scenario, it is the run's identity: never redacted, so
// that the units and the suite they were planned from stay comparable.
type SuiteScenario struct {
	ID     string `json:"id" redact:"keep"`
	Digest string `json:"digest" redact:"keep"`
}

// Unit statuses.
const (
	UnitOK        = "ok"        // every generation and probe ran
	UnitError     = "error"     // the summarizer or agent failed; Error says why
	UnitAbandoned = "abandoned" // interrupted before it finished
)

// ScenarioRef identifies the scenario a unit ran.
type ScenarioRef struct {
	ID    string `json:"id" redact:"keep"`
	Title string `json:"title,omitempty"`
	File  string `json:"file"`
	// Digest is the digest of the scenario's meaning (comments and
	// formatting do not change it); FileDigest that of the file's bytes.
	// A result written before meaning digests has no FileDigest, and its
	// Digest is of the bytes.
	Digest     string   `json:"digest" redact:"keep"`
	FileDigest string   `json:"file_digest,omitempty" redact:"keep"`
	Tags       []string `json:"tags,omitempty"`
	// Plan is what the unit is planned to hold (Plan); nil in a result
	// written before plans were recorded, and for a unit whose scenario
	// did not load.
	Plan *Plan `json:"plan,omitempty"`
}

// Unit is one scenario × summarizer × trial.
type Unit struct {
	Scenario    ScenarioRef  `json:"scenario"`
	Summarizer  string       `json:"summarizer" redact:"keep"`
	Trial       int          `json:"trial"`
	Status      string       `json:"status"`
	Error       string       `json:"error,omitempty"`
	Generations []Generation `json:"generations"`
	Probes      []Probe      `json:"probes"`
	Warnings    []string     `json:"warnings,omitempty"`
	// Skipped says why the summarizer does not apply to the scenario
	// (recorded on a scenario that records no compaction): the unit has
	// no generation and every probe is of class skip. "" for a unit that
	// ran.
	Skipped string `json:"skipped,omitempty"`
	// Duration is wall time for the unit.
	Duration time.Duration `json:"duration_ns"`
}

// Generation is one compaction of a unit.
type Generation struct {
	N int `json:"n"`
	// Trigger says why the cut happened: "at:N" (explicit),
	// "recorded:N" (the boundary of a compaction the agent made, kept in
	// the scenario; every summarizer is cut there) or "tokens:N>=T"
	// (token rule).
	Trigger string `json:"trigger"`
	// Cut is the seq the summary had to cover through; From is the first seq
	// of the events sent (1 in from_source mode).
	Cut  int `json:"cut"`
	From int `json:"from"`
	// CoversThrough is what the summary claims (may differ from Cut: the
	// coverage check then fails).
	CoversThrough int `json:"covers_through"`
	// TokensBefore is the context size that triggered the compaction;
	// TokensAfter the compacted context's size right after install.
	TokensBefore int `json:"tokens_before"`
	TokensAfter  int `json:"tokens_after"`
	// SummaryTokens and ReplacedTokens feed the compression ratio.
	SummaryTokens  int `json:"summary_tokens"`
	ReplacedTokens int `json:"replaced_tokens"`
	// SummaryID is "g<N>" and BaseID the id of the summary it was built on
	// ("" for the first).
	SummaryID string `json:"summary_id"`
	BaseID    string `json:"base_id,omitempty"`
	// Installed is false when install refused the candidate; InstallError says why.
	Installed    bool   `json:"installed"`
	InstallError string `json:"install_error,omitempty"`
	// Arrivals lists the seqs that arrived while this generation was summarized.
	Arrivals []int `json:"arrivals,omitempty"`
	// Summary is the document as returned (nil for the none arm or an error).
	Summary json.RawMessage `json:"summary,omitempty"`
	Checks  []CheckResult   `json:"checks"`
	Call    Call            `json:"call"`
	Error   string          `json:"error,omitempty"`
	// Citations is the citation quality of the summary (run --recall),
	// nil without the recall arm or without a summary to read.
	Citations *CitationFigures `json:"citations,omitempty"`
	// Recorded is set when the summary is a compaction the agent really
	// made, kept from its log (the summarizer `recorded`): its provenance.
	Recorded *Recorded `json:"recorded,omitempty"`
}

// CitationFigures say how reversible a summary is: of the Evidence
// invariants whose evidence events (the seqs an invariant names:
// source_seq, hypothesis_seq, refuted_by_seq, call_seq) the summary
// replaced, EvidenceCited are those some entry of the summary cites an
// evidence event of; of its Cited citations (source_seq, resolved_by),
// Dangling name no event of the history and Irrelevant an event that
// shares no word with the citing entry.
type CitationFigures struct {
	Evidence      int `json:"evidence"`
	EvidenceCited int `json:"evidence_cited"`
	Cited         int `json:"cited"`
	Dangling      int `json:"dangling"`
	Irrelevant    int `json:"irrelevant"`
}

// Recorded is the provenance of a recorded compaction (docs/formats.md
// §2): the agent that wrote it, what triggered it, the context size before
// it and when. Its boundary is the generation's cut.
type Recorded struct {
	Tool      string `json:"tool,omitempty"`
	Trigger   string `json:"trigger,omitempty"`
	PreTokens int    `json:"pre_tokens,omitempty"`
	Timestamp string `json:"timestamp,omitempty"`
}

// String reads "recorded by claude-code (auto, 155000 tokens before,
// 2026-03-02T09:30:01Z)", leaving out what the log did not say.
func (r *Recorded) String() string {
	tool := r.Tool
	if tool == "" {
		tool = "an unnamed agent"
	}
	var parts []string
	if r.Trigger != "" {
		parts = append(parts, r.Trigger)
	}
	if r.PreTokens > 0 {
		parts = append(parts, strconv.Itoa(r.PreTokens)+" tokens before")
	}
	if r.Timestamp != "" {
		parts = append(parts, r.Timestamp)
	}
	if len(parts) == 0 {
		return "recorded by " + tool
	}
	return "recorded by " + tool + " (" + strings.Join(parts, ", ") + ")"
}

// Probe outcome classes.
const (
	Kept                 = "kept"
	CompactionRegression = "compaction_regression"
	// ProbeUncertain: the agent chose the expected option on the full
	// context and answered "unsure" on the compacted one (it could not
	// tell: the reference agent's reader met words it cannot classify, or
	// a vote tied). Never kept, never a silent pass: the decisions
	// aggregate counts it as uncertain, as a check that could not tell.
	ProbeUncertain = "uncertain"
	AgentError     = "agent_error"
	CompactedOnly  = "compacted_only"
	ProbeErrored   = "error" // an agent call failed, or --judge-gate got no grade
	// ProbeSkipped: a free-text probe with no grade to compare (no judge,
	// or the judge was unsure or failed on an arm); Probe.Skipped says why.
	ProbeSkipped = "skip"
)

// Decision is one arm's answer.
type Decision struct {
	Choice string `json:"choice"`
	// Answer is the agent's free-text answer to a free-text probe.
	Answer string `json:"answer,omitempty"`
	Reason string `json:"reason,omitempty"`
	Error  string `json:"error,omitempty"`
	Call   Call   `json:"call"`
	// Judge is the model judge's grade of a free-text answer (correct,
	// incorrect or unsure), nil for a choice probe or without a judge.
	Judge *Judgement `json:"judge,omitempty"`
	// Sampling is how an openai: agent was asked a choice probe: the seed,
	// the option keys in the order each sample showed them (labelled A, B,
	// C…; the choice is the key, mapped back), and the votes of several
	// samples (--agent-samples; a tie is the choice "unsure").
	Sampling *Sampling `json:"sampling,omitempty"`
	// RecallCalls are the recall tool calls the agent made on the recall
	// arm, in order (empty on the other arms, and when it needed none).
	RecallCalls []RecallCall `json:"recall_calls,omitempty"`
}

// Recall tool call kinds.
const (
	RecallBySeq    = "seq"    // events by seq (the ones a summary cites)
	RecallBySearch = "search" // events ranked by a query
)

// RecallCall is one call of the recall tool: what was asked (Seqs, or
// Query), the seqs of the events it returned and their tokens. Error says
// why a call returned nothing (the budget was spent, an empty query); such
// a call does not count against the budget. Missing lists asked seqs that
// are no stored event; Withheld the events the per-call caps kept back.
type RecallCall struct {
	Kind     string `json:"kind"`
	Seqs     []int  `json:"seqs,omitempty"`
	Query    string `json:"query,omitempty"`
	Returned []int  `json:"returned,omitempty"`
	Missing  []int  `json:"missing,omitempty"`
	Withheld []int  `json:"withheld,omitempty"`
	Tokens   int    `json:"tokens"`
	Error    string `json:"error,omitempty"`
}

// Recalled reports whether the calls of the given kind returned an event.
// A recovery is by search when a search returned one, by citation when
// only calls by seq did.
func Recalled(calls []RecallCall, kind string) bool {
	for _, c := range calls {
		if c.Kind == kind && len(c.Returned) > 0 {
			return true
		}
	}
	return false
}

// Recovery of a compaction regression by the recall arm (Probe.Recovery).
const (
	// RecoveredByCitation: the recall arm chose the expected option
	// having read only events it asked for by seq.
	RecoveredByCitation = "citation"
	// RecoveredBySearch: it chose the expected option after a search
	// returned events.
	RecoveredBySearch = "search"
	// RecallLost: it did not choose the expected option, or chose it
	// with no event recalled (the agent's noise, not a recovery).
	RecallLost = "lost"
	// RecallFailed: the recall arm's agent call failed; counted as not
	// recovered.
	RecallFailed = "error"
)

// Sampling is a decision's option orders and votes.
type Sampling struct {
	Seed   uint64         `json:"seed"`
	Orders [][]string     `json:"orders,omitempty"`
	Votes  map[string]int `json:"votes,omitempty"`
}

// Probe is one probe's two decisions and how they compare.
type Probe struct {
	ID     string `json:"id"`
	Expect string `json:"expect"`
	// Answer is a free-text probe's expected answer (Expect is then
	// empty): each arm's answer is graded against it by the judge.
	Answer string `json:"answer,omitempty"`
	// Skipped says why a probe's class is skip.
	Skipped   string   `json:"skipped,omitempty"`
	Full      Decision `json:"full"`
	Compacted Decision `json:"compacted"`
	// Diff is the go-cmp diff of the two decisions (-full +compacted), empty
	// when they agree.
	Diff  string `json:"diff,omitempty"`
	Class string `json:"class"`
	// Recall is the recall arm's decision: the compacted context plus the
	// recall tool (run --recall), nil when the arm was not asked.
	// Recovery says, for a compaction regression, whether the recall arm
	// recovered it (RecoveredByCitation, RecoveredBySearch), not
	// (RecallLost) or failed (RecallFailed); "" for other classes.
	Recall   *Decision `json:"recall,omitempty"`
	Recovery string    `json:"recovery,omitempty"`
	// Pos is the position of the probe in the scenario file.
	Pos Pos `json:"pos,omitzero"`
}

// ErrorText says which arm of the probe failed and why ("" when neither):
// the agent's call, or, for a free-text probe that --judge-gate made an
// error, the judge's grade of that arm's answer.
func (p Probe) ErrorText() string {
	var parts []string
	for _, a := range []struct {
		name string
		d    Decision
	}{{"full", p.Full}, {"compacted", p.Compacted}} {
		switch {
		case a.d.Error != "":
			parts = append(parts, a.name+" arm: "+a.d.Error)
		case p.Answer == "":
		case a.d.Judge == nil:
			parts = append(parts, a.name+" arm: the judge did not grade the answer")
		case a.d.Judge.Error != "":
			parts = append(parts, a.name+" arm: the judge gave no verdict: "+a.d.Judge.Error)
		}
	}
	if p.Recall != nil && p.Recall.Error != "" {
		parts = append(parts, "recall arm: "+p.Recall.Error)
	}
	return strings.Join(parts, "; ")
}

// Aggregate summarises one summarizer × check type across units.
type Aggregate struct {
	Summarizer string `json:"summarizer"`
	Check      string `json:"check"` // check type, or "decisions"
	Kind       string `json:"kind"`
	Pass       int    `json:"pass"`
	Fail       int    `json:"fail"`
	Error      int    `json:"error"`
	Skip       int    `json:"skip"`
	// Uncertain counts the results a check could not tell (absent from the
	// JSON when zero, as in every result written before the status
	// existed). An uncertain result is not a pass: it is in PassRate's
	// denominator and never in its numerator.
	Uncertain int `json:"uncertain,omitempty"`
	// Decided counts the outcomes of the meaning checks by what decided
	// them.
	Decided
	// PassRate is pass / (pass+fail+uncertain) (Judged); Low and High its
	// 95% interval clustered by scenario (ClusteredWilson): Wilson's at
	// EffectiveN, the number of independent outcomes the Scenarios'
	// outcomes are worth. Errors and skips are left out. EffectiveN and
	// Scenarios are absent when nothing was judged, and in a result
	// written before them, whose Low and High were Wilson's over every
	// outcome (reading a result computes them again).
	PassRate   float64 `json:"pass_rate"`
	Low        float64 `json:"low"`
	High       float64 `json:"high"`
	EffectiveN float64 `json:"effective_n,omitempty"`
	Scenarios  int     `json:"scenarios,omitempty"`
}

// Judged is the denominator of a's PassRate: the results that had a
// verdict to give, pass + fail + uncertain. An uncertain result counts
// against the rate as a failure does: a check that cannot tell has not
// shown the fact kept.
func (a *Aggregate) Judged() int { return a.Pass + a.Fail + a.Uncertain }

// SummarizerSummary holds the headline figures of one summarizer across all
// its units, computed by Result.Aggregate. Rates are fractions in [0, 1]; a rate
// whose denominator is zero is 0 and its count fields say so.
type SummarizerSummary struct {
	Summarizer string `json:"summarizer"`
	Units      int    `json:"units"`
	// InvariantsKept is InvariantPass / (InvariantPass + InvariantFail +
	// InvariantUncertain): an invariant the check could not tell is not
	// kept. InvariantSkip counts the invariant results that were skipped,
	// which the rate leaves out and every headline shows next to it;
	// InvariantUncertain (absent when zero) is shown there too.
	InvariantsKept     float64 `json:"invariants_kept"`
	InvariantPass      int     `json:"invariant_pass"`
	InvariantFail      int     `json:"invariant_fail"`
	InvariantUncertain int     `json:"invariant_uncertain,omitempty"`
	InvariantSkip      int     `json:"invariant_skip"`
	// StructuralPassed is StructuralPass / (StructuralPass + StructuralFail
	// + StructuralUncertain); StructuralSkip counts the skipped structural
	// results.
	StructuralPassed    float64 `json:"structural_passed"`
	StructuralPass      int     `json:"structural_pass"`
	StructuralFail      int     `json:"structural_fail"`
	StructuralUncertain int     `json:"structural_uncertain,omitempty"`
	StructuralSkip      int     `json:"structural_skip"`
	// InvariantsKeptInterval and StructuralPassedInterval are the two
	// rates' 95% intervals clustered by scenario (ClusteredWilson); nil
	// when nothing was judged, and in a result written before them.
	InvariantsKeptInterval   *Interval `json:"invariants_kept_interval,omitempty"`
	StructuralPassedInterval *Interval `json:"structural_passed_interval,omitempty"`
	// Trials is how the outcomes varied between the trials of a run with
	// several; nil with one trial.
	Trials *TrialSpread `json:"trials,omitempty"`
	// Regressions counts probes whose class is CompactionRegression;
	// RegressionRate divides it by the probes the agent answered as expected
	// on the full context (kept + compaction_regression + uncertain).
	// ProbesUncertain (absent when zero) counts the probes of class
	// ProbeUncertain: never kept, never a regression.
	Regressions     int     `json:"regressions"`
	RegressionRate  float64 `json:"regression_rate"`
	ProbesUncertain int     `json:"probes_uncertain,omitempty"`
	Probes          int     `json:"probes"`
	// RecallProbes counts the probes asked on the recall arm (run
	// --recall); RecallCalls and RecallTokens the recall tool calls they
	// made and the tokens of the events returned. Of the Regressions,
	// RecoveredByCitation and RecoveredBySearch the recall arm recovered,
	// RecallLost it did not (a failed recall arm counts as lost).
	// RecallRecoverable is (by citation + by search) / regressions, 0
	// without regressions. All absent when zero.
	RecallProbes        int     `json:"recall_probes,omitempty"`
	RecallCalls         int     `json:"recall_calls,omitempty"`
	RecallTokens        int     `json:"recall_tokens,omitempty"`
	RecoveredByCitation int     `json:"recovered_by_citation,omitempty"`
	RecoveredBySearch   int     `json:"recovered_by_search,omitempty"`
	RecallLost          int     `json:"recall_lost,omitempty"`
	RecallRecoverable   float64 `json:"recall_recoverable,omitempty"`
	// Citations sums the generations' citation figures (run --recall);
	// nil without them.
	Citations *CitationFigures `json:"citations,omitempty"`
	// Generations counts generations with a summary; the compression ratio
	// (summary tokens / replaced tokens) is over those with replaced tokens.
	// Every report shows the median, named so ("compression (median)"); the
	// mean is kept for programs that read the file.
	Generations       int     `json:"generations"`
	MeanCompression   float64 `json:"mean_compression"`
	MedianCompression float64 `json:"median_compression"`
	// SummaryTokens is the total of summary tokens; MeanSummaryTokens per
	// generation.
	SummaryTokens     int     `json:"summary_tokens"`
	MeanSummaryTokens float64 `json:"mean_summary_tokens"`
	// MeanLatency and MedianLatency are over summarizer calls.
	MeanLatency   time.Duration `json:"mean_latency_ns"`
	MedianLatency time.Duration `json:"median_latency_ns"`
	// Errors counts failed units, failed generations and check errors;
	// Retries the retries of every summarizer and agent call.
	Errors  int `json:"errors"`
	Retries int `json:"retries"`
}

// TrialSpread is how one summarizer's outcomes varied between the trials
// of a run with several (Result.Aggregate).
type TrialSpread struct {
	// Trials is the run's trial count, N.
	Trials int `json:"trials"`
	// Scenarios counts the scenarios the summarizer ran (not skipped);
	// Changed those whose outcomes were not the same in every trial: a
	// unit that errored in one trial and not another, an outcome whose
	// status (a probe's class) differs, or one that a trial lacks. A
	// scenario with a trial missing counts as changed.
	Scenarios int `json:"scenarios"`
	Changed   int `json:"changed"`
	// Outcomes counts the outcomes of those scenarios (each generation's
	// checks and each probe, once over the trials); ChangedOutcomes those
	// whose status differs between trials or that a trial lacks.
	Outcomes        int `json:"outcomes"`
	ChangedOutcomes int `json:"changed_outcomes"`
	// PassAll counts the scenarios that passed in each of the N trials: the
	// unit finished, and no check or probe of it failed, was uncertain or
	// errored. pass^N is PassAll / Scenarios; PassPerTrial is the mean
	// share of the scenarios that passed in one trial (pass^1), beside
	// which pass^N says how much a trial's pass can be relied on.
	PassAll      int     `json:"pass_all"`
	PassPerTrial float64 `json:"pass_per_trial"`
}

// Identical reports whether every scenario gave the same outcomes in every
// trial: the summarizer behaved deterministically, and its trials add no
// evidence.
func (t *TrialSpread) Identical() bool { return t != nil && t.Changed == 0 }
