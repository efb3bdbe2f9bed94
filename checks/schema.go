package checks

import (
	"fmt"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
)

// SchemaCheck is the `schema` check: the summary document validates against the
// summary JSON Schema (summary.SummarySchemaJSON).
//
// Rule: pass when Raw (or, when Raw is empty, the marshalled Summary) has no
// violation; fail with one evidence item per violation (its JSON pointer and
// sentence) otherwise; error when the document cannot be read at all (empty,
// over summary.MaxSummaryBytes, nested deeper than
// summary.MaxSummaryDepth, not JSON). A text-only document is valid and
// passes. With no summary at all (the `none` arm) it says skip.
type SchemaCheck struct{}

// maxViolationEvidence bounds the evidence listed for one document.
const maxViolationEvidence = 20

// Check implements Check.
func (SchemaCheck) Check(in *Input) []result.CheckResult {
	r := result.CheckResult{Check: result.CheckSchema, Kind: result.KindStructural}
	if in.empty() {
		r.Status, r.Message = result.Skip, msgNoSummary
		return []result.CheckResult{r}
	}
	st := in.state()
	switch {
	case st.readErr != nil:
		r.Status, r.Message = result.Error, st.readErr.Error()
	case len(st.viol) > 0:
		r.Status = result.Fail
		r.Message = fmt.Sprintf("%s: %s", plural(len(st.viol), "schema violation"), st.viol[0])
		for i, v := range st.viol {
			if i == maxViolationEvidence {
				r.Evidence = append(r.Evidence, result.Evidence{Note: fmt.Sprintf("%d more not shown", len(st.viol)-i)})
				break
			}
			r.Evidence = append(r.Evidence, result.Evidence{Pointer: v.Pointer, Note: clip.String(v.Message, clipLen)})
		}
	default:
		r.Status, r.Message = result.Pass, "valid summary document"
	}
	return []result.CheckResult{r}
}
