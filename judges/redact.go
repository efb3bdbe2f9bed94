package judges

import (
	"encoding/json"

	"github.com/compact-eval/compact-eval/internal/redact"
)

// Redact removes secrets from everything a request sends to a judge, in
// place: the fact's statement and quoted events, the summary (decoded string
// by string, so it stays valid JSON), the probe and the answer. r is the
// scenario's redactor joined with the known keys (checks.SecretRedactor,
// redact.Keys): the same rule the secret check and every writer use, so a
// judge never receives a secret, even one a summarizer leaked; the secret
// check, which is exact, is what reports the leak. A nil r changes nothing.
func Redact(r *redact.Redactor, req *Request) {
	if r == nil || req == nil {
		return
	}
	if f := req.Invariant; f != nil {
		f.Statement = r.String(f.Statement)
		for i := range f.Events {
			f.Events[i].Text = r.String(f.Events[i].Text)
		}
	}
	if len(req.Summary) > 0 {
		req.Summary = json.RawMessage(r.JSON(req.Summary))
	}
	if p := req.Probe; p != nil {
		p.Question, p.Expected = r.String(p.Question), r.String(p.Expected)
		p.Rubric = append([]string(nil), p.Rubric...)
		r.Strings(p.Rubric)
	}
	if req.Answer != nil {
		a := r.String(*req.Answer)
		req.Answer = &a
	}
}
