package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/execproc"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Exec is an agent that runs a command once per call and speaks the exec
// protocol (docs/formats.md §4): the decide request as JSON on stdin, and
// {"choice": KEY, "reason": TEXT} as JSON on stdout. Only the probe's id,
// question and options are sent: never its expect or requires, never an
// invariant, never the trial.
//
// A failed call (non-zero exit, timeout, cancel, output that is not one JSON
// object, output above 16 MiB) and a reply whose choice is missing or is not
// one of the probe's option keys are an *execproc.Error holding the reason
// and the head of stderr: the runner records an error, never a decision.
// With the error, Decide returns a Decision with no choice whose Call holds
// the latency and the stderr head.
type Exec struct {
	command []string
	spec    string
	opts    execproc.Options
}

// NewExec returns an agent that runs command once per call (docs/formats.md §4).
// It fails when the command cannot be found.
func NewExec(command []string, opts providers.Options) (Agent, error) {
	if err := execproc.Check(command, opts.Dir); err != nil {
		return nil, fmt.Errorf("exec agent: %w", err)
	}
	return &Exec{command: append([]string(nil), command...), spec: providers.ExecSpec(command), opts: opts.ExecOptions()}, nil
}

// execReply is the reply of an exec agent. Other fields are ignored.
type execReply struct {
	Choice *string `json:"choice"`
	Answer *string `json:"answer"`
	Reason *string `json:"reason"`
	// Recall, on the recall arm, asks the recall tool instead of deciding.
	Recall *execRecallAsk `json:"recall"`
}

// execRecallAsk is a recall request of an exec agent: seqs, or a query.
type execRecallAsk struct {
	Seqs  []int   `json:"seqs,omitempty"`
	Query *string `json:"query,omitempty"`
}

// execRecall is the "recall" member of a request on the recall arm: the
// limits, the calls left, and every call made so far with what it
// returned.
type execRecall struct {
	Calls     int                `json:"calls"`
	Events    int                `json:"events"`
	Tokens    int                `json:"tokens"`
	CallsLeft int                `json:"calls_left"`
	Results   []execRecallResult `json:"results"`
}

// execRecallResult is one recall call and its answer.
type execRecallResult struct {
	Call     execRecallAsk     `json:"call"`
	Events   []scenarios.Event `json:"events"`
	Missing  []int             `json:"missing,omitempty"`
	Withheld []int             `json:"withheld,omitempty"`
	Error    string            `json:"error,omitempty"`
}

// execRequest is a request as sent: the Request, and on the recall arm
// its recall member.
type execRequest struct {
	*Request
	RecallState *execRecall `json:"recall,omitempty"`
}

// UsesRecall marks Exec as a RecallUser: on the recall arm it speaks the
// recall exchange of the exec protocol (docs/formats.md §4).
func (a *Exec) UsesRecall() {}

// Decide runs the command on req. On the recall arm (req.Recall set) a
// reply may ask the recall tool ({"recall": {"seqs": […]}} or {"recall":
// {"query": "…"}}) instead of deciding: the command is run again with the
// same request, its recall member holding every call made and its result,
// until it decides. A recall asked after the budget is spent is an error.
func (a *Exec) Decide(ctx context.Context, req *Request) (*Decision, error) {
	if req.Recall == nil {
		return a.decideOnce(ctx, req, nil)
	}
	rc := req.Recall
	lim := rc.Limits()
	st := &execRecall{Calls: lim.Calls, Events: lim.Events, Tokens: lim.Tokens, Results: []execRecallResult{}}
	var total result.Call
	for round := 0; ; round++ {
		st.CallsLeft = rc.Left()
		d, err := a.decideOnce(ctx, req, st)
		if d != nil {
			total.Spec, total.Stderr = d.Call.Spec, d.Call.Stderr
			total.Latency += d.Call.Latency
			d.Call = total
			d.RecallCalls = rc.Calls()
		}
		var ask *recallAskError
		if !errors.As(err, &ask) {
			return d, err
		}
		if rc.Left() == 0 || round >= 2*lim.Calls {
			err := &execproc.Error{Command: a.command[0], Kind: execproc.KindBadReply,
				Reason: "asked to recall after the recall budget of the probe was spent: decide with what you have", Latency: total.Latency, Stderr: d.Call.Stderr}
			return d, err
		}
		res := execRecallResult{Call: ask.ask, Events: []scenarios.Event{}}
		var got []RecalledEvent
		var cerr error
		if ask.ask.Query != nil {
			got, cerr = rc.Search(*ask.ask.Query)
		} else {
			got, cerr = rc.Get(ask.ask.Seqs)
		}
		if cerr != nil {
			res.Error = cerr.Error()
		}
		for _, e := range got {
			res.Events = append(res.Events, e.Event)
		}
		if calls := rc.Calls(); len(calls) > 0 && cerr == nil {
			last := calls[len(calls)-1]
			res.Missing, res.Withheld = last.Missing, last.Withheld
		}
		st.Results = append(st.Results, res)
	}
}

