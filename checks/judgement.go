package checks

import "github.com/compact-eval/compact-eval/summarizers"

// Judgement is a model judge's second opinion (package judges), recorded
// beside a deterministic verdict and never instead of it: on an invariant
// check's Result (Verdict kept, contradicted or missing) and on a free-text
// probe's answer (Verdict correct, incorrect or unsure). The judge never
// sees the deterministic status it is recorded beside.
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
	// Call is the provenance of the judge's call: spec, model, prompt
	// digest, latency, usage, cache hit.
	Call summarizers.Call `json:"call"`
}
