package result

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Merge joins the results of the shards of one run (`run --shard i/n`) into
// one result and aggregates it. It refuses results of incompatible runs
// (different result version, harness, tokenizer, summarizers, agent or
// trials) and overlapping units (the same scenario × summarizer × trial in
// two results). Missing shards, duplicated shard numbers and differing
// paths are warnings on the merged result, not errors.
func Merge(results ...*Result) (*Result, error) {
	if len(results) == 0 {
		return nil, errors.New("merge: no results")
	}
	first := results[0]
	var errs []error
	for i, r := range results[1:] {
		if d := incompatible(first, r); d != "" {
			errs = append(errs, fmt.Errorf("result %d is not from the same run as result 1: %s", i+2, d))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	out := &Result{
		ResultVersion: first.ResultVersion, Harness: first.Harness, RunID: first.RunID,
		Started: first.Started, Finished: first.Finished, Config: first.Config, Git: first.Git,
	}
	out.Config.Shard = ""
	out.Config.Summarizers = slices.Clone(first.Config.Summarizers)
	out.Config.Suite = mergeSuites(results)
	type unitKey struct {
		scenario, summarizer string
		trial                int
	}
	owner := map[unitKey]int{}
	var ids, shards []string
	seenWarn := map[string]bool{}
	for i, r := range results {
		if !slices.Contains(ids, r.RunID) {
			ids = append(ids, r.RunID)
		}
		if r.Started.Before(out.Started) {
			out.Started = r.Started
		}
		if r.Finished.After(out.Finished) {
			out.Finished = r.Finished
		}
		if r.Interrupted {
			out.Interrupted = true
			out.Warnings = append(out.Warnings, fmt.Sprintf("result %d (shard %q) was interrupted: resume it with %s", i+1, r.Config.Shard, r.Resume))
		}
		if !slices.Equal(r.Config.Paths, first.Config.Paths) {
			out.Warnings = append(out.Warnings, fmt.Sprintf("result %d ran paths %v, result 1 ran %v", i+1, r.Config.Paths, first.Config.Paths))
		}
		shards = append(shards, r.Config.Shard)
		for _, w := range r.Warnings {
			if !seenWarn[w] {
				seenWarn[w] = true
				out.Warnings = append(out.Warnings, w)
			}
		}
		for _, u := range r.Units {
			k := unitKey{u.Scenario.ID, u.Summarizer, u.Trial}
			if j, dup := owner[k]; dup {
				errs = append(errs, fmt.Errorf("results %d and %d overlap: both hold %s × %s trial %d", j+1, i+1, k.scenario, k.summarizer, k.trial+1))
				if len(errs) >= 10 {
					return nil, errors.Join(append(errs, errors.New("too many overlaps"))...)
				}
				continue
			}
			owner[k] = i
			out.Units = append(out.Units, u)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(ids) > 1 {
		out.RunID = strings.Join(ids, "+")
	}
	warn, missing := shardWarnings(shards)
	out.Warnings = append(out.Warnings, warn...)
	out.MissingShards = missing
	order := map[string]int{}
	for i, s := range Summarizers(out) {
		order[s] = i
	}
	sort.SliceStable(out.Units, func(i, j int) bool {
		a, b := out.Units[i], out.Units[j]
		switch {
		case a.Scenario.ID != b.Scenario.ID:
			return a.Scenario.ID < b.Scenario.ID
		case a.Summarizer != b.Summarizer:
			return order[a.Summarizer] < order[b.Summarizer]
		}
		return a.Trial < b.Trial
	})
	out.Aggregate()
	return out, nil
}

// incompatible says how b differs from a in a way that forbids merging.
func incompatible(a, b *Result) string {
	var d []string
	if a.ResultVersion != b.ResultVersion {
		d = append(d, fmt.Sprintf("result version %d vs %d", a.ResultVersion, b.ResultVersion))
	}
	if a.Harness != b.Harness {
		d = append(d, fmt.Sprintf("harness %s vs %s", a.Harness, b.Harness))
	}
	if a.Config.Tokenizer != b.Config.Tokenizer {
		d = append(d, fmt.Sprintf("tokenizer %s vs %s", a.Config.Tokenizer, b.Config.Tokenizer))
	}
	if !slices.Equal(a.Config.Summarizers, b.Config.Summarizers) {
		d = append(d, fmt.Sprintf("summarizers %v vs %v", a.Config.Summarizers, b.Config.Summarizers))
	}
	if a.Config.Agent != b.Config.Agent {
		d = append(d, fmt.Sprintf("agent %s vs %s", a.Config.Agent, b.Config.Agent))
	}
	if a.Config.Run != b.Config.Run || !slices.Equal(a.Config.Scenarios, b.Config.Scenarios) {
		d = append(d, fmt.Sprintf("scenario filters --run %q --scenario %v vs --run %q --scenario %v", a.Config.Run, a.Config.Scenarios, b.Config.Run, b.Config.Scenarios))
	}
	if a.Config.Trials != b.Config.Trials {
		d = append(d, fmt.Sprintf("trials %d vs %d", a.Config.Trials, b.Config.Trials))
	}
	if a.Config.Judge != b.Config.Judge || a.Config.JudgeGate != b.Config.JudgeGate {
		d = append(d, fmt.Sprintf("judge %q (gate %t) vs %q (gate %t)", a.Config.Judge, a.Config.JudgeGate, b.Config.Judge, b.Config.JudgeGate))
	} else if a.Config.JudgeScope != b.Config.JudgeScope {
		d = append(d, fmt.Sprintf("judge scope %q vs %q", a.Config.JudgeScope, b.Config.JudgeScope))
	}
	if a.Config.AgentSeed != b.Config.AgentSeed || a.Config.AgentSamples != b.Config.AgentSamples {
		d = append(d, fmt.Sprintf("agent seed %d, %d samples vs seed %d, %d samples", a.Config.AgentSeed, a.Config.AgentSamples, b.Config.AgentSeed, b.Config.AgentSamples))
	}
	return strings.Join(d, "; ")
}

// shardWarnings reports missing or repeated shards among "i/n" labels, and
// lists the missing ones.
func shardWarnings(shards []string) (w, missing []string) {
	total := 0
	seen := map[int]int{}
	for _, s := range shards {
		i, n, ok := ParseShard(s)
		if !ok {
			if s == "" {
				w = append(w, "a merged result was not run with --shard")
			} else {
				w = append(w, fmt.Sprintf("shard %q is not of the form i/n", s))
			}
			continue
		}
		if total != 0 && n != total {
			w = append(w, fmt.Sprintf("shards disagree on the shard count: %d and %d", total, n))
		}
		total = max(total, n)
		seen[i]++
	}
	for i := 1; i <= total; i++ {
		switch seen[i] {
		case 0:
			w = append(w, fmt.Sprintf("shard %d/%d is missing: the merged result is partial", i, total))
			missing = append(missing, fmt.Sprintf("%d/%d", i, total))
		case 1:
		default:
			w = append(w, fmt.Sprintf("shard %d/%d appears %d times", i, total, seen[i]))
		}
	}
	return w, missing
}

// ParseShard parses a shard label "i/n" (1 ≤ i ≤ n); ok is false for
// anything else.
func ParseShard(s string) (i, n int, ok bool) {
	a, b, found := strings.Cut(s, "/")
	if !found {
		return 0, 0, false
	}
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, false
	}
	return i, n, true
}

// mergeSuites is the union of the shards' planned suites, in id order; nil
// when a shard records none (a result written before suites were).
func mergeSuites(results []*Result) []SuiteScenario {
	seen := map[string]bool{}
	var out []SuiteScenario
	for _, r := range results {
		if r.Config.Suite == nil {
			return nil
		}
		for _, s := range r.Config.Suite {
			if !seen[s.ID] {
				seen[s.ID] = true
				out = append(out, s)
			}
		}
	}
	slices.SortFunc(out, func(a, b SuiteScenario) int { return strings.Compare(a.ID, b.ID) })
	return out
}
