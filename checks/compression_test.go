package checks

import (
	"testing"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/summary"
)

// A summary that keeps nothing is no compression, however small (issue
// 35: an empty summary passed, "14 tokens of 1,406"). The inputs that
// would fool the rule (nothing but blanks, punctuation or invisible
// characters, empty entries, the content moved to extensions, which the
// agent never sees) fail; the honest small summaries it might wrongly
// flag (a short text, one artifact path, a goal alone, a number alone)
// pass.
func TestCompressionOfAnEmptySummary(t *testing.T) {
	only := func(f func(s *summary.Summary)) func(s *summary.Summary) {
		return func(s *summary.Summary) {
			*s = summary.Summary{SchemaVersion: 1, CoversThrough: s.CoversThrough}
			f(s)
		}
	}
	const nothing = "the summary keeps nothing"
	runCases(t, result.CheckCompression, "", []checkCase{
		{name: "the two required fields alone", mut: only(func(*summary.Summary) {}), want: result.Fail, msg: nothing},
		{name: "an empty text", raw: `{"schema_version":1,"covers_through":12,"text":""}`, want: result.Fail, msg: nothing},
		{name: "blanks", mut: textOnly(" \n\t "), want: result.Fail, msg: nothing},
		{name: "punctuation", mut: textOnly("... — ;"), want: result.Fail, msg: nothing},
		{name: "invisible characters", mut: textOnly("\u200b\u200b\ufeff"), want: result.Fail, msg: nothing},
		{name: "empty entries", mut: only(func(s *summary.Summary) {
			s.Constraints = []summary.Constraint{{Text: ""}, {Text: " ", Status: summary.ConstraintActive}}
			s.Pending = []summary.Pending{{Status: summary.PendingUnknown, SourceSeq: 4}}
			s.NextSteps = []string{"", "-"}
		}), want: result.Fail, msg: nothing},
		{name: "everything in extensions", raw: `{"schema_version":1,"covers_through":12,"extensions":{"notes":"the db is read-only; port 5433"}}`, want: result.Fail, msg: nothing},
		{name: "a short text", mut: textOnly("read-only"), want: result.Pass},
		{name: "one artifact path", mut: only(func(s *summary.Summary) { s.Artifacts = []summary.ArtifactRef{{Path: "config/db.yaml"}} }), want: result.Pass},
		{name: "a constraint's target alone", mut: only(func(s *summary.Summary) { s.Constraints = []summary.Constraint{{Target: "prod-us-2"}} }), want: result.Pass},
		{name: "a goal alone", mut: only(func(s *summary.Summary) { s.Goal = "Find why the API cannot reach the database" }), want: result.Pass},
		{name: "a number alone", mut: textOnly("5433"), want: result.Pass},
		{name: "an approval alone", mut: only(func(s *summary.Summary) { s.Approvals = []summary.Approval{{Approver: "Dana"}} }), want: result.Pass},
		{name: "a handoff alone", mut: only(func(s *summary.Summary) { s.Handoff = &summary.Handoff{PreviousSession: "s-41"} }), want: result.Pass},
		{name: "an empty approval and handoff", mut: only(func(s *summary.Summary) {
			s.Approvals = []summary.Approval{{Approver: " "}}
			s.Handoff = &summary.Handoff{Unresolved: []string{"-"}}
		}), want: result.Fail, msg: nothing},
		{name: "a word in another script", mut: textOnly("只读"), want: result.Pass},
	})
}
