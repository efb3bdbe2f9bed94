package reports_test

import (
	"strings"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/google/go-cmp/cmp"
)

// shards splits a result into n shards by unit index of scenario.
func shards(r *result.Result, n int) []*result.Result {
	out := make([]*result.Result, n)
	for i := range out {
		s := *r
		s.Units = nil
		s.Config.Shard = itoa(i+1) + "/" + itoa(n)
		out[i] = &s
	}
	for _, u := range r.Units {
		k := int(u.Scenario.ID[len(u.Scenario.ID)-1]-'0') % n
		out[k].Units = append(out[k].Units, u)
	}
	for _, s := range out {
		s.Aggregate()
	}
	return out
}

func TestMerge(t *testing.T) {
	whole := fake.Result(fake.Config{Scenarios: 7, Seed: 3})
	parts := shards(whole, 3)
	// Merge order must not matter.
	got, err := result.Merge(parts[2], parts[0], parts[1])
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(whole.Units, got.Units); d != "" {
		t.Errorf("merged units (-want +got):\n%s", d)
	}
	if d := cmp.Diff(whole.Aggregates, got.Aggregates); d != "" {
		t.Errorf("merged aggregates (-want +got):\n%s", d)
	}
	if got.Config.Shard != "" {
		t.Errorf("merged shard = %q, want empty", got.Config.Shard)
	}

	// The merged run spans its shards: earliest start, latest finish; an
	// interrupted shard makes it interrupted, with a warning.
	early, late := *parts[1], *parts[2]
	early.Started = whole.Started.Add(-time.Hour)
	late.Finished = whole.Finished.Add(time.Hour)
	early.Interrupted, early.Resume = true, "compact-eval run --resume s2"
	span, err := result.Merge(parts[0], &early, &late)
	if err != nil {
		t.Fatal(err)
	}
	if !span.Started.Equal(early.Started) || !span.Finished.Equal(late.Finished) || !span.Interrupted {
		t.Errorf("merged started %v finished %v interrupted %v; want %v, %v, true", span.Started, span.Finished, span.Interrupted, early.Started, late.Finished)
	}
	if !strings.Contains(strings.Join(span.Warnings, "\n"), "was interrupted: resume it with compact-eval run --resume s2") {
		t.Errorf("an interrupted shard is not warned about: %v", span.Warnings)
	}

	partial, err := result.Merge(parts[0], parts[2])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(partial.Warnings, "\n"), "shard 2/3 is missing") {
		t.Errorf("a missing shard is not warned about: %v", partial.Warnings)
	}
}

func TestMergeRefuses(t *testing.T) {
	parts := shards(fake.Result(fake.Config{Scenarios: 6, Seed: 3}), 2)
	tests := []struct {
		name   string
		mutate func(*result.Result)
		want   string
	}{
		{"overlap", func(r *result.Result) { r.Units = append(r.Units, parts[0].Units[0]) }, "overlap: both hold scn-"},
		{"harness", func(r *result.Result) { r.Harness = "v9" }, "harness v0.1.0-test vs v9"},
		{"tokenizer", func(r *result.Result) { r.Config.Tokenizer = "cl100k_base" }, "tokenizer o200k_base vs cl100k_base"},
		{"summarizers", func(r *result.Result) { r.Config.Summarizers = []string{"builtin:none"} }, "summarizers"},
		{"agent", func(r *result.Result) { r.Config.Agent = "openai:gpt-4o" }, "agent builtin:reference vs openai:gpt-4o"},
		{"trials", func(r *result.Result) { r.Config.Trials = 5 }, "trials 1 vs 5"},
		{"judge", func(r *result.Result) { r.Config.Judge, r.Config.JudgeGate = "openai:j", true }, `judge "" (gate false) vs "openai:j" (gate true)`},
		{"judge scope", func(r *result.Result) { r.Config.JudgeScope = result.JudgeScopeAll }, `judge scope "" vs "all"`},
		{"agent sampling", func(r *result.Result) { r.Config.AgentSeed = 7 }, "agent seed 0, 0 samples vs seed 7, 0 samples"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			second := *parts[1]
			second.Units = append([]result.Unit(nil), parts[1].Units...)
			second.Config.Summarizers = append([]string(nil), parts[1].Config.Summarizers...)
			tc.mutate(&second)
			_, err := result.Merge(parts[0], &second)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := result.Merge(); err == nil {
		t.Error("merging nothing succeeded")
	}
}
