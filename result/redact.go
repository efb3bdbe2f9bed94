package result

import "encoding/json"

// Redactor hides secrets in text: String replaces every leak in a string by
// its tag, JSON does the same inside each JSON string of a document and
// re-encodes it. internal/redact's *Redactor is one; a nil *Redactor
// changes nothing.
type Redactor interface {
	String(s string) string
	JSON(doc []byte) []byte
}

// RedactUnit hides, everywhere in u, every leak r finds (a secret of the
// scenario, an API key; see internal/redact) behind "[redacted:ID]": in the
// summary (each JSON string decoded, redacted and re-encoded, so escapes
// hide nothing), check messages and evidence, decision choices and reasons,
// diffs, errors, stderr, call extras and warnings. The runner calls it
// before a unit is journaled, so no writer ever sees a secret; the findings
// keep their pointers and seqs, so a reader still sees where a secret
// leaked. A nil r changes nothing.
func RedactUnit(u *Unit, r Redactor) {
	if r == nil {
		return
	}
	s := r.String
	u.Error = s(u.Error)
	redactStrings(u.Warnings, r)
	u.Scenario.Title = s(u.Scenario.Title)
	for gi := range u.Generations {
		g := &u.Generations[gi]
		g.Error = s(g.Error)
		g.InstallError = s(g.InstallError)
		redactCall(&g.Call, r)
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
			redactCall(&d.Call, r)
			redactJudgement(d.Judge, r)
		}
	}
}

// RedactHeader hides what r finds in the parts of a result that are not
// units: warnings, the resume command and the paths run. A nil r changes
// nothing.
func RedactHeader(res *Result, r Redactor) {
	if r == nil {
		return
	}
	redactStrings(res.Warnings, r)
	redactStrings(res.Config.Paths, r)
	res.Resume = r.String(res.Resume)
}

// redactCall redacts what a called program wrote: its stderr and the
// extras recorded from its reply.
func redactCall(c *Call, r Redactor) {
	c.Stderr = r.String(c.Stderr)
	for k, v := range c.Extra {
		c.Extra[k] = r.String(v)
	}
}

// redactJudgement redacts what a judge wrote (nil is fine).
func redactJudgement(j *Judgement, r Redactor) {
	if j == nil {
		return
	}
	j.Quote, j.Reason, j.Error = r.String(j.Quote), r.String(j.Reason), r.String(j.Error)
	redactCall(&j.Call, r)
}

func redactStrings(ss []string, r Redactor) {
	for i := range ss {
		ss[i] = r.String(ss[i])
	}
}
