package agents

import (
	"context"
	"encoding/json"
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
}

// Decide runs the command on req.
func (a *Exec) Decide(ctx context.Context, req *Request) (*Decision, error) {
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
	in, err := json.Marshal(&r)
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
