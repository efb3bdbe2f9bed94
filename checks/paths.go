package checks

import (
	"fmt"

	"github.com/compact-eval/compact-eval/result"
)

// PathsCheck is the `paths` check: the summary names artifacts exactly as the
// history did, never an invented or merged name.
//
// Rule: every artifacts[].path must occur verbatim, case-sensitive and as a
// whole token, in an event the summary covers (seq ≤ covers_through): in
// its text, its tool call's arguments or its tool result. A whole token
// ends where no name character follows, so `config/db.yaml` is not
// found in `config/db.yaml.bak` and `a/b` is not found in `./a/b`. Fail
// lists each path not found, saying when it first appears later. Skip when
// the summary lists no artifact (a text-only summary always skips).
type PathsCheck struct{}

// Check implements Check.
func (PathsCheck) Check(in *Input) []result.CheckResult {
	st, res := structural(in, result.CheckPaths, true)
	if st == nil {
		return res
	}
	r := result.CheckResult{Check: result.CheckPaths, Kind: result.KindStructural}
	if len(st.sum.Artifacts) == 0 {
		r.Status, r.Message = result.Skip, "the summary lists no artifact"
		return []result.CheckResult{r}
	}
	bound := st.bound()
	for i, a := range st.sum.Artifacts {
		seq := st.sd.firstPathSeq(a.Path)
		ptr := ptrf("artifacts", i, "path")
		switch {
		case seq == 0:
			r.Evidence = append(r.Evidence, result.Evidence{Pointer: ptr, Text: a.Path, Note: "named by no event"})
		case seq > bound:
			r.Evidence = append(r.Evidence, result.Evidence{Pointer: ptr, Seq: seq, Text: a.Path, Note: fmt.Sprintf("first named at #%d, after covers_through %d", seq, bound)})
		}
	}
	if len(r.Evidence) > 0 {
		e := r.Evidence[0]
		r.Status = result.Fail
		r.Message = fmt.Sprintf("%s %q is %s", e.Pointer, e.Text, e.Note)
		if len(r.Evidence) > 1 {
			r.Message += fmt.Sprintf(" (%d of %d paths)", len(r.Evidence), len(st.sum.Artifacts))
		}
		return []result.CheckResult{r}
	}
	r.Status, r.Message = result.Pass, fmt.Sprintf("all %s occur verbatim in covered events", plural(len(st.sum.Artifacts), "artifact path"))
	return []result.CheckResult{r}
}
