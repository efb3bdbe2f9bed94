package reports_test

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// recordedResult is a small result whose first unit is the summarizer
// recorded: its first generation is the agent's own compaction, which lost
// a constraint; its second unit was skipped (no recorded compaction).
func recordedResult(t *testing.T) *result.Result {
	t.Helper()
	r := fake.Result(fake.Config{Scenarios: 2, Seed: 1})
	u := &r.Units[0]
	u.Summarizer = "recorded"
	g := &u.Generations[0]
	g.Recorded = &result.Recorded{Tool: "claude-code", Trigger: "auto", PreTokens: 155000, Timestamp: "2026-03-02T09:30:01Z"}
	g.Checks = append(g.Checks, result.CheckResult{Check: "constraint", Kind: result.KindInvariant, Invariant: "no-main", Status: result.Fail, Message: "no constraint matches"})
	s := &r.Units[1]
	s.Summarizer, s.Skipped, s.Generations = "recorded", "the scenario records no compaction (recorded_compactions): nothing to audit", []result.Generation{}
	r.Config.Summarizers = append(r.Config.Summarizers, "recorded")
	return r
}

const provenance = "recorded by claude-code (auto, 155000 tokens before, 2026-03-02T09:30:01Z)"

// Every report names the recorded generation and its provenance, and the
// Markdown and console reports list the skipped unit.
func TestReportsNameRecorded(t *testing.T) {
	r := recordedResult(t)
	md := render(t, r, "md", reports.Options{})
	for _, want := range []string{"### Recorded compactions", "`" + provenance + "`", "LOST constraint no-main", "skipped, `the scenario records no compaction"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	junit := render(t, r, "junit", reports.Options{})
	if !strings.Contains(junit, "g1 (cut ") || !strings.Contains(junit, provenance) {
		t.Errorf("junit names neither the recorded generation nor its provenance:\n%s", junit)
	}
	html := render(t, r, "html", reports.Options{})
	if !strings.Contains(html, "The agent's own compaction</b>, "+provenance) {
		t.Errorf("html lacks the provenance of the recorded generation")
	}
	if !strings.Contains(html, "skipped: the scenario records no compaction") {
		t.Errorf("html does not say why a unit was skipped")
	}
	js := render(t, r, "json", reports.Options{})
	if !strings.Contains(js, `"recorded":{"tool":"claude-code","trigger":"auto","pre_tokens":155000`) && !strings.Contains(js, `"pre_tokens": 155000`) {
		t.Errorf("json lacks the provenance")
	}
}

func TestGenLabel(t *testing.T) {
	g := result.Generation{N: 2, Cut: 39}
	if got := reports.GenLabel(&g); got != "g2 (cut 39)" {
		t.Errorf("GenLabel = %q", got)
	}
	g.Recorded = &result.Recorded{Tool: "codex"}
	if got := reports.GenLabel(&g); got != "g2 (cut 39, recorded by codex)" {
		t.Errorf("GenLabel = %q", got)
	}
}
