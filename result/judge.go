package result

// Judge scopes (run --judge-scope): which invariants a judge is asked
// about.
const (
	// JudgeScopeUncertain (the default): only the invariants whose check
	// could not tell; the judge's verdict settles them (Judgement.Settled).
	JudgeScopeUncertain = "uncertain"
	// JudgeScopeAll: every invariant whose check applies; a verdict on a
	// pass or a fail is recorded beside it, and an uncertain one is
	// settled as with JudgeScopeUncertain.
	JudgeScopeAll = "all"
)

// Disagreement kinds: the deterministic check and the model judge read the
// same invariant of the same summary differently.
const (
	// PassContradicted: the check passed, the judge says the summary
	// contradicts the fact (a loss no pattern anticipated, or a judge's
	// false alarm).
	PassContradicted = "check_pass_judge_contradicted"
	// FailKept: the check failed, the judge says the summary keeps the fact
	// (a paraphrase the patterns missed, or a judge that was fooled).
	FailKept = "check_fail_judge_kept"
)

// Disagreement is one invariant of one generation on which the check and
// the judge disagree. Status is the check's own status (before any
// --judge-gate override; Gated says the gate turned it into a fail).
type Disagreement struct {
	Kind       string `json:"kind"`
	Scenario   string `json:"scenario"`
	Summarizer string `json:"summarizer"`
	Trial      int    `json:"trial"`
	Generation int    `json:"generation"`
	Check      string `json:"check"`
	Invariant  string `json:"invariant"`
	Status     Status `json:"status"`
	Gated      bool   `json:"gated,omitempty"`
	Verdict    string `json:"verdict"`
	Quote      string `json:"quote,omitempty"`
	Reason     string `json:"reason,omitempty"`
	Line       int    `json:"line,omitempty"`
}

// JudgeSummary counts one summarizer's judged invariants: the judge's
// verdicts, its errors (a judgement with no verdict), how often it agreed
// with the check (kept on a pass; contradicted or missing on a fail) and
// the disagreements of either kind. Free-text answers graded by the judge
// are counted in Answers (correct, incorrect, unsure, errors).
type JudgeSummary struct {
	Summarizer       string `json:"summarizer"`
	Judged           int    `json:"judged"`
	Kept             int    `json:"kept"`
	Contradicted     int    `json:"contradicted"`
	Missing          int    `json:"missing"`
	Errors           int    `json:"errors"`
	Agree            int    `json:"agree"`
	PassContradicted int    `json:"check_pass_judge_contradicted"`
	FailKept         int    `json:"check_fail_judge_kept"`
	Gated            int    `json:"gated,omitempty"`
	// Settled counts the uncertain checks the judge's verdict settled
	// (Judgement.Settled); they are neither agreements nor disagreements.
	Settled int `json:"settled,omitempty"`
	Answers struct {
		Correct   int `json:"correct"`
		Incorrect int `json:"incorrect"`
		Unsure    int `json:"unsure"`
		Errors    int `json:"errors"`
	} `json:"answers"`
}

// judgeFigures computes r.Judge and r.Disagreements from the units; both
// are nil when no judgement was recorded.
func (r *Result) judgeFigures() {
	r.Judge, r.Disagreements = nil, nil
	sums := map[string]*JudgeSummary{}
	get := func(name string) *JudgeSummary {
		s := sums[name]
		if s == nil {
			s = &JudgeSummary{Summarizer: name}
			sums[name] = s
		}
		return s
	}
	for _, u := range r.Units {
		for _, g := range u.Generations {
			for _, c := range g.Checks {
				j := c.Judge
				if j == nil {
					continue
				}
				s := get(u.Summarizer)
				s.Judged++
				status := c.Status
				if j.Overrode != "" {
					status = j.Overrode
					s.Gated++
				}
				if j.Settled != "" {
					status = j.Settled
					s.Settled++
				}
				switch j.Verdict {
				case "kept":
					s.Kept++
				case "contradicted":
					s.Contradicted++
				case "missing":
					s.Missing++
				default:
					s.Errors++
					continue
				}
				kind := ""
				switch {
				case status == Pass && j.Verdict == "contradicted":
					kind, s.PassContradicted = PassContradicted, s.PassContradicted+1
				case status == Fail && j.Verdict == "kept":
					kind, s.FailKept = FailKept, s.FailKept+1
				case status == Pass && j.Verdict == "kept", status == Fail:
					s.Agree++
				}
				if kind != "" {
					r.Disagreements = append(r.Disagreements, Disagreement{Kind: kind, Scenario: u.Scenario.ID, Summarizer: u.Summarizer,
						Trial: u.Trial, Generation: g.N, Check: c.Check, Invariant: c.Invariant, Status: status, Gated: j.Overrode != "",
						Verdict: j.Verdict, Quote: j.Quote, Reason: j.Reason, Line: c.Pos.Line})
				}
			}
		}
		for _, p := range u.Probes {
			for _, d := range []*Decision{&p.Full, &p.Compacted} {
				j := d.Judge
				if j == nil {
					continue
				}
				s := get(u.Summarizer)
				switch j.Verdict {
				case "correct":
					s.Answers.Correct++
				case "incorrect":
					s.Answers.Incorrect++
				case "unsure":
					s.Answers.Unsure++
				default:
					s.Answers.Errors++
				}
			}
		}
	}
	for _, name := range Summarizers(r) {
		if s := sums[name]; s != nil {
			r.Judge = append(r.Judge, *s)
		}
	}
}
