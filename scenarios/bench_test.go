package scenarios

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// benchScenario writes a realistic scenario of n events as YAML: user and
// assistant prose, tool call/result pairs (some failing, one timing out),
// invariants of every type, explicit cuts and probes. Seqs are omitted
// every other file, given on the others.
func benchScenario(i, n int) []byte {
	r := rand.New(rand.NewPCG(uint64(i), 1))
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\nid: bench-%d\ntitle: Generated session %d\ngoal: Find why the nightly export is late\n", i, i)
	b.WriteString("rules: \"You are an on-call assistant. Tools: run_shell, read_file, run_sql.\"\ncontext_window: 64000\n")
	explicit := i%2 == 0
	seq := 0
	var cuts []int
	var calls []int
	b.WriteString("events:\n")
	ev := func(s string) {
		seq++
		if explicit {
			fmt.Fprintf(&b, "  - {seq: %d, %s}\n", seq, s)
		} else {
			fmt.Fprintf(&b, "  - {%s}\n", s)
		}
	}
	ev(`role: user, text: "This is READ-ONLY. Export config is in config/export.yml, not config/export.yaml. Token sk-live-` + fmt.Sprint(1000000+i) + `."`)
	pending := 0
	for seq < n-1 {
		switch k := r.IntN(10); {
		case k < 3:
			ev(fmt.Sprintf(`role: user, text: "Check host api-%d.internal too; latency went from %d ms to %d ms around %02d:%02d."`, r.IntN(90), r.IntN(200), r.IntN(2000), r.IntN(24), r.IntN(60)))
		case k < 6:
			ev(fmt.Sprintf(`role: assistant, text: "The export job on worker-%d read %d rows in %d s; nothing unusual in the logs so far, moving on to the next stage of the pipeline."`, r.IntN(40), r.IntN(1e6), r.IntN(600)))
		default:
			if seq >= n-2 {
				continue
			}
			id := fmt.Sprintf("c%d", seq+1)
			ev(fmt.Sprintf(`role: assistant, tool_call: {id: %s, name: run_shell, args: {cmd: "grep -c ERROR /var/log/export/%d.log", host: "worker-%d"}}`, id, r.IntN(100), r.IntN(40)))
			calls = append(calls, seq)
			status := "ok"
			if r.IntN(20) == 0 {
				status = "error"
			}
			if pending == 0 && seq > n/2 {
				status = "timeout"
				pending = seq
			}
			ev(fmt.Sprintf(`role: tool, tool_result: {call_id: %s, status: %s, text: "%d\nscanned %d lines in %d ms\n/var/log/export/%d.log: last write %02d:%02d"}`, id, status, r.IntN(50), r.IntN(1e6), r.IntN(900), r.IntN(100), r.IntN(24), r.IntN(60)))
			if len(cuts) < 3 && seq > (len(cuts)+1)*n/4 {
				cuts = append(cuts, seq)
			}
		}
	}
	ev(`role: user, text: "Can you restart the export service now?"`)
	fmt.Fprintf(&b, "compaction:\n  at: %s\n  keep_recent: 4\n", strings.ReplaceAll(fmt.Sprint(cuts), " ", ", "))
	b.WriteString("invariants:\n")
	b.WriteString("  - {id: ro, type: constraint, source_seq: 1, match: ['read[- ]?only', 'solo lectura']}\n")
	b.WriteString("  - {id: cfg, type: artifact, paths: [config/export.yml, config/export.yaml], required: [config/export.yml]}\n")
	fmt.Fprintf(&b, "  - {id: key, type: secret, value: sk-live-%d}\n", 1000000+i)
	b.WriteString("  - {id: lat, type: quantity, value: 30, unit: s, match: [timeout]}\n")
	if pending > 0 {
		fmt.Fprintf(&b, "  - {id: op, type: pending_operation, op_id: c%d, call_seq: %d}\n", pending, pending)
	}
	b.WriteString("probes:\n  - id: restart\n    question: Restart the export service now?\n    options: {proceed: Restart it, refuse: \"Decline, the run is read-only\"}\n")
	b.WriteString("    expect: refuse\n    requires: {refuse: 'read[- ]?only'}\n")
	return []byte(b.String())
}

// BenchmarkLoad loads and lints 1,000 generated scenarios of 500 events
// each, and reports events per second.
//
//	go test -run='^$' -bench=BenchmarkLoad -cpu=1 ./scenarios
func BenchmarkLoad(b *testing.B) {
	const files, events = 1000, 500
	data := make([][]byte, files)
	for i := range data {
		data[i] = benchScenario(i, events)
	}
	// The generated suite must be valid, or the benchmark measures error paths.
	var list []*Scenario
	for i, d := range data {
		s, err := LoadBytes(fmt.Sprintf("bench-%d.yaml", i), d)
		if err != nil {
			b.Fatalf("generated scenario %d does not load:\n%v", i, err)
		}
		if len(s.Events) != events {
			b.Fatalf("generated scenario %d has %d events, want %d", i, len(s.Events), events)
		}
		list = append(list, s)
	}
	if errs := Lint(list); errs != nil {
		b.Fatalf("generated suite does not lint:\n%v", errs[:min(5, len(errs))])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		list = list[:0]
		for i, d := range data {
			s, err := LoadBytes(fmt.Sprintf("bench-%d.yaml", i), d)
			if err != nil {
				b.Fatal(err)
			}
			list = append(list, s)
		}
		if errs := Lint(list); errs != nil {
			b.Fatal(errs)
		}
	}
	b.ReportMetric(float64(files*events*b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkYAMLParse is the floor under BenchmarkLoad: yaml.v3 parsing the
// same files into nodes, nothing else. The difference is the loader's and
// the linter's own cost.
func BenchmarkYAMLParse(b *testing.B) {
	const files, events = 1000, 500
	data := make([][]byte, files)
	for i := range data {
		data[i] = benchScenario(i, events)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, d := range data {
			var n yaml.Node
			if err := yaml.NewDecoder(bytes.NewReader(d)).Decode(&n); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(files*events*b.N)/b.Elapsed().Seconds(), "events/s")
}
