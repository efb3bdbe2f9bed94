package selftest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/checks"
	iredact "github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/scenarios"
)

// FaithfulClass names the row of the oracle documents in a JudgeReport:
// every invariant its check passes on the oracle, which a right judge
// calls kept.
const FaithfulClass = "faithful"

// JudgeOptions configure MeasureJudge.
type JudgeOptions struct {
	// Name is the judge's name in the report.
	Name string
	// Jobs bounds the judge calls in flight; 0 means runtime.NumCPU().
	Jobs int
	// Tokenizer is the token encoding of the oracle timeline.
	Tokenizer string
	// Progress, if set, is called after each scenario.
	Progress func(done, total int)
	// Check gives the check results the cascade reads on each judged
	// document (Judgement.Check); nil runs the invariant's own check. A
	// test passes one that makes some invariants uncertain.
	Check func(*checks.Input) []result.CheckResult
}

// JudgeReport is a model judge measured against selftest's planted
// labels: for each class of planted defect (and for the faithful oracle),
// how often the judge said kept, contradicted or missing, or failed. A
// judge that reads meaning should call an inversion contradicted, an
// omission missing, and the oracle kept; what it says of the structural
// classes (move-to-text, over-list, …) shows what it does and does not
// see.
type JudgeReport struct {
	Judge string `json:"judge"`
	// Classes has one row per class judged, the faithful row first, then
	// the classes in Classes order.
	Classes []JudgeClass `json:"classes"`
	// InversionsCaught is the share of invert variants the judge called
	// contradicted; FalseAlarms the share of faithful judgements it called
	// contradicted (both over the judgements with a verdict; nil when
	// there were none).
	InversionsCaught *float64 `json:"inversions_caught"`
	FalseAlarms      *float64 `json:"false_alarms"`
	// Usable is the share of judgements with a verdict (kept,
	// contradicted or missing); Inversions and FalseAlarmRate are
	// InversionsCaught and FalseAlarms as counts with their Wilson 95%
	// intervals.
	Usable         Rate `json:"usable"`
	Inversions     Rate `json:"inversions"`
	FalseAlarmRate Rate `json:"false_alarm_rate"`
	// Labels is the judge's accuracy on the planted labels against
	// chance.
	Labels LabelTest `json:"labels"`
	// Unusable says why the judge cannot be believed: usable verdicts
	// below JudgeMinUsable, or verdicts no better than chance on the
	// planted labels; "" when it can.
	Unusable string `json:"unusable,omitempty"`
	// Cascade is what run --judge-scope uncertain (the default) makes of
	// the same questions: the check's status where it could tell, the
	// judge's verdict where it said uncertain.
	Cascade Cascade `json:"cascade"`
	// Judgements lists every judgement.
	Judgements []Judgement `json:"judgements"`
	// Interrupted is set when ctx was canceled before the end.
	Interrupted bool `json:"interrupted,omitempty"`
}

// JudgeClass is one row of the confusion table: the planted label (a
// class, or FaithfulClass) against the judge's verdicts. Expected is the
// verdict a right judge gives ("" for structural classes, where either
// verdict other than kept is a catch); Caught counts the verdicts other
// than kept on a defect, Agree the expected verdict (kept, for the
// faithful row).
type JudgeClass struct {
	Class        string `json:"class"`
	Expected     string `json:"expected,omitempty"`
	Judged       int    `json:"judged"`
	Kept         int    `json:"kept"`
	Contradicted int    `json:"contradicted"`
	Missing      int    `json:"missing"`
	Errors       int    `json:"errors"`
	Caught       int    `json:"caught"`
	Agree        int    `json:"agree"`
}

// Judgement is one question the judge answered: an invariant of a
// scenario on the oracle of a generation (Class FaithfulClass) or on a
// planted variant.
type Judgement struct {
	Scenario   string `json:"scenario"`
	Invariant  string `json:"invariant"`
	Type       string `json:"type"`
	Class      string `json:"class"`
	Variant    string `json:"variant,omitempty"`
	Generation int    `json:"generation"`
	Verdict    string `json:"verdict,omitempty"`
	Quote      string `json:"quote,omitempty"`
	Error      string `json:"error,omitempty"`
	// Check is the invariant's own check's status on the same document.
	Check result.Status `json:"check,omitempty"`
}

