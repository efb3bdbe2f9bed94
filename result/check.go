package result

import "slices"

// Status is the outcome of one check.
type Status string

// The statuses of docs/formats.md §2.
const (
	// Pass: the summary kept what the check asks for.
	Pass Status = "pass"
	// Fail: the summary broke it.
	Fail Status = "fail"
	// Error: the harness or the summarizer could not produce something to
	// check; the message says why.
	Error Status = "error"
	// Skip: not applicable (for example a field-level check on a text-only
	// summary, or no summary at all for the `none` arm).
	Skip Status = "skip"
	// Uncertain: the check's subject is touched by a clause it cannot
	// classify (an unknown verb or modal on it), so it can say neither pass
	// nor fail. It is never counted as kept; a judge may settle it.
	Uncertain Status = "uncertain"
)

// What decided a meaning check (CheckResult.DecidedBy).
const (
	DecidedTyped     = "typed"
	DecidedStatement = "statement"
	DecidedJudge     = "judge"
)

// Kinds of check (CheckResult.Kind, Aggregate.Kind).
const (
	KindInvariant  = "invariant"
	KindStructural = "structural"
	// KindDecision is the Kind of the decisions aggregate.
	KindDecision = "decision"
)

// Invariant types: the `type:` of a scenario's invariants and the Check of
// their results.
const (
	TypeConstraint        = "constraint"
	TypeRefutedHypothesis = "refuted_hypothesis"
	TypeArtifact          = "artifact"
	TypePendingOperation  = "pending_operation"
	TypeCorrection        = "correction"
	TypeQuantity          = "quantity"
	TypeSecret            = "secret"
	// The typed state of a workflow (issue 39).
	TypeApproval = "approval"
	TypeGoal     = "goal"
	TypeNextStep = "next_step"
	TypeHandoff  = "handoff"
)

// Names of the structural checks (CheckResult.Check), in the order they run.
const (
	CheckSchema      = "schema"
	CheckCoverage    = "coverage"
	CheckReferences  = "references"
	CheckEvidence    = "evidence"
	CheckTail        = "tail"
	CheckCompression = "compression"
	CheckProvenance  = "provenance"
	CheckPaths       = "paths"
	CheckUnresolved  = "unresolved"
	// CheckStalePending and CheckGrounding came with summary contract 1.1.
	CheckStalePending = "stale_pending"
	CheckGrounding    = "grounding"
)

// CheckDecisions is the pseudo check type of probe outcomes in aggregates,
// gates and comparisons: pass = kept, fail = compaction_regression,
// uncertain = uncertain (the agent could not tell on the compacted context), error =
// an agent call failed, skip = the agent was already wrong on the full
// context (agent_error, compacted_only).
const CheckDecisions = "decisions"

// InvariantTypes lists every invariant type, in the order checks run and
// reports show them.
var InvariantTypes = []string{
	TypeConstraint, TypeRefutedHypothesis, TypeArtifact, TypePendingOperation,
	TypeCorrection, TypeQuantity, TypeSecret,
	TypeApproval, TypeGoal, TypeNextStep, TypeHandoff,
}

// StructuralChecks lists the always-on structural checks of
// docs/formats.md §2 in the order they run and reports show them.
var StructuralChecks = []string{CheckSchema, CheckCoverage, CheckReferences, CheckEvidence, CheckTail,
	CheckCompression, CheckProvenance, CheckPaths, CheckUnresolved, CheckStalePending, CheckGrounding}

// checkRank orders check types: invariants, structural checks, others,
// decisions last.
func checkRank(check string) int {
	if i := slices.Index(InvariantTypes, check); i >= 0 {
		return i
	}
	if i := slices.Index(StructuralChecks, check); i >= 0 {
		return 100 + i
	}
	if check == CheckDecisions {
		return 1000
	}
	return 500
}

// LessCheck orders check types as the result and every report show them:
// the invariant types, the structural checks, unknown (custom) check types
// sorted, then CheckDecisions.
func LessCheck(a, b string) bool {
	ra, rb := checkRank(a), checkRank(b)
	if ra != rb {
		return ra < rb
	}
	return a < b
}

// CheckRecall is the gate key (reports.MinPass) of the recall arm: its
// outcomes are RecallStatus of each probe asked on the arm; KindRecall is
// their kind.
const (
	CheckRecall = "recall"
	KindRecall  = "recall"
)

// RecallStatus is a probe's outcome on the recall arm, for the
// `--min-pass recall=…` gate: Pass when the recall arm chose the expected
// option (kept on the compacted context, or a regression recovered), Fail
// when it did not (a regression lost, or worse), Uncertain when it answered
// unsure, Error when its call failed; Skip when the arm was not asked or
// the full arm was not right either (the agent's error, not the
// compaction's) or the probe is free text.
func RecallStatus(p Probe) Status {
	switch {
	case p.Recall == nil || p.Expect == "" || p.Full.Error != "" || p.Full.Choice != p.Expect:
		return Skip
	case p.Recall.Error != "":
		return Error
	case p.Recall.Choice == p.Expect:
		return Pass
	case p.Recall.Choice == "unsure":
		return Uncertain
	}
	return Fail
}

