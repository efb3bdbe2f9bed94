package reports

import (
	"encoding/json"

	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/reports/result"
)

// RedactUnit hides, everywhere in u, every leak r finds (a secret of the
// scenario, an API key; see internal/redact) behind "[redacted:ID]": in the
// summary (each JSON string decoded, redacted and re-encoded, so escapes
// hide nothing), check messages and evidence, decision choices and reasons,
// diffs, errors, stderr, call extras and warnings. The runner calls it
// before a unit is journaled, so no writer ever sees a secret; the findings
// keep their pointers and seqs, so a reader still sees where a secret
// leaked. A nil r changes nothing.
func RedactUnit(u *Unit, r *redact.Redactor) {
	if r == nil {
		return
	}
	s := r.String
	u.Error = s(u.Error)
	r.Strings(u.Warnings)
	u.Scenario.Title = s(u.Scenario.Title)
	for gi := range u.Generations {
		g := &u.Generations[gi]
		g.Error = s(g.Error)
		g.InstallError = s(g.InstallError)
		redactCall(&g.Call.Stderr, g.Call.Extra, r)
		if len(g.Summary) > 0 {
			g.Summary = json.RawMessage(r.JSON(g.Summary))
		}
		for ci := range g.Checks {
			c := &g.Checks[ci]
			c.Message = s(c.Message)
			for ei := range c.Evidence {
				e := &c.Evidence[ei]
				e.Text, e.Pattern, e.Note, e.Pointer = s(e.Text), s(e.Pattern), s(e.Note), s(e.Pointer)
			}
			redactJudgement(c.Judge, r)
		}
	}
	for pi := range u.Probes {
		p := &u.Probes[pi]
		p.Diff = s(p.Diff)
		for _, d := range []*Decision{&p.Full, &p.Compacted} {
			d.Choice, d.Answer, d.Reason, d.Error = s(d.Choice), s(d.Answer), s(d.Reason), s(d.Error)
			redactCall(&d.Call.Stderr, d.Call.Extra, r)
			redactJudgement(d.Judge, r)
		}
	}
}

func redactCall(stderr *string, extra map[string]string, r *redact.Redactor) {
	*stderr = r.String(*stderr)
	r.Map(extra)
}

// redactJudgement redacts what a judge wrote (nil is fine).
func redactJudgement(j *result.Judgement, r *redact.Redactor) {
	if j == nil {
		return
	}
	j.Quote, j.Reason, j.Error = r.String(j.Quote), r.String(j.Reason), r.String(j.Error)
	redactCall(&j.Call.Stderr, j.Call.Extra, r)
}

// RedactHeader hides what r finds in the parts of a result that are not
// units: warnings, the resume command and the paths run.
func RedactHeader(res *Result, r *redact.Redactor) {
	if r == nil {
		return
	}
	r.Strings(res.Warnings)
	r.Strings(res.Config.Paths)
	res.Resume = r.String(res.Resume)
}
