package config

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/providers"
)

func TestJudgeConfig(t *testing.T) {
	file, err := Parse("cfg.yaml", []byte("endpoints:\n  - {name: local, base_url: http://localhost:8000/v1}\njudge: {type: openai, model: judge-4, endpoint: local, params: {seed: 3}}\ngates: {judge: true}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if file.Judge == nil || file.Judge.Spec.Kind != providers.KindOpenAI || file.Judge.Spec.Name != "judge-4" || !file.Gates.Judge {
		t.Fatalf("judge %+v gates %+v", file.Judge, file.Gates)
	}
	for _, tc := range []struct {
		name  string
		flags Flags
		set   map[string]bool
		judge string // "" no judge
		gate  bool
		err   string
	}{
		{name: "the file's judge and gate", judge: "openai:judge-4", gate: true},
		{name: "--judge wins", flags: Flags{Judge: "exec:./j"}, set: map[string]bool{FlagJudge: true}, judge: "exec:./j", gate: true},
		{name: "--judge-gate=false wins", set: map[string]bool{FlagJudgeGate: true}, judge: "openai:judge-4"},
		{name: `--judge "" turns the judge off, and the file's gate then needs one`, set: map[string]bool{FlagJudge: true}, err: "needs a judge"},
		{name: "no builtin judge", flags: Flags{Judge: "builtin:reference"}, set: map[string]bool{FlagJudge: true}, err: "no builtin judge"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.flags.Agent = "builtin:reference"
			s, err := Merge(file, tc.flags, tc.set)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if s.Judge != nil {
				got = s.Judge.Spec.Raw
			}
			if got != tc.judge || s.JudgeGate != tc.gate {
				t.Errorf("judge %q gate %t, want %q %t", got, s.JudgeGate, tc.judge, tc.gate)
			}
		})
	}
	// No judge by default.
	if s, err := Merge(nil, Flags{Agent: "builtin:reference"}, nil); err != nil || s.Judge != nil || s.JudgeGate {
		t.Errorf("default: judge %+v gate %t err %v", s.Judge, s.JudgeGate, err)
	}
	for in, want := range map[string]string{
		"judge: builtin:reference\n":                        "cfg.yaml:1:8: judge: there is no builtin judge",
		"gates: {judge: yes please}\n":                      "gates.judge",
		"judge: exec:./j\ngates: {judge: true, other: 1}\n": "other",
	} {
		if _, err := Parse("cfg.yaml", []byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", in, err, want)
		}
	}
}