// recallAskError is a reply that asked the recall tool: not a decision
// yet.
type recallAskError struct{ ask execRecallAsk }

func (e *recallAskError) Error() string { return "the agent asked the recall tool" }

// decideOnce runs the command once; st is the recall member on the recall
// arm (nil elsewhere). A reply asking the recall tool is a
// *recallAskError.
func (a *Exec) decideOnce(ctx context.Context, req *Request, st *execRecall) (*Decision, error) {
	r := *req
	r.Protocol = providers.Protocol
	if r.Kind != KindAnswer {
		r.Kind = KindDecide
	}
	if r.Context.Events == nil {
		r.Context.Events = []scenarios.Event{}
	}
	if len(r.Context.Summary) == 0 {
		r.Context.Summary = json.RawMessage("null")
	}
	if r.Kind == KindAnswer {
		r.Probe.Options = nil
	}
	in, err := json.Marshal(execRequest{Request: &r, RecallState: st})
	if err != nil {
		return nil, fmt.Errorf("encoding the decide request: %w", err)
	}
	res, err := execproc.Run(ctx, a.command, in, a.opts)
	if err != nil {
		return &Decision{Call: providers.ExecErrorCall(a.spec, err)}, err
	}
	bad := func(format string, args ...any) (*Decision, error) {
		err := &execproc.Error{Command: a.command[0], Kind: execproc.KindBadReply,
			Reason: fmt.Sprintf(format, args...), Stderr: res.Stderr, Latency: res.Latency}
		return &Decision{Call: providers.ExecErrorCall(a.spec, err)}, err
	}
	want := `{"choice": KEY, "reason": TEXT}`
	if r.Kind == KindAnswer {
		want = `{"answer": TEXT, "reason": TEXT}`
	}
	if kind := execproc.DocumentType(res.Output); kind != "object" {
		return bad(`output is a JSON %s, want %s`, kind, want)
	}
	var reply execReply
	if err := json.Unmarshal(res.Output, &reply); err != nil {
		return bad("reply: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	if reply.Recall != nil {
		switch {
		case st == nil:
			return bad(`reply asks "recall" on the %s arm, which has no recall tool`, r.Arm)
		case reply.Choice != nil || reply.Answer != nil:
			return bad(`reply both decides and asks "recall": give one`)
		case (reply.Recall.Query != nil) == (len(reply.Recall.Seqs) > 0):
			return bad(`"recall" wants either "seqs" (a list of seqs) or "query" (a string)`)
		}
		return &Decision{Call: result.Call{Spec: a.spec, Latency: res.Latency, Stderr: res.Stderr}}, &recallAskError{*reply.Recall}
	}
	if r.Kind == KindAnswer {
		if reply.Answer == nil || strings.TrimSpace(*reply.Answer) == "" {
			return bad(`reply has no "answer" (a free-text probe wants %s)`, want)
		}
		d := &Decision{Answer: *reply.Answer, Call: result.Call{Spec: a.spec, Latency: res.Latency, Stderr: res.Stderr}}
		if reply.Reason != nil {
			d.Reason = *reply.Reason
		}
		return d, nil
	}
	if reply.Choice == nil || *reply.Choice == "" {
		return bad(`reply has no "choice"`)
	}
	keys := make([]string, len(req.Probe.Options))
	found := false
	for i, o := range req.Probe.Options {
		keys[i] = o.Key
		found = found || o.Key == *reply.Choice
	}
	if !found {
		return bad("choice %q is not an option of probe %q (valid: %s)", *reply.Choice, req.Probe.ID, strings.Join(keys, ", "))
	}
	d := &Decision{Choice: *reply.Choice, Call: result.Call{Spec: a.spec, Latency: res.Latency, Stderr: res.Stderr}}
	if reply.Reason != nil {
		d.Reason = *reply.Reason
	}
	return d, nil
}