// Cascade measures the judge cascade (run --judge-scope uncertain) on the
// labelled questions of a JudgeReport: only the questions whose check said
// uncertain go to the judge, whose verdict settles them (kept: pass;
// contradicted or missing: fail; no verdict: still uncertain); the others
// keep the check's status.
type Cascade struct {
	// Calls is the judge calls the cascade makes (the questions whose check
	// said uncertain); Of the calls of --judge-scope all (every question).
	Calls int `json:"calls"`
	Of    int `json:"of"`
	// Classes has one row per label, in the order of JudgeReport.Classes.
	Classes []CascadeClass `json:"classes"`
	// InversionsCaught is the share of invert questions the cascade fails;
	// FalseAlarms the share of faithful ones it fails; Uncertain the share
	// of all questions left uncertain (the judge gave no verdict). Nil
	// when there were none.
	InversionsCaught *float64 `json:"inversions_caught"`
	FalseAlarms      *float64 `json:"false_alarms"`
	Uncertain        *float64 `json:"uncertain"`
}

// CascadeClass is one label's outcomes under the cascade: Pass and Fail
// (by the check or, where it could not tell, by the judge), Uncertain
// (the judge gave no verdict either), Other (the check skipped or
// errored), and Settled, how many of Pass and Fail the judge decided.
type CascadeClass struct {
	Class     string `json:"class"`
	Judged    int    `json:"judged"`
	Pass      int    `json:"pass"`
	Fail      int    `json:"fail"`
	Uncertain int    `json:"uncertain"`
	Other     int    `json:"other"`
	Settled   int    `json:"settled"`
}

// cascaded is the status the cascade gives j: the check's, or the judge's
// verdict where the check could not tell; settled says the judge decided.
func cascaded(j Judgement) (s result.Status, settled bool) {
	if j.Check != result.Uncertain {
		return j.Check, false
	}
	switch j.Verdict {
	case judges.Kept:
		return result.Pass, true
	case judges.Contradicted, judges.Missing:
		return result.Fail, true
	}
	return result.Uncertain, false
}

// expected is the verdict a right judge gives for a class.
func expected(class string) string {
	switch class {
	case FaithfulClass:
		return judges.Kept
	case string(Invert):
		return judges.Contradicted
	case string(Omit):
		return judges.Missing
	}
	return ""
}

// MeasureJudge asks j about every judged invariant (secrets never) of the
// oracle of every generation where its check passes, and of every planted
// variant of an invariant, and tallies the verdicts per label. The judge
// gets exactly what run --judge sends: the invariant in plain words and
// the document, secrets redacted.
func MeasureJudge(ctx context.Context, list []*scenarios.Scenario, j judges.Judge, opts JudgeOptions) (*JudgeReport, error) {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	r := &JudgeReport{Judge: opts.Name, Judgements: []Judgement{}}
	sem := make(chan struct{}, jobs)
	for i, sc := range list {
		if ctx.Err() != nil {
			break
		}
		plan, err := NewPlan(ctx, sc, opts.Tokenizer)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return nil, fmt.Errorf("%s: %w", sc.ID, err)
		}
		asks := judgeAsks(plan, opts.Check)
		out := make([]Judgement, len(asks))
		var wg sync.WaitGroup
		for k, a := range asks {
			if ctx.Err() != nil {
				break
			}
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				out[k] = a.ask(ctx, j)
			}()
		}
		wg.Wait()
		checks.Forget(sc)
		r.Judgements = append(r.Judgements, out...)
		if opts.Progress != nil {
			opts.Progress(i+1, len(list))
		}
	}
	r.Interrupted = ctx.Err() != nil
	r.tally()
	if r.Interrupted {
		return r, ctx.Err()
	}
	return r, nil
}

// judgeAsk is one judge question of a plan.
type judgeAsk struct {
	j   Judgement
	req *judges.Request
}

func (a judgeAsk) ask(ctx context.Context, j judges.Judge) Judgement {
	out := a.j
	v := judges.Ask(ctx, j, a.req)
	out.Verdict, out.Quote, out.Error = v.Verdict, v.Quote, v.Error
	return out
}

