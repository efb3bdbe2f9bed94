package summarizers

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/execproc"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Exec is a summarizer that runs a command once per call and speaks the exec
// protocol (docs/formats.md §4): the summarize request as JSON on stdin, one
// summary document as JSON on stdout. Only the fields of Request that the
// protocol names are sent: never the trial, never an invariant, an expect or
// a requires (a Request has no field for them).
//
// A failed call (non-zero exit, timeout, cancel, output that is not one JSON
// object, output above 16 MiB) is an *execproc.Error holding the reason and
// the head of stderr; the runner records it as an error for the unit. With
// the error, Summarize returns a Response without a summary whose Call holds
// the latency and the stderr head. The summary itself is not validated here:
// the checks judge it.
type Exec struct {
	command []string
	spec    string
	opts    execproc.Options
}

// NewExec returns a summarizer that runs command once per call (docs/formats.md
// §4). It fails when the command cannot be found.
func NewExec(command []string, opts providers.Options) (Summarizer, error) {
	if err := execproc.Check(command, opts.Dir); err != nil {
		return nil, fmt.Errorf("exec summarizer: %w", err)
	}
	return &Exec{command: append([]string(nil), command...), spec: providers.ExecSpec(command), opts: opts.ExecOptions()}, nil
}

// Summarize runs the command on req.
func (e *Exec) Summarize(ctx context.Context, req *Request) (*Response, error) {
	r := *req
	r.Protocol, r.Kind = providers.Protocol, "summarize"
	if r.Events == nil {
		r.Events = []scenarios.Event{}
	}
	if len(r.PreviousSummary) == 0 {
		r.PreviousSummary = json.RawMessage("null")
	}
	in, err := json.Marshal(&r)
	if err != nil {
		return nil, fmt.Errorf("encoding the summarize request: %w", err)
	}
	res, err := execproc.Run(ctx, e.command, in, e.opts)
	if err != nil {
		return failedCall(e.spec, err), err
	}
	if kind := execproc.DocumentType(res.Output); kind != "object" {
		err := &execproc.Error{Command: e.command[0], Kind: execproc.KindBadReply,
			Reason: "output is a JSON " + kind + ", want a summary object", Stderr: res.Stderr, Latency: res.Latency}
		return failedCall(e.spec, err), err
	}
	return &Response{
		Summary: res.Output,
		Call:    result.Call{Spec: e.spec, Latency: res.Latency, Stderr: res.Stderr},
	}, nil
}

// failedCall is the response that goes with a failed exec call: no summary,
// only the call's provenance (latency and the head of stderr), so that the
// report shows them next to the error.
func failedCall(spec string, err error) *Response {
	return &Response{Call: providers.ExecErrorCall(spec, err)}
}
