package judges

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/result"
)

// Request kinds (the "kind" field of the exec protocol).
const (
	KindInvariant = "judge_invariant"
	KindAnswer    = "judge_answer"
)

// Verdicts on an invariant (KindInvariant).
const (
	Kept         = "kept"
	Contradicted = "contradicted"
	Missing      = "missing"
)

// Grades of a free-text answer (KindAnswer).
const (
	Correct   = "correct"
	Incorrect = "incorrect"
	Unsure    = "unsure"
)

// Verdicts lists the verdicts a judge may give for a request kind.
func Verdicts(kind string) []string {
	if kind == KindAnswer {
		return []string{Correct, Incorrect, Unsure}
	}
	return []string{Kept, Contradicted, Missing}
}

// Request is one question to a judge: an invariant and a summary
// (KindInvariant), or a free-text probe and an answer (KindAnswer). It is
// exactly what an exec judge reads on stdin.
type Request struct {
	Protocol   int    `json:"protocol"`
	Kind       string `json:"kind"`
	ScenarioID string `json:"scenario_id"`
	// Generation is the generation the summary belongs to (KindInvariant).
	Generation int `json:"generation,omitempty"`
	// Invariant is the fact to look for, in plain words (KindInvariant).
	Invariant *Fact `json:"invariant,omitempty"`
	// Summary is the summary document, secrets redacted (KindInvariant).
	Summary json.RawMessage `json:"summary,omitempty"`
	// Probe is the question and the expected answer (KindAnswer).
	Probe *Probe `json:"probe,omitempty"`
	// Answer is the agent's free-text answer (KindAnswer).
	Answer *string `json:"answer,omitempty"`
}

// Fact is an invariant in plain words.
type Fact struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	// Statement says what the session established and what a faithful
	// summary keeps, in plain words.
	Statement string `json:"statement"`
	// Events quote the session events the fact comes from.
	Events []Quote `json:"events,omitempty"`
}

// Quote is one event of the session, quoted for the judge.
type Quote struct {
	Seq  int    `json:"seq"`
	Role string `json:"role"`
	Text string `json:"text"`
}

// Probe is a free-text probe as a judge sees it.
type Probe struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	// Expected is the expected answer in words.
	Expected string `json:"expected"`
	// Rubric lists what a correct answer must (or must not) say.
	Rubric []string `json:"rubric,omitempty"`
}

// NewInvariantRequest is a KindInvariant request.
func NewInvariantRequest(scenarioID string, generation int, f *Fact, summary json.RawMessage) *Request {
	return &Request{Protocol: providers.Protocol, Kind: KindInvariant, ScenarioID: scenarioID,
		Generation: generation, Invariant: f, Summary: summary}
}

// NewAnswerRequest is a KindAnswer request.
func NewAnswerRequest(scenarioID string, p *Probe, answer string) *Request {
	return &Request{Protocol: providers.Protocol, Kind: KindAnswer, ScenarioID: scenarioID, Probe: p, Answer: &answer}
}

// Verdict is a judge's answer.
type Verdict struct {
	// Verdict is one of Verdicts(kind).
	Verdict string `json:"verdict"`
	// Quote is the words of the judged text (the summary, or the answer) the
	// verdict relies on; checked to occur there.
	Quote string `json:"quote"`
	// Reason is one sentence.
	Reason string `json:"reason"`
	// Call is the provenance of the call (also set when Judge fails).
	Call result.Call `json:"-"`
}

// Judge answers judge requests. Implementations must be safe for concurrent
// use. On failure Judge returns an error and, when it can, a Verdict whose
// Call holds the provenance of the failed call.
type Judge interface {
	Judge(ctx context.Context, req *Request) (*Verdict, error)
}

// Func adapts a function to the Judge interface.
type Func func(ctx context.Context, req *Request) (*Verdict, error)

// Judge calls f.
func (f Func) Judge(ctx context.Context, req *Request) (*Verdict, error) { return f(ctx, req) }

// New builds the judge a spec names: exec:COMMAND… or openai:MODEL. There
// is no built-in judge: a judge reads meaning, which is what the
// deterministic checks cannot do offline.
func New(spec providers.Spec, opts providers.Options) (Judge, error) {
	switch spec.Kind {
	case providers.KindExec:
		return NewExec(spec.Command, opts)
	case providers.KindOpenAI:
		return NewOpenAI(spec.Name, opts.OpenAI)
	case providers.KindBuiltin:
		return nil, fmt.Errorf("there is no builtin judge (valid: openai:MODEL, exec:COMMAND)")
	}
	return nil, fmt.Errorf("spec %q: unknown kind %q (valid: openai:MODEL, exec:COMMAND)", spec.Raw, spec.Kind)
}

// WithoutExtensions is the summary document as the agent sees it: without
// `extensions`, which the contract never shows the agent and no content
// check reads (a provider's raw block or ciphertext lives there). The
// judge reads what the agent would, in run --judge and in selftest
// --judge alike; nil for nil. A document that is not a JSON object comes
// back as it is.
func WithoutExtensions(doc json.RawMessage) json.RawMessage {
	if doc == nil {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(doc, &m) != nil || m == nil {
		return doc
	}
	if _, ok := m["extensions"]; !ok {
		return doc
	}
	delete(m, "extensions")
	out, err := json.Marshal(m)
	if err != nil {
		return doc
	}
	return out
}
