package checks

import (
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/scenarios"
)

func TestStalePending(t *testing.T) {
	addPending := func(p summary.Pending) func(s *summary.Summary) {
		return func(s *summary.Summary) { s.Pending = append(s.Pending, p) }
	}
	runCases(t, result.CheckStalePending, "", []checkCase{
		{name: "gold", want: result.Pass},
		{name: "nothing pending", mut: func(s *summary.Summary) { s.Pending = nil }, want: result.Skip},
		{name: "text only", mut: textOnly("c1 finished; c4 unknown"), want: result.Pass},
		{name: "text only naming no finished call", mut: textOnly("c3 and c4 unknown"), want: result.Skip},
		{name: "text only: finished call hedged", mut: textOnly("c1 and c4 are unknown"), want: result.Fail, ptr: "/text", msg: "c1 is named as unfinished"},
		{name: "text only: finished call with no result", mut: textOnly("No result yet for c2; c4 unknown"), want: result.Fail},
		{name: "text only: spanish", mut: textOnly("c1 sigue pendiente."), want: result.Fail},
		{name: "text only: a list keeps each status", mut: textOnly("c1 done, c4 unknown"), want: result.Pass},
		{name: "finished call listed as unknown", mut: addPending(summary.Pending{OpID: "c1", Status: "unknown", SourceSeq: 3}), want: result.Fail, ptr: "/pending/2/status", msg: "c1 is listed as unknown; its result came back ok at #4"},
		{name: "finished call listed as pending", mut: addPending(summary.Pending{OpID: "c2", Status: "pending", SourceSeq: 5}), want: result.Fail},
		{name: "finished call listed as in flight", mut: addPending(summary.Pending{OpID: "c2", Status: "in_flight", SourceSeq: 5}), want: result.Fail},
		{name: "finished call with no status", mut: addPending(summary.Pending{OpID: "c2", SourceSeq: 5}), want: result.Fail, msg: "no status"},
		{name: "finished call named only in a description", mut: addPending(summary.Pending{Description: "re-run c1 (dns lookup)", Status: "unknown"}), want: result.Fail, ptr: "/pending/2/description"},
		{name: "finished call listed as done", mut: addPending(summary.Pending{OpID: "c1", Status: "done", SourceSeq: 3}), want: result.Pass},
		{name: "finished call listed as failed", mut: addPending(summary.Pending{OpID: "c1", Status: "failed", SourceSeq: 3}), want: result.Pass},
		{name: "result after the cut is not finished yet", mut: addPending(summary.Pending{OpID: "c6", Status: "unknown"}), gen: func(g *Generation, _ *scenarios.Scenario) {}, want: result.Pass},
		{name: "a timeout is not finished", mut: func(s *summary.Summary) { s.Pending[0].Status = "pending" }, want: result.Pass},
		{name: "every call listed as unknown", mut: func(s *summary.Summary) {
			s.Pending = nil
			for _, id := range []string{"c1", "c2", "c3", "c4"} {
				s.Pending = append(s.Pending, summary.Pending{OpID: id, Status: "unknown"})
			}
		}, want: result.Fail, msg: "(2 of 4 pending entries)"},
		{name: "an error result is finished but not ok", sc: func(sc *scenarios.Scenario) { sc.Events[3].ToolResult.Status = scenarios.StatusError }, mut: addPending(summary.Pending{OpID: "c1", Status: "unknown"}), want: result.Pass},
	})
}
