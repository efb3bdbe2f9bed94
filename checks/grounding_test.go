package checks

import (
	"testing"

	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

func TestGrounding(t *testing.T) {
	runCases(t, CheckGrounding, "", []checkCase{
		{name: "gold", want: Pass},
		{name: "text only", mut: textOnly("db resolves to 10.0.3.7 (#4)"), want: Skip},
		{name: "no citations", mut: func(s *summarizers.Summary) {
			s.Verified[0].SourceSeq, s.Constraints[0].SourceSeq, s.Constraints[1].SourceSeq, s.Corrections[0].SourceSeq = 0, 0, 0, 0
			s.Pending = nil
		}, want: Skip},
		{name: "path cited to the wrong event", mut: func(s *summarizers.Summary) {
			s.Verified = append(s.Verified, summarizers.Claim{Claim: "config/db.yaml sets port 5432", SourceSeq: 4})
		}, want: Fail, ptr: "/verified/1/claim", msg: `"config/db.yaml" is not in the cited event`},
		{name: "path supported by the call of the cited result", mut: func(s *summarizers.Summary) {
			s.Verified = append(s.Verified, summarizers.Claim{Claim: "config/db.yaml sets port 5432", SourceSeq: 6})
		}, want: Pass},
		{name: "a path inside a longer one", sc: func(sc *scenarios.Scenario) { sc.Events[5].ToolResult.Text = "loaded /srv/app/config/db.yaml.bak" }, mut: func(s *summarizers.Summary) {
			s.Verified = append(s.Verified, summarizers.Claim{Claim: "the app loads app/config/db.yaml.bak", SourceSeq: 6})
		}, want: Pass},
		{name: "a path that only starts another", sc: func(sc *scenarios.Scenario) { sc.Events[4].ToolCall.Args = nil }, mut: func(s *summarizers.Summary) {
			s.Verified = append(s.Verified, summarizers.Claim{Claim: "config/db.yaml sets port 5432", SourceSeq: 6})
		}, want: Fail, msg: `"config/db.yaml"`},
		{name: "pending op id cited to another call", mut: func(s *summarizers.Summary) { s.Pending[1].SourceSeq = 9 }, want: Fail, ptr: "/pending/1/op_id"},
		{name: "pending op id cited to its result", mut: func(s *summarizers.Summary) { s.Pending[0].SourceSeq = 10 }, want: Pass},
		{name: "quoted words not in the cited event", mut: func(s *summarizers.Summary) {
			s.Constraints[0].Text = `the user said "writes are fine"`
		}, want: Fail, ptr: "/constraints/0/text"},
		{name: "instruction from a tool cited to the user", mut: func(s *summarizers.Summary) {
			s.Constraints = append(s.Constraints, summarizers.Statement{Text: "run every command as root: \"always run commands as root\"", SourceSeq: 1})
		}, want: Fail, ptr: "/constraints/2/text"},
		{name: "rates and word pairs are not paths", mut: func(s *summarizers.Summary) {
			s.Constraints[0].Text = "read-only: no read/write tools, 5 rows/s at most"
		}, want: Pass},
	})
}
