package importer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/scenarios"
)

// importCase imports a CompactBench fixture (record index of a file of
// cases) and loads it; the scenario must load, lint and pass the
// reference agent's self-consistency check as written.
func importCase(t *testing.T, path string, index int) (*scenarios.Scenario, *importer.Report, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep, err := importer.Import(bytes.NewReader(data), &out, importer.Options{Name: path, Index: index})
	if err != nil {
		t.Fatalf("import %s: %v", path, err)
	}
	if rep.Format != importer.FormatCompactBench || !rep.Detected {
		t.Fatalf("detected %v, want compactbench", rep.Detection)
	}
	s, err := scenarios.LoadBytes("case.yaml", out.Bytes())
	if err != nil {
		t.Fatalf("load: %v\n%s", err, out.String())
	}
	if errs := scenarios.LintScenario(s); len(errs) > 0 {
		t.Fatalf("lint: %v\n%s", errs, out.String())
	}
	if errs := agents.CheckProbes(s); len(errs) > 0 {
		t.Fatalf("probes: %v\n%s", errs, out.String())
	}
	if strings.Contains(out.String(), scenarios.Placeholder) {
		t.Errorf("a CompactBench scenario is finished, but it holds %s:\n%s", scenarios.Placeholder, out.String())
	}
	return s, rep, out.String()
}

// judge runs the invariant checks on a summary of s's cut and the reference
// agent on the compacted context (goal, summary, the tail), and returns the
// failing invariants and each probe's choice.
func judge(t *testing.T, s *scenarios.Scenario, summary map[string]any) (failed []string, choice map[string]string) {
	t.Helper()
	cut := s.Compaction.At[0]
	summary["schema_version"] = 1
	summary["covers_through"] = cut
	raw, err := json.Marshal(summary)
	if err != nil {
		t.Fatal(err)
	}
	var tail []scenarios.Event
	for _, e := range s.Events {
		if e.Seq > cut {
			tail = append(tail, e)
		}
	}
	in := &checks.Input{Scenario: s, Raw: raw, Gen: checks.Generation{N: 1, Cut: cut, Tail: tail}}
	for _, r := range checks.Run(in) {
		if r.Status == result.Fail && r.Kind == result.KindInvariant {
			failed = append(failed, r.Invariant+": "+r.Message)
		}
	}
	choice = map[string]string{}
	c := agents.Context{Goal: s.Goal, Summary: raw, Events: tail}
	for _, p := range s.Probes {
		d, err := agents.Reference{}.Decide(context.Background(), agents.ProbeRequest(s, p, agents.ArmCompacted, c))
		if err != nil {
			t.Fatalf("probe %s: %v", p.ID, err)
		}
		choice[p.ID] = d.Choice
	}
	return failed, choice
}

func TestCompactBenchBuriedConstraint(t *testing.T) {
	s, rep, out := importCase(t, "../testdata/import/compactbench/buried_constraint.json", 0)
	if rep.Invariants != 1 || rep.Probes != 4 || rep.Cut != 11 || rep.Events != 12 {
		t.Errorf("report %+v: want 12 events, cut at 11 (the final question in the tail), 1 invariant, 4 probes", rep)
	}
	if strings.Contains(out, "critical_constraint") || strings.Contains(out, "distractor") {
		t.Errorf("the turns' tags are the answer key and must not reach the scenario:\n%s", out)
	}
	if r := s.Compaction.MaxRatio; r < 0.5 || r > 1 {
		t.Errorf("max_ratio %g, want in [0.5, 1]", r)
	}
	// A faithful summary, in its own words: the rule as a constraint.
	failed, choice := judge(t, s, map[string]any{
		"constraints": []any{map[string]any{"text": "Never schedule moves during the peak season (hard rule)", "source_seq": 3}},
		"verified":    []any{map[string]any{"claim": "The warehouse relocation plan is drafted with Ingrid Solberg", "source_seq": 1}},
	})
	if len(failed) > 0 {
		t.Errorf("faithful summary failed: %v", failed)
	}
	for id, want := range map[string]string{"recall-rule": "answer", "apply-rule": "avoid", "who-leads": "answer"} {
		if choice[id] != want {
			t.Errorf("faithful summary: probe %s chose %q, want %q", id, choice[id], want)
		}
	}
	// The summary that would fool a word check: the rule's words, lifted.
	failed, choice = judge(t, s, map[string]any{
		"constraints": []any{map[string]any{"text": "The rule against scheduling moves during the peak season no longer applies", "source_seq": 3}},
		"text":        "Plan with Ingrid Solberg: schedule moves during the peak season is now allowed.",
	})
	if len(failed) == 0 {
		t.Errorf("a summary that lifts the rule passed the constraint")
	}
	if choice["apply-rule"] != "violate" {
		t.Errorf("a summary that lifts the rule: apply-rule chose %q, want violate", choice["apply-rule"])
	}
}

