package scenarios

import (
	"os"
	"strings"
	"testing"
)

func TestFreeTextProbes(t *testing.T) {
	data, err := os.ReadFile("../testdata/scenarios/good/free-text-probe.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadBytes("free.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	p := s.Probes[0]
	if !p.FreeText() || p.Answer != "sre-oncall@northwind.io" || len(p.Rubric) != 2 || len(p.Options) != 0 || p.Expect != "" {
		t.Errorf("probe %+v", p)
	}
	if got := p.RequiresFor(AnswerKey); len(got) != 1 || got[0] != `sre-oncall@northwind\.io` {
		t.Errorf("requires %q", got)
	}
	if r := s.Probes[1].Rubric; len(r) != 1 || r[0] != "refuses, citing the read-only rule" {
		t.Errorf("a single rubric line: %q", r)
	}
	if s.Probes[2].FreeText() {
		t.Error("a choice probe reads as free text")
	}
	head := "version: 1\nid: x\nevents:\n  - {role: user, text: hi}\nprobes:\n"
	for probe, want := range map[string]string{
		`  - {id: p, question: q, options: {a: A, b: B}, expect: a, answer: A}`:   "x.yaml:6:68: probes[0]: give options and expect (a choice probe) or answer (a free-text probe), not both",
		`  - {id: p, question: q, answer: A, expect: a}`:                          "x.yaml:6:45: probes[0].expect: a free-text probe has no expect",
		`  - {id: p, question: q}`:                                                `x.yaml:6:5: probes[0]: missing required field "options" (or "answer", for a free-text probe)`,
		`  - {id: p, question: q, answer: "  "}`:                                  "probes[0].answer: empty",
		`  - {id: p, question: q, answer: A, requires: {a: [x]}}`:                 "a free-text probe's requires is a pattern or a list of patterns",
		`  - {id: p, question: q, options: {a: A, b: B}, expect: a, rubric: [r]}`: "probes[0].rubric: only a free-text probe (answer:) has a rubric",
		`  - {id: p, question: q, options: {a: A, b: B}}`:                         `probes[0]: missing required field "expect"`,
		`  - {id: p, question: q, answer: A, requires: ["(unclosed"]}`:            `probe "p": requires`,
	} {
		s, err := LoadBytes("x.yaml", []byte(head+probe+"\n"))
		if err == nil {
			if errs := LintScenario(s); len(errs) > 0 {
				err = errs
			}
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s:\n got %v\nwant %q", probe, err, want)
		}
	}
}
