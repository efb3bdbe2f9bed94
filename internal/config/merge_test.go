package config

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

func TestMerge(t *testing.T) {
	file, err := Parse("cfg.yaml", []byte(`summarizers:
  - builtin:extractive
  - {name: ours, type: exec, command: ./ours}
agent: exec:./agent
trials: 3
exec_timeout: 30s
gates: {min_pass: {all: 0.9}, baseline: base.json}
`))
	if err != nil {
		t.Fatal(err)
	}
	defaults := Flags{Agent: "builtin:reference", Trials: 1, Jobs: 2, ExecTimeout: summarizers.DefaultExecTimeout}
	spec := func(raw string) summarizers.Spec {
		s, err := summarizers.ParseSpec(raw)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	fromFile := Settings{
		Summarizers: []Target{
			{Name: "builtin:extractive", Spec: spec("builtin:extractive"), Pos: scenarios.Pos{Line: 2, Col: 5}},
			{Name: "ours", Spec: spec("exec:./ours"), Pos: scenarios.Pos{Line: 3, Col: 5}},
		},
		Agent:  Target{Name: "exec:./agent", Spec: spec("exec:./agent"), Pos: scenarios.Pos{Line: 4, Col: 8}},
		Trials: 3, Jobs: 2, ExecTimeout: 30 * time.Second,
		MinPass: map[string]float64{"all": 0.9}, Baseline: "base.json",
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
			want:  Settings{Agent: Target{Name: "builtin:reference", Spec: spec("builtin:reference")}, Trials: 1, Jobs: 2, ExecTimeout: summarizers.DefaultExecTimeout},
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
				ExecTimeout: 2 * time.Second, MinPass: map[string]float64{"constraint": 1}, Baseline: "other.json"},
			set: []string{FlagSummarizer, FlagAgent, FlagTrials, FlagJobs, FlagExecTimeout, FlagMinPass, FlagBaseline},
			want: Settings{
				Summarizers: []Target{{Name: "builtin:none", Spec: spec("builtin:none")}},
				Agent:       Target{Name: "builtin:reference", Spec: spec("builtin:reference")},
				Trials:      5, Jobs: 4, ExecTimeout: 2 * time.Second,
				MinPass: map[string]float64{"constraint": 1}, Baseline: "other.json",
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