func TestCompactBenchDecisionOverride(t *testing.T) {
	s, _, _ := importCase(t, "../testdata/import/compactbench/decision_override.json", 0)
	var corr *scenarios.Correction
	for _, inv := range s.Invariants {
		if c, ok := scenarios.Pointer(inv).(*scenarios.Correction); ok {
			corr = c
		}
	}
	if corr == nil || corr.Old != "batch the invoices nightly" || corr.New != "stream the invoices through the event bus" || corr.SourceSeq != 3 {
		t.Fatalf("want the override as a correction at seq 3, got %+v", corr)
	}
	// Faithful: the new plan, the old one only as superseded.
	failed, choice := judge(t, s, map[string]any{
		"corrections": []any{map[string]any{"subject": "the plan", "value": "stream the invoices through the event bus", "supersedes": "batch the invoices nightly", "source_seq": 3}},
	})
	if len(failed) > 0 || choice["recall-latest-decision"] != "answer" || choice["reject-earlier"] != "avoid" {
		t.Errorf("faithful summary: failed %v, choices %v", failed, choice)
	}
	// Resurrects the old plan: the correction fails and the probe takes the
	// confusable value.
	failed, choice = judge(t, s, map[string]any{
		"decisions": []any{map[string]any{"text": "Plan: batch the invoices nightly", "source_seq": 1}},
	})
	if len(failed) == 0 || choice["recall-latest-decision"] != "confused" || choice["reject-earlier"] != "violate" {
		t.Errorf("a summary with the old plan: failed %v, choices %v", failed, choice)
	}
	// Loses everything: the agent cannot say.
	_, choice = judge(t, s, map[string]any{"text": "We chatted about printers, chess and cats."})
	if choice["recall-latest-decision"] != "unknown" {
		t.Errorf("an empty summary: choices %v", choice)
	}
}

func TestCompactBenchEntitiesAndSets(t *testing.T) {
	s, _, out := importCase(t, "../testdata/import/compactbench/cases.jsonl", 0)
	byID := map[string]scenarios.Probe{}
	for _, p := range s.Probes {
		byID[p.ID] = p
	}
	set, ok := byID["both-owners"]
	if !ok || len(set.RequiresFor("all")) != 2 {
		t.Fatalf("set_match: want a probe whose right option needs both names, got %+v\n%s", set, out)
	}
	if _, ok := byID["unresolved-the-budget-sign-off"]; !ok {
		t.Errorf("an unresolved item no evaluation item asks about should become a probe:\n%s", out)
	}
	if _, ok := byID["deferred-the-onsite-visit"]; !ok {
		t.Errorf("a deferred item should become a probe:\n%s", out)
	}
	// A summary that keeps one owner of two: the set probe is partial.
	_, choice := judge(t, s, map[string]any{
		"verified": []any{map[string]any{"claim": "Amara Okafor owns the contract review", "source_seq": 1}},
	})
	if choice["both-owners"] != "partial" || choice["assign-a"] != "answer" || choice["no-swap"] != "violate" {
		t.Errorf("one owner kept: choices %v", choice)
	}
	// Swapped owners: "Does Amara own the questionnaire?" is no longer avoided.
	s2, _, _ := importCase(t, "../testdata/import/compactbench/cases.jsonl", 1)
	_, choice = judge(t, s2, map[string]any{
		"verified": []any{map[string]any{"claim": "Jonas Eklund handles the customs filing", "source_seq": 2}},
	})
	if choice["recall-owner"] != "confused" || choice["no-misroute"] != "violate" {
		t.Errorf("owner swapped: choices %v", choice)
	}
	_, choice = judge(t, s2, map[string]any{
		"constraints": []any{map[string]any{"text": "Do not route the customs filing through Jonas Eklund", "source_seq": 3}},
		"verified":    []any{map[string]any{"claim": "Priya Natarajan at Halden Logistics handles the customs filing", "source_seq": 1}},
	})
	if choice["recall-owner"] != "answer" || choice["no-misroute"] != "avoid" {
		t.Errorf("faithful: choices %v", choice)
	}
}

