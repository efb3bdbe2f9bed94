package config

import (
	"strings"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/providers"
	"github.com/compact-eval/compact-eval/reports"

	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"
)

func TestMerge(t *testing.T) {
	file, err := Parse("cfg.yaml", []byte(`summarizers:
  - builtin:extractive
  - {name: ours, type: exec, command: ./ours}
agent: exec:./agent
trials: 3
exec_timeout: 30s
gates: {min_pass: {all: 0.9}, baseline: base.json, uncertain: skip}
`))
	if err != nil {
		t.Fatal(err)
	}
	defaults := Flags{Agent: "builtin:reference", Trials: 1, Jobs: 2, ExecTimeout: providers.DefaultExecTimeout}
	spec := func(raw string) providers.Spec {
		s, err := providers.ParseSpec(raw)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	fromFile := Settings{
		Summarizers: []Target{
			{Name: "builtin:extractive", Spec: spec("builtin:extractive"), Pos: result.Pos{Line: 2, Col: 5}},
			{Name: "ours", Spec: spec("exec:./ours"), Pos: result.Pos{Line: 3, Col: 5}},
		},
		Agent:  Target{Name: "exec:./agent", Spec: spec("exec:./agent"), Pos: result.Pos{Line: 4, Col: 8}},
		Trials: 3, Jobs: 2, ExecTimeout: 30 * time.Second,
		MinPass: map[string]float64{"all": 0.9}, Baseline: "base.json", Uncertain: reports.UncertainSkip,
	}
	tests := []struct {
		name  string
		file  *File
		flags Flags
		set   []string
		want  Settings
	}{
		{
			name:  "no file, no flags: the defaults",
			flags: defaults,
			want:  Settings{Agent: Target{Name: "builtin:reference", Spec: spec("builtin:reference")}, Trials: 1, Jobs: 2, ExecTimeout: providers.DefaultExecTimeout},
		},
		{
			name:  "file over defaults",
			file:  file,
			flags: defaults,
			want:  fromFile,
		},
		{
			name: "flags over file",
			file: file,
			flags: Flags{Summarizers: []string{"builtin:none"}, Agent: "builtin:reference", Trials: 5, Jobs: 4,
				ExecTimeout: 2 * time.Second, MinPass: map[string]float64{"constraint": 1}, Baseline: "other.json", Uncertain: reports.UncertainPass},
			set: []string{FlagSummarizer, FlagAgent, FlagTrials, FlagJobs, FlagExecTimeout, FlagMinPass, FlagBaseline, FlagUncertain},
			want: Settings{
				Summarizers: []Target{{Name: "builtin:none", Spec: spec("builtin:none")}},
				Agent:       Target{Name: "builtin:reference", Spec: spec("builtin:reference")},
				Trials:      5, Jobs: 4, ExecTimeout: 2 * time.Second,
				MinPass: map[string]float64{"constraint": 1}, Baseline: "other.json", Uncertain: reports.UncertainPass,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := map[string]bool{}
			for _, n := range tc.set {
				set[n] = true
			}
			got, err := Merge(tc.file, tc.flags, set)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Merge (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := Merge(nil, Flags{Summarizers: []string{"nope"}, Agent: "builtin:reference"}, map[string]bool{FlagSummarizer: true}); err == nil {
		t.Error("a bad --summarizer spec gave no error")
	}
}

func TestMergePaths(t *testing.T) {
	file, err := Parse("ci/cfg.yaml", []byte("scenarios: [suite, ../shared/one.yaml]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"ci/suite", "shared/one.yaml"}, file.Scenarios); d != "" {
		t.Errorf("scenarios are resolved against the file's folder (-want +got):\n%s", d)
	}
	one, _ := Parse("cfg.yaml", []byte("scenarios: only\n"))
	for _, tc := range []struct {
		name string
		file *File
		args []string
		want []string
	}{
		{"the file's paths", file, nil, []string{"ci/suite", "shared/one.yaml"}},
		{"one path as a string", one, nil, []string{"only"}},
		{"arguments replace them", file, []string{"x.yaml"}, []string{"x.yaml"}},
		{"neither: the built-in suite", nil, nil, nil},
	} {
		got, err := Merge(tc.file, Flags{Agent: "builtin:reference", Paths: tc.args}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, got.Paths); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		in, name, spec, err string
	}{
		{in: "builtin:extractive", name: "builtin:extractive", spec: "builtin:extractive"},
		{in: "ours=exec:python3 c.py --v2", name: "ours", spec: "exec:python3 c.py --v2"},
		// An "=" inside a spec's arguments is not a name.
		{in: "exec:python3 c.py --mode=fast", name: "exec:python3 c.py --mode=fast", spec: "exec:python3 c.py --mode=fast"},
		{in: "small.v2@lab=openai:gpt-4o-mini", name: "small.v2@lab", spec: "openai:gpt-4o-mini"},
		{in: "ours=nope", err: `"ours=nope": the name ours names spec "nope"`},
		{in: "two words=builtin:none", err: `unknown kind "two words=builtin"`},
		{in: "=builtin:none", err: `spec "=builtin:none"`},
	} {
		got, err := ParseTarget(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseTarget(%q) err = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got.Name != tc.name || got.Spec.Raw != tc.spec {
			t.Errorf("ParseTarget(%q) = %q %q, %v; want %q %q", tc.in, got.Name, got.Spec.Raw, err, tc.name, tc.spec)
		}
	}
	if _, err := Merge(nil, Flags{Summarizers: []string{"x=builtin:none", "x=builtin:mask"}, Agent: "builtin:reference"}, map[string]bool{FlagSummarizer: true}); err == nil || !strings.Contains(err.Error(), `the name "x" is already used`) {
		t.Errorf("two summarizers named x: err = %v", err)
	}
}

// judge_scope: the file's unless --judge-scope is given; the flag needs a
// judge; a value the harness does not know is refused where it stands.
func TestMergeJudgeScope(t *testing.T) {
	file, err := Parse("cfg.yaml", []byte("judge: exec:./judge\njudge_scope: all\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Merge(file, Flags{Agent: "builtin:reference"}, map[string]bool{})
	if err != nil || s.JudgeScope != result.JudgeScopeAll {
		t.Errorf("file: scope %q, %v; want all", s.JudgeScope, err)
	}
	s, err = Merge(file, Flags{Agent: "builtin:reference", JudgeScope: result.JudgeScopeUncertain}, map[string]bool{FlagJudgeScope: true})
	if err != nil || s.JudgeScope != result.JudgeScopeUncertain {
		t.Errorf("flag over file: scope %q, %v; want uncertain", s.JudgeScope, err)
	}
	if _, err := Merge(nil, Flags{Agent: "builtin:reference", JudgeScope: result.JudgeScopeAll}, map[string]bool{FlagJudgeScope: true}); err == nil || !strings.Contains(err.Error(), "--judge-scope needs a judge") {
		t.Errorf("--judge-scope without a judge: %v", err)
	}
	// The judge gate acts on passes: it asks about every invariant unless
	// told otherwise, and refuses the scope where it would gate nothing.
	gated, err := Parse("cfg.yaml", []byte("judge: exec:./judge\ngates: {judge: true}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s, err := Merge(gated, Flags{Agent: "builtin:reference"}, map[string]bool{}); err != nil || s.JudgeScope != result.JudgeScopeAll {
		t.Errorf("gates.judge: scope %q, %v; want all", s.JudgeScope, err)
	}
	if _, err := Merge(gated, Flags{Agent: "builtin:reference", JudgeScope: result.JudgeScopeUncertain}, map[string]bool{FlagJudgeScope: true}); err == nil || !strings.Contains(err.Error(), "give --judge-scope all") {
		t.Errorf("gates.judge with --judge-scope uncertain: %v", err)
	}
	if _, err := Parse("cfg.yaml", []byte("judge: exec:./judge\njudge_scope: some\n")); err == nil || !strings.Contains(err.Error(), `2:14: judge_scope: "some": want uncertain`) {
		t.Errorf("judge_scope: some: %v", err)
	}
}
