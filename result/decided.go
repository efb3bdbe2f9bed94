package result

// Decided counts the outcomes of meaning checks by what decided them
// (CheckResult.DecidedBy): Typed, a typed record of the summary;
// Statement, a plain, subject-bound statement of its text; Judge, nothing
// the checks could read plainly, left for a judge (whether or not one
// settled it since). A check that records no DecidedBy (a structural
// check, a result written before the field) is counted under none. In an
// Aggregate each count is absent from the JSON when zero.
type Decided struct {
	Typed     int `json:"decided_typed,omitempty"`
	Statement int `json:"decided_statement,omitempty"`
	Judge     int `json:"decided_judge,omitempty"`
}

// Add counts one outcome decided by by (a DecidedBy value); any other
// value counts nothing.
func (d *Decided) Add(by string) {
	switch by {
	case DecidedTyped:
		d.Typed++
	case DecidedStatement:
		d.Statement++
	case DecidedJudge:
		d.Judge++
	}
}

// Plus adds o's counts to d's.
func (d *Decided) Plus(o Decided) {
	d.Typed += o.Typed
	d.Statement += o.Statement
	d.Judge += o.Judge
}

// Total is the number of outcomes counted.
func (d Decided) Total() int { return d.Typed + d.Statement + d.Judge }