// DecisionStatus maps a probe class to its status in the CheckDecisions
// aggregate: kept passes, compaction_regression fails, uncertain is
// uncertain, error is an error, every other class is a skip.
func DecisionStatus(class string) Status {
	switch class {
	case Kept:
		return Pass
	case CompactionRegression:
		return Fail
	case ProbeUncertain:
		return Uncertain
	case ProbeErrored:
		return Error
	default:
		return Skip
	}
}

// Evidence points at what a result is about, so that a person can verify it
// quickly: where in the summary (a JSON pointer), which event, and the text
// that matched or the pattern that found nothing.
type Evidence struct {
	Pointer string `json:"pointer,omitempty"` // JSON pointer into the summary, e.g. /hypotheses/2/status
	Seq     int    `json:"seq,omitempty"`     // the event involved
	Text    string `json:"text,omitempty"`    // text that matched, or was found where it must not be
	Pattern string `json:"pattern,omitempty"` // the pattern that matched or found nothing
	Note    string `json:"note,omitempty"`    // anything else, one short phrase
}

// CheckResult is one check's verdict on one summary (or one invariant of
// it).
type CheckResult struct {
	// Check is the check type: an invariant type (constraint, …) or a
	// structural check name (schema, coverage, …).
	Check string `json:"check"`
	// Kind is KindInvariant or KindStructural.
	Kind string `json:"kind"`
	// Invariant is the invariant id, for invariant checks.
	Invariant string `json:"invariant,omitempty"`
	Status    Status `json:"status"`
	// Message is one line a person understands.
	Message  string     `json:"message"`
	Evidence []Evidence `json:"evidence,omitempty"`
	// Pos is the position in the scenario file of the invariant (invariant
	// checks) so that CI annotations can point at it.
	Pos Pos `json:"pos,omitzero"`
	// Metrics carries numbers a check measured (compression: summary_tokens,
	// replaced_tokens, ratio).
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// DecidedBy says what decided an invariant check's status (meaning
	// checks only): DecidedTyped, a typed record of the summary (a
	// constraints entry with its citation and target, a hypothesis with
	// status refuted, a pending entry, an artifact's status, a correction
	// with supersedes, or their absence); DecidedStatement, a plain,
	// subject-bound statement of its text (a restatement for a pass, a
	// contradiction for a fail); DecidedJudge, nothing the checks can read
	// plainly: the status is uncertain and waits for a judge. Empty for
	// the other checks.
	DecidedBy string `json:"decided_by,omitempty"`
	// Judge is the model judge's opinion of the same invariant, when a
	// judge was asked (run --judge); nil otherwise. It never changes a pass
	// or a fail, except that --judge-gate turns a pass the judge calls
	// contradicted into a fail (Judge.Overrode then says "pass"). It
	// settles an uncertain status: kept makes it pass, contradicted or
	// missing fail (Judge.Settled then says "uncertain"); with no verdict
	// it stays uncertain.
	Judge *Judgement `json:"judge,omitempty"`
}

// Judgement is a model judge's second opinion (package judges), recorded
// beside a deterministic verdict and never instead of it (except where the
// check could not tell: see Settled): on an invariant
// check's CheckResult (Verdict kept, contradicted or missing) and on a
// free-text probe's answer (Verdict correct, incorrect or unsure). The
// judge never sees the deterministic status it is recorded beside.
type Judgement struct {
	// Verdict is the judge's answer; "" when Error is set.
	Verdict string `json:"verdict,omitempty"`
	// Quote is the words of the summary (or of the answer) the verdict
	// relies on, as the judge copied them; compact-eval checked that they
	// occur there.
	Quote string `json:"quote,omitempty"`
	// Reason is the judge's one-sentence explanation.
	Reason string `json:"reason,omitempty"`
	// Error says why this judgement has no verdict (the call failed, the
	// reply was not a verdict, the quote is not in the judged text); the
	// rest of the run is unaffected.
	Error string `json:"error,omitempty"`
	// Overrode is the status the check had before --judge-gate replaced it
	// with fail ("" when the gate changed nothing).
	Overrode Status `json:"overrode,omitempty"`
	// Settled is the status the check had before this verdict settled it:
	// "uncertain" (the check could not tell, and the judge's verdict became
	// the status); "" when the judge settled nothing.
	Settled Status `json:"settled,omitempty"`
	// Call is the provenance of the judge's call: spec, model, prompt
	// digest, latency, usage, cache hit.
	Call Call `json:"call"`
}
