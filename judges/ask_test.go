package judges_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/result"
)

// TestAsk pins how a judge's answer folds into a judgement: a verdict
// keeps its quote, reason and call; a failure keeps its call and no
// verdict, even one the judge returned beside the error; no verdict and
// a panic are errors of this judgement alone.
func TestAsk(t *testing.T) {
	call := result.Call{Spec: "exec:j", Model: "m", Retries: 2}
	for _, tc := range []struct {
		name  string
		judge judges.Func
		want  *result.Judgement
	}{
		{"verdict", func(context.Context, *judges.Request) (*judges.Verdict, error) {
			return &judges.Verdict{Verdict: judges.Kept, Quote: "q", Reason: "r", Call: call}, nil
		}, &result.Judgement{Verdict: judges.Kept, Quote: "q", Reason: "r", Call: call}},
		{"error with provenance", func(context.Context, *judges.Request) (*judges.Verdict, error) {
			return &judges.Verdict{Verdict: judges.Kept, Quote: "q", Call: call}, errors.New("quote not found")
		}, &result.Judgement{Error: "quote not found", Call: call}},
		{"error alone", func(context.Context, *judges.Request) (*judges.Verdict, error) {
			return nil, errors.New("timeout")
		}, &result.Judgement{Error: "timeout"}},
		{"no verdict", func(context.Context, *judges.Request) (*judges.Verdict, error) {
			return nil, nil
		}, &result.Judgement{Error: "the judge returned no verdict"}},
		{"panic", func(context.Context, *judges.Request) (*judges.Verdict, error) {
			panic("boom")
		}, &result.Judgement{Error: "judge panic: boom"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := judges.Ask(context.Background(), tc.judge, invReq())
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
