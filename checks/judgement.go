package checks

import "github.com/compact-eval/compact-eval/reports/result"

// Judgement is a model judge's second opinion, recorded beside a
// deterministic verdict and never instead of it (result.Judgement).
type Judgement = result.Judgement
