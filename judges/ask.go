package judges

import (
	"context"
	"fmt"

	"github.com/compact-eval/compact-eval/result"
)

// Ask asks j and folds its answer into a judgement: the verdict with its
// quote and reason, or the error of this judgement alone (the call failed,
// the judge returned no verdict, or it panicked), with the call's
// provenance whenever the judge returned one. Ask never fails: a judge's
// failure is recorded, never fatal to the run or the measurement.
func Ask(ctx context.Context, j Judge, req *Request) (out *result.Judgement) {
	out = &result.Judgement{}
	defer func() {
		if p := recover(); p != nil {
			out = &result.Judgement{Error: fmt.Sprintf("judge panic: %v", p)}
		}
	}()
	v, err := j.Judge(ctx, req)
	if v != nil {
		out.Call = v.Call
	}
	switch {
	case err != nil:
		out.Error = err.Error()
	case v == nil:
		out.Error = "the judge returned no verdict"
	default:
		out.Verdict, out.Quote, out.Reason = v.Verdict, v.Quote, v.Reason
	}
	return out
}
