package reports_test

import (
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
)

// McNemar's exact test on the discordant pairs of two paired runs: one
// pass→fail and eight fail→pass.
func ExampleMcNemar() {
	fmt.Printf("%.7f\n", reports.McNemar(1, 8))
	fmt.Printf("%.7f\n", reports.McNemar(3, 5))
	// Output:
	// 0.0390625
	// 0.7265625
}

// The --min-pass flag of `compact-eval run`.
func ExampleParseMinPass() {
	m, err := reports.ParseMinPass("constraint=1,all=90%")
	if err != nil {
		fmt.Println(err)
		return
	}
	t, _ := m.Threshold("artifact", "invariant")
	fmt.Println(m.String(), t)
	_, err = reports.ParseMinPass("constrain=1")
	fmt.Println(err != nil)
	// Output:
	// all=0.9,constraint=1 0.9
	// true
}

// Gate a result on minimum pass rates and print the verdict lines.
func ExampleGate() {
	r := fake.Result(fake.Config{Scenarios: 4, Seed: 2})
	g := reports.Gate(r, reports.GateOptions{MinPass: reports.MinPass{Rates: map[string]float64{"secret": 1}}})
	fmt.Println(g.Failed)
	for _, l := range g.Lines {
		fmt.Println(l)
	}
	// Output:
	// true
	// FAIL min-pass: openai:gpt-4o-mini secret 50.0% (6/12) < 100% (counted as misses: 3 outcomes of 1 unit that errored)
	// note min-pass secret=1: 2 summarizer × check type rates hold
	// note min-pass: builtin:none is the control arm (it never writes a summary): gated on decisions only
}

// The first line of the Markdown report is the verdict.
func ExampleWrite() {
	r := fake.Result(fake.Config{Scenarios: 2, Summarizers: []string{"builtin:truncate"}, Seed: 1})
	var md strings.Builder
	if err := reports.Write(&md, r, "md", reports.Options{}); err != nil {
		fmt.Println(err)
	}
	first, _, _ := strings.Cut(md.String(), "\n")
	fmt.Println(first)
	// Output:
	// **❌ 9 invariant failures, 1 compaction regression, 3 structural failures, 1 error (2 scenarios × 1 summarizer, 2 units)**
}