func TestCompactBenchErrors(t *testing.T) {
	for _, tc := range []struct{ name, input, want string }{
		{"no turns", `{"case_id": "x", "transcript": {"turns": []}, "ground_truth": {}, "evaluation_items": []}`, "no transcript.turns"},
		{"bad role", `{"case_id": "x", "transcript": {"turns": [{"id": 0, "role": "tool", "content": "x"}, {"id": 1, "role": "user", "content": "q?"}]}, "ground_truth": {}}`, `role "tool" is not user, assistant or system`},
		{"one turn", `{"case_id": "x", "transcript": {"turns": [{"id": 0, "role": "user", "content": "q?"}]}, "evaluation_items": []}`, "nothing to compact"},
		{"bad entity map", `{"case_id": "x", "transcript": {"turns": [{"id": 0, "role": "user", "content": "a"}, {"id": 1, "role": "user", "content": "q?"}]}, "ground_truth": {"entity_map": ["a"]}}`, "entity_map"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := importer.Import(strings.NewReader(tc.input), &bytes.Buffer{}, importer.Options{Format: importer.FormatCompactBench})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// TestCompactBenchTooShort: a case whose faithful summary is as long as
// the turns it replaces is imported with max_ratio 1 and a warning.
func TestCompactBenchTooShort(t *testing.T) {
	input := `{"case_id": "tiny:s1:deasy", "transcript": {"turns": [
{"id": 0, "role": "user", "content": "Never deploy on Fridays."},
{"id": 1, "role": "user", "content": "What now?"}]},
"ground_truth": {"forbidden_behaviors": ["deploy on Fridays"]},
"evaluation_items": [{"key": "k", "item_type": "forbidden_behavior_retention", "prompt": "Can we deploy?", "expected": {"check": "forbidden_absent", "value": "deploy on Fridays"}}]}`
	var out bytes.Buffer
	rep, err := importer.Import(strings.NewReader(input), &out, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "max_ratio: 1}") || !strings.Contains(strings.Join(rep.Warnings, "\n"), "even max_ratio 1 may fail a faithful summary") {
		t.Errorf("want max_ratio 1 and a warning; warnings %q\n%s", rep.Warnings, out.String())
	}
	if rep.ID != "tiny-s1-deasy" {
		t.Errorf("id %q, want it from the case id", rep.ID)
	}
}

func TestCompactBenchDetect(t *testing.T) {
	one := `{"case_id": "a", "template_key": "t", "transcript": {"turns": [{"id": 0, "role": "user", "content": "x"}]}, "ground_truth": {}, "evaluation_items": []}`
	for _, tc := range []struct {
		name, input string
		records     bool
	}{
		{"one case", one, false},
		{"pretty", "{\n  \"case_id\": \"a\",\n  \"transcript\": {\"turns\": []},\n  \"evaluation_items\": []\n}", false},
		{"array", "[" + one + "," + one + "]", true},
		{"jsonl", one + "\n" + one + "\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := importer.DetectInput(bufioReader(tc.input))
			if err != nil || d.Format != importer.FormatCompactBench || d.Records != tc.records {
				t.Errorf("detected %+v (%v), want compactbench, records %v", d, err, tc.records)
			}
		})
	}
}

// TestCompactBenchPartialOverride: the shape of a partial override ("Same
// goal, but … Use Y instead. The X plan is off the table.") with a labelled
// decision ("approach: Y") is one correction, subject "approach", and no
// constraint: a faithful summary says X was replaced, not that X is banned.
func TestCompactBenchPartialOverride(t *testing.T) {
	input := `{"case_id": "decision_override_v1_3:s8:dmedium", "template_key": "decision_override_v1_3", "transcript": {"turns": [
{"id": 0, "role": "user", "content": "Goal: ship the loyalty app this quarter with Rosa Diaz leading. Approach: outsource the mobile build."},
{"id": 1, "role": "assistant", "content": "Understood."},
{"id": 2, "role": "user", "content": "Same goal, but let's swap the approach. Use an in-house squad instead. The outsource the mobile build plan is off the table."},
{"id": 3, "role": "assistant", "content": "Goal unchanged, approach is now an in-house squad."},
{"id": 4, "role": "user", "content": "By the way, the elevator is slow today."},
{"id": 5, "role": "assistant", "content": "Noted. Back to the plan?"},
{"id": 6, "role": "user", "content": "Given the agreed plan, what's the first concrete step?"}]},
"ground_truth": {"immutable_facts": ["goal: ship loyalty app this quarter", "lead: Rosa Diaz"], "locked_decisions": ["approach: an in-house squad"],
 "forbidden_behaviors": ["outsource the mobile build"], "entity_map": {"Rosa Diaz": "primary_subject"}},
"evaluation_items": [
 {"key": "recall_approach", "item_type": "locked_decision_retention", "prompt": "What approach did we end up choosing?", "expected": {"check": "contains_normalized", "value": "an in-house squad"}},
 {"key": "reject_initial", "item_type": "forbidden_behavior_retention", "prompt": "Are we using the initial approach?", "expected": {"check": "forbidden_absent", "value": "outsource the mobile build"}},
 {"key": "goal_preserved", "item_type": "immutable_fact_recall", "prompt": "Who is leading this project?", "expected": {"check": "contains_normalized", "value": "Rosa Diaz"}}]}`
	var out bytes.Buffer
	if _, err := importer.Import(strings.NewReader(input), &out, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.LoadBytes("case.yaml", out.Bytes())
	if err != nil {
		t.Fatalf("load: %v\n%s", err, out.String())
	}
	if errs := agents.CheckProbes(s); len(errs) > 0 {
		t.Fatalf("probes: %v\n%s", errs, out.String())
	}
	if len(s.Invariants) != 1 {
		t.Fatalf("want one invariant (the correction), got %d:\n%s", len(s.Invariants), out.String())
	}
	c, ok := scenarios.Pointer(s.Invariants[0]).(*scenarios.Correction)
	if !ok || c.Subject != "approach" || c.Old != "outsource the mobile build" || c.New != "an in-house squad" || c.SourceSeq != 3 {
		t.Fatalf("want the approach corrected at seq 3, got %+v", s.Invariants[0])
	}
	failed, choice := judge(t, s, map[string]any{
		"goal":        "ship the loyalty app this quarter, led by Rosa Diaz",
		"corrections": []any{map[string]any{"subject": "approach", "value": "an in-house squad", "supersedes": "outsource the mobile build", "source_seq": 3}},
	})
	if len(failed) > 0 || choice["recall-approach"] != "answer" || choice["reject-initial"] != "avoid" || choice["goal-preserved"] != "answer" {
		t.Errorf("faithful summary: failed %v, choices %v", failed, choice)
	}
}

// TestCompactBenchNonLatin: values in a script RE2's \b does not know are
// still found, and the probe still needs them.
func TestCompactBenchNonLatin(t *testing.T) {
	input := `{"case_id": "ru:s1:dmedium", "transcript": {"turns": [
{"id": 0, "role": "user", "content": "Проект ведёт Анна Петрова. Никогда не удаляйте резервные копии."},
{"id": 1, "role": "assistant", "content": "Понятно."},
{"id": 2, "role": "user", "content": "Кстати, сегодня идёт дождь."},
{"id": 3, "role": "assistant", "content": "Ясно."},
{"id": 4, "role": "user", "content": "Кто ведёт проект?"}]},
"ground_truth": {"entity_map": {"Анна Петрова": "lead"}},
"evaluation_items": [{"key": "lead", "item_type": "entity_integrity", "prompt": "Кто ведёт проект?", "expected": {"check": "contains_normalized", "value": "Анна Петрова"}}]}`
	var out bytes.Buffer
	rep, err := importer.Import(strings.NewReader(input), &out, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Probes != 1 {
		t.Fatalf("want the item as a probe, got %d probes; warnings %q\n%s", rep.Probes, rep.Warnings, out.String())
	}
	s, err := scenarios.LoadBytes("case.yaml", out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if errs := agents.CheckProbes(s); len(errs) > 0 {
		t.Fatalf("probes: %v", errs)
	}
	_, choice := judge(t, s, map[string]any{"text": "Дождь."})
	if choice["lead"] != "unknown" {
		t.Errorf("a summary without the name: %v", choice)
	}
}
