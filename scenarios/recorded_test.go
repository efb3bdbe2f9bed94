package scenarios

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// recordedBase is a session of five events: a call at 2 answered at 3.
const recordedBase = `version: 1
id: rec
events:
  - {role: user, text: "Never push to main."}
  - {role: assistant, tool_call: {id: c1, name: Bash, args: {command: ls}}}
  - {role: tool, tool_result: {call_id: c1, text: "a.go"}}
  - {role: assistant, text: "One file."}
  - {role: user, text: "Push it."}
`

// problems loads and lints src and returns every problem's text.
func problems(t *testing.T, src string) []string {
	t.Helper()
	s, err := LoadBytes("r.yaml", []byte(src))
	var out []string
	if err != nil {
		for _, e := range err.(ErrorList) {
			out = append(out, e.Error())
		}
		return out
	}
	for _, e := range LintScenario(s) {
		out = append(out, e.Error())
	}
	return out
}

// The recorded compactions load with their provenance, and their
// boundaries become the scenario's cuts.
func TestRecordedLoads(t *testing.T) {
	src := recordedBase + `recorded_compactions:
  - {boundary: 1, summary: "Rule: never push to main.", tool: claude-code, trigger: auto, pre_tokens: 1200, timestamp: "2026-03-02T09:30:01Z"}
  - {boundary: 4, summary: "Never push to main. ls shows a.go.", tool: codex}
`
	s, err := LoadBytes("r.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if errs := LintScenario(s); len(errs) > 0 {
		t.Fatal(errs)
	}
	if !slices.Equal(s.Compaction.At, []int{1, 4}) || !s.Compaction.FromRecorded {
		t.Errorf("cuts %v (from recorded %v), want the boundaries [1 4]", s.Compaction.At, s.Compaction.FromRecorded)
	}
	r, ok := s.RecordedAt(1)
	if !ok || r.Tool != "claude-code" || r.Trigger != RecordedAuto || r.PreTokens != 1200 || r.Timestamp != "2026-03-02T09:30:01Z" || r.Summary != "Rule: never push to main." {
		t.Errorf("RecordedAt(1) = %+v, %v", r, ok)
	}
	if _, ok := s.RecordedAt(2); ok {
		t.Error("RecordedAt(2) found a compaction at a seq that has none")
	}
	// compaction.at may repeat the boundaries.
	same := strings.Replace(src, "events:", "compaction: {at: [1, 4], max_ratio: 0.9}\nevents:", 1)
	if p := problems(t, same); len(p) > 0 {
		t.Errorf("compaction.at equal to the boundaries: %v", p)
	}
}

// Every mistake in recorded_compactions is reported at its place.
func TestRecordedProblems(t *testing.T) {
	for _, tc := range []struct {
		name, compaction, recorded string
		want                       []string
	}{
		{"outside", "", `  - {boundary: 9, summary: x}`,
			[]string{"r.yaml:10:16: recorded_compactions[0].boundary: 9 is outside the session (events 1..5)"}},
		{"splits a call", "", `  - {boundary: 2, summary: x}`,
			[]string{`r.yaml:10:16: recorded_compactions[0].boundary: 2 splits a protocol unit: call "c1" at seq 2 has its result at seq 3`}},
		{"not rising", "", "  - {boundary: 4, summary: x}\n  - {boundary: 3, summary: y}",
			[]string{"r.yaml:11:16: recorded_compactions[1].boundary: 3 must be greater than the boundary before it, 4 (one compaction a boundary, in order)"}},
		{"empty summary", "", `  - {boundary: 1, summary: "  "}`,
			[]string{"r.yaml:10:28: recorded_compactions[0].summary: empty (a compaction with no text has nothing to audit)"}},
		{"no summary", "", `  - {boundary: 1}`,
			[]string{`r.yaml:10:5: recorded_compactions[0]: missing required field "summary"`}},
		{"bad trigger", "", `  - {boundary: 1, summary: x, trigger: scheduled}`,
			[]string{`r.yaml:10:40: recorded_compactions[0].trigger: "scheduled" is not a trigger (valid: manual, auto; leave it out when the log does not say)`}},
		{"bad time", "", `  - {boundary: 1, summary: x, timestamp: yesterday}`,
			[]string{`r.yaml:10:42: recorded_compactions[0].timestamp: "yesterday" is not an RFC 3339 time (2026-03-02T09:30:00Z)`}},
		{"negative tokens", "", `  - {boundary: 1, summary: x, pre_tokens: -3}`,
			[]string{"r.yaml:10:43: recorded_compactions[0].pre_tokens: must not be negative, got -3"}},
		{"unknown field", "", `  - {boundary: 1, summary: x, model: opus}`,
			[]string{`r.yaml:10:31: recorded_compactions[0]: unknown field "model" (valid: boundary, summary, tool, trigger, pre_tokens, timestamp)`}},
		{"other cuts", "compaction: {at: [3]}\n", `  - {boundary: 1, summary: x}`,
			[]string{"r.yaml:3:13: compaction.at [3] differs from the recorded boundaries [1]: a scenario with recorded_compactions is cut at their boundaries (leave compaction.at out, or list the same seqs)"}},
		{"token trigger", "compaction: {threshold_tokens: 900, keep_recent: 2}\n", `  - {boundary: 1, summary: x}`,
			[]string{
				"r.yaml:3:13: compaction.keep_recent: a scenario with recorded_compactions is cut at their boundaries; keep_recent would choose other cuts (remove it)",
				"r.yaml:3:13: compaction.threshold_tokens: a scenario with recorded_compactions is cut at their boundaries; threshold_tokens would choose other cuts (remove it)",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(recordedBase, "events:", tc.compaction+"events:", 1) + "recorded_compactions:\n" + tc.recorded + "\n"
			got := problems(t, src)
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s\ngot %q", diff, got)
			}
		})
	}
}
