package checks

import (
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/internal/quantity"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// QuantityCheck checks a `quantity` invariant: a number with its unit
// survives with the same value and unit, in any usual spelling.
//
// Rule: some field of the summary (text alone on a text-only summary), and
// when match patterns are given a field that also matches one of them,
// states a quantity equal to the invariant's value and unit (package
// internal/quantity: "50,000 tokens" = "50 000 tokens" = "50k tokens";
// "30 s" = "30 sec" = "30 segundos"; "80 %" = "80 percent"; 30 s = 30000 ms).
// Fail says what was wanted and, when the summary states a near miss (the
// same number in another unit, or the same unit with another number), names
// it and where: "want 30 s; found 30 ms at /constraints/0/text". Skip while
// the quantity is first stated after the cut.
type QuantityCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.Quantity
}

// Check implements Check.
func (c QuantityCheck) Check(in *Input) []Result {
	if c.Inv == nil {
		return nilInvariant(scenarios.TypeQuantity)
	}
	inv := c.Inv
	first := 0
	if in.Scenario != nil {
		first = dataFor(in.Scenario).firstQuantitySeq(inv)
	}
	st, r, ok := invariant(in, inv, first)
	if !ok {
		return []Result{r}
	}
	if r, bad := badPattern(r, inv.Match); bad {
		return []Result{r}
	}
	want := quantity.Format(inv.Value, inv.Unit)
	leaves := st.leaves
	if st.sum.TextOnly() {
		leaves = st.textLeaves()
	}
	var near []Evidence
	for _, l := range leaves {
		pattern := ""
		if len(inv.Match) > 0 {
			p, _, ok := textmatch.FindAny(inv.Match, l.folded)
			if !ok {
				continue
			}
			pattern = p
		}
		for _, q := range quantity.Parse(l.text) {
			if quantity.Equal(q.Value, q.Unit, inv.Value, inv.Unit) {
				r.Status = Pass
				r.Message = fmt.Sprintf("%s kept at %s as %q", want, l.ptr, q.Text)
				r.Evidence = []Evidence{{Pointer: l.ptr, Seq: first, Text: q.Text, Pattern: pattern}}
				return []Result{r}
			}
			sameValue := q.Value == inv.Value && q.Unit != ""
			if sameValue || q.Unit != "" && quantity.SameDimension(q.Unit, inv.Unit) {
				e := Evidence{Pointer: l.ptr, Seq: first, Text: q.Text, Pattern: pattern, Note: "near miss"}
				if sameValue {
					// the same number in another unit is the likeliest swap
					near = append([]Evidence{e}, near...)
				} else {
					near = append(near, e)
				}
			}
		}
	}
	r.Status = Fail
	where := ""
	if len(inv.Match) > 0 {
		where = " where " + anyOf(inv.Match) + " matches"
	}
	if len(near) > 0 {
		if len(near) > 3 {
			near = near[:3]
		}
		var found []string
		for _, e := range near {
			found = append(found, fmt.Sprintf("%s at %s", e.Text, e.Pointer))
		}
		r.Message = fmt.Sprintf("want %s%s; found %s", want, where, strings.Join(found, ", "))
		r.Evidence = near
		return []Result{r}
	}
	r.Message = fmt.Sprintf("want %s%s; the summary states no such quantity", want, where)
	r.Evidence = []Evidence{{Seq: first, Text: want, Pattern: anyOf(inv.Match), Note: "not found"}}
	return []Result{r}
}
