package judges

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/execproc"
)

// Exec is a judge that runs a command once per call and speaks the exec
// protocol: the Request as JSON on stdin, one JSON object
// {"verdict": …, "quote": …, "reason": …} on stdout (ParseVerdict checks
// it). A failed call (non-zero exit, timeout, output that is not one JSON
// object, over 16 MiB) or an unusable reply is an *execproc.Error with the
// reason and the head of stderr; Judge then also returns a Verdict with no
// verdict whose Call holds the latency and stderr.
type Exec struct {
	command []string
	spec    string
	opts    execproc.Options
}

// NewExec returns a judge that runs command once per call. It fails when
// the command cannot be found.
func NewExec(command []string, opts providers.Options) (*Exec, error) {
	if err := execproc.Check(command, opts.Dir); err != nil {
		return nil, fmt.Errorf("exec judge: %w", err)
	}
	return &Exec{command: append([]string(nil), command...), spec: providers.ExecSpec(command), opts: opts.ExecOptions()}, nil
}

// Judge runs the command on req.
func (j *Exec) Judge(ctx context.Context, req *Request) (*Verdict, error) {
	in, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encoding the judge request: %w", err)
	}
	res, err := execproc.Run(ctx, j.command, in, j.opts)
	if err != nil {
		return &Verdict{Call: providers.ExecErrorCall(j.spec, err)}, err
	}
	call := result.Call{Spec: j.spec, Latency: res.Latency, Stderr: res.Stderr}
	if kind := execproc.DocumentType(res.Output); kind != "object" {
		err := &execproc.Error{Command: j.command[0], Kind: execproc.KindBadReply,
			Reason: fmt.Sprintf(`output is a JSON %s, want {"verdict": …, "quote": …, "reason": …}`, kind), Stderr: res.Stderr, Latency: res.Latency}
		return &Verdict{Call: call}, err
	}
	v, err := ParseVerdict(res.Output, req)
	if err != nil {
		err := &execproc.Error{Command: j.command[0], Kind: execproc.KindBadReply, Reason: err.Error(), Stderr: res.Stderr, Latency: res.Latency}
		return &Verdict{Call: call}, err
	}
	v.Call = call
	return v, nil
}