// judgeAsks lists a plan's questions: each invariant whose check passes
// (or cannot tell) on the oracle of a generation, on that oracle; each
// variant planted for an invariant, on the variant. Each records its
// check's status on its document (check, or the invariant's own check).
func judgeAsks(p *Plan, check func(*checks.Input) []result.CheckResult) []judgeAsk {
	sc := p.Scenario
	rd := iredact.Join(checks.SecretRedactor(sc), iredact.Keys())
	byID := map[string]scenarios.Invariant{}
	for _, inv := range sc.Invariants {
		byID[inv.InvariantID()] = inv
	}
	var asks []judgeAsk
	status := func(inv scenarios.Invariant, gen, cut int, doc json.RawMessage) result.Status {
		in := &checks.Input{Scenario: sc, Gen: checks.Generation{N: gen, Cut: cut}, Raw: doc}
		var res []result.CheckResult
		if check != nil {
			res = check(in)
		} else {
			res = checks.ForInvariant(inv).Check(in)
		}
		for _, c := range res {
			if c.Kind == result.KindInvariant && c.Invariant == inv.InvariantID() {
				return c.Status
			}
		}
		return ""
	}
	add := func(inv scenarios.Invariant, class, variant string, gen, cut int, doc json.RawMessage) {
		f, ok := judges.Describe(sc, inv)
		if !ok {
			return
		}
		// The judge reads what run --judge sends: the document without
		// its extensions, which no agent sees either.
		req := judges.NewInvariantRequest(sc.ID, gen, f, judges.WithoutExtensions(doc))
		judges.Redact(rd, req)
		asks = append(asks, judgeAsk{j: Judgement{Scenario: sc.ID, Invariant: inv.InvariantID(), Type: inv.Type(), Class: class, Variant: variant, Generation: gen,
			Check: status(inv, gen, cut, doc)}, req: req})
	}
	docs := map[int]json.RawMessage{}
	for _, o := range p.Oracles {
		docs[o.Generation] = o.Document
	}
	for _, g := range p.units[Structured].Generations {
		doc, ok := docs[g.N]
		if !ok {
			continue
		}
		for _, c := range g.Checks {
			if inv, ok := byID[c.Invariant]; ok && c.Kind == result.KindInvariant && (c.Status == result.Pass || c.Status == result.Uncertain) {
				add(inv, FaithfulClass, "", g.N, g.Cut, doc)
			}
		}
	}
	for i := range p.Variants {
		v := &p.Variants[i]
		if v.Class == RemoveCitation {
			// Every word is kept: there is nothing for a judge of words to
			// tell, and a "missing" would be scored as a catch it did not
			// make. The recall figures judge this class.
			continue
		}
		if inv, ok := byID[v.Target.ID]; ok && v.Target.Kind == KindInvariant {
			add(inv, string(v.Class), v.ID(), v.Generation, v.Cut, v.Document)
		}
	}
	return asks
}

// tally fills Classes and the two headline rates from Judgements.
func (r *JudgeReport) tally() {
	rows := map[string]*JudgeClass{}
	for _, j := range r.Judgements {
		c := rows[j.Class]
		if c == nil {
			c = &JudgeClass{Class: j.Class, Expected: expected(j.Class)}
			rows[j.Class] = c
		}
		c.Judged++
		switch j.Verdict {
		case judges.Kept:
			c.Kept++
		case judges.Contradicted:
			c.Contradicted++
		case judges.Missing:
			c.Missing++
		default:
			c.Errors++
			continue
		}
		if j.Class != FaithfulClass && j.Verdict != judges.Kept {
			c.Caught++
		}
		if j.Verdict == c.Expected {
			c.Agree++
		}
	}
	r.Classes = nil
	order := []string{FaithfulClass}
	for _, c := range Classes {
		order = append(order, string(c))
	}
	for _, name := range order {
		if c := rows[name]; c != nil {
			r.Classes = append(r.Classes, *c)
		}
	}
	share := func(n, of int) *float64 {
		if of == 0 {
			return nil
		}
		v := float64(n) / float64(of)
		return &v
	}
	if c := rows[string(Invert)]; c != nil {
		r.InversionsCaught = share(c.Contradicted, c.Judged-c.Errors)
	}
	if c := rows[FaithfulClass]; c != nil {
		r.FalseAlarms = share(c.Contradicted, c.Judged-c.Errors)
	}
	r.Cascade = tallyCascade(r.Judgements, order, share)
	r.measure()
}

// tallyCascade computes the cascade's figures from the judgements, rows in
// order.
func tallyCascade(js []Judgement, order []string, share func(n, of int) *float64) Cascade {
	c := Cascade{Of: len(js), Classes: []CascadeClass{}}
	rows := map[string]*CascadeClass{}
	left := 0
	for _, j := range js {
		row := rows[j.Class]
		if row == nil {
			row = &CascadeClass{Class: j.Class}
			rows[j.Class] = row
		}
		row.Judged++
		if j.Check == result.Uncertain {
			c.Calls++
		}
		s, settled := cascaded(j)
		switch s {
		case result.Pass:
			row.Pass++
		case result.Fail:
			row.Fail++
		case result.Uncertain:
			row.Uncertain++
			left++
		default:
			row.Other++
		}
		if settled {
			row.Settled++
		}
	}
	for _, name := range order {
		if row := rows[name]; row != nil {
			c.Classes = append(c.Classes, *row)
		}
	}
	if row := rows[string(Invert)]; row != nil {
		c.InversionsCaught = share(row.Fail, row.Judged)
	}
	if row := rows[FaithfulClass]; row != nil {
		c.FalseAlarms = share(row.Fail, row.Judged)
	}
	c.Uncertain = share(left, len(js))
	return c
}

// WriteJudgeJSON writes r as indented JSON.
func WriteJudgeJSON(w io.Writer, r *JudgeReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}
