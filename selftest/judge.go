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
		asks := judgeAsks(plan)
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
// on the oracle of a generation, on that oracle; each variant planted for
// an invariant, on the variant.
func judgeAsks(p *Plan) []judgeAsk {
	sc := p.Scenario
	rd := iredact.Join(checks.SecretRedactor(sc), iredact.Keys())
	byID := map[string]scenarios.Invariant{}
	for _, inv := range sc.Invariants {
		byID[inv.InvariantID()] = inv
	}
	var asks []judgeAsk
	add := func(inv scenarios.Invariant, class, variant string, gen int, doc json.RawMessage) {
		f, ok := judges.Describe(sc, inv)
		if !ok {
			return
		}
		req := judges.NewInvariantRequest(sc.ID, gen, f, doc)
		judges.Redact(rd, req)
		asks = append(asks, judgeAsk{j: Judgement{Scenario: sc.ID, Invariant: inv.InvariantID(), Type: inv.Type(), Class: class, Variant: variant, Generation: gen}, req: req})
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
			if inv, ok := byID[c.Invariant]; ok && c.Kind == result.KindInvariant && c.Status == result.Pass {
				add(inv, FaithfulClass, "", g.N, doc)
			}
		}
	}
	for i := range p.Variants {
		v := &p.Variants[i]
		if inv, ok := byID[v.Target.ID]; ok && v.Target.Kind == KindInvariant {
			add(inv, string(v.Class), v.ID(), v.Generation, v.Document)
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
}

// WriteJudgeJSON writes r as indented JSON.
func WriteJudgeJSON(w io.Writer, r *JudgeReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}
