package importer_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/scenarios"
)

// genLog writes a deterministic session log of about size bytes in the
// given format: user turns, assistant text, tool calls (some parallel,
// some never answered) and tool outputs of a few kilobytes.
func genLog(t testing.TB, format importer.Format, size int64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	cw := &countWriter{w: w}
	enc := json.NewEncoder(cw)
	enc.SetEscapeHTML(false)
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	output := func(i int) string {
		var sb strings.Builder
		for k := 0; k < 20+i%60; k++ {
			fmt.Fprintf(&sb, "src/pkg%d/file_%d.go:%d: processed %d records in %d ms\n", i%17, k, k*7, i*k, k%500)
		}
		return sb.String()
	}
	started := false // an element was written to the array being generated
	sep := func() {
		if started {
			cw.Write([]byte(","))
		}
		started = true
	}
	switch format {
	case importer.FormatOpenAI, importer.FormatOpenHands, formatRecords:
		cw.Write([]byte("[\n"))
	case importer.FormatSWEAgent:
		// Steps first (with a short query each, as SWE-agent writes them),
		// then the history: the parser keeps the steps until it sees it.
		cw.Write([]byte(`{"environment":"swe_main","trajectory":[`))
		for i := 0; cw.n < size/5; i++ {
			sep()
			enc.Encode(map[string]any{"thought": fmt.Sprintf("Step %d.", i), "action": fmt.Sprintf("go test ./pkg%d/...", i%17),
				"observation": output(i), "query": []any{map[string]any{"role": "user", "content": "Continue."}}})
		}
		cw.Write([]byte("],\n\"history\":[\n"))
		started = false
	}
	for i := 0; cw.n < size; i++ {
		ts := start.Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano)
		id := fmt.Sprintf("call_%d", i)
		switch format {
		case importer.FormatClaudeCode:
			base := map[string]any{"parentUuid": fmt.Sprintf("u-%d", i-1), "isSidechain": false, "userType": "external",
				"cwd": "/home/dev/project", "sessionId": "s-1", "version": "1.0.0", "gitBranch": "main", "timestamp": ts}
			line := func(typ string, msg any, uuid string) {
				m := map[string]any{"type": typ, "message": msg, "uuid": uuid}
				for k, v := range base {
					m[k] = v
				}
				enc.Encode(m)
			}
			if i%10 == 0 {
				line("user", map[string]any{"role": "user", "content": fmt.Sprintf("Step %d: do not touch prod; keep it under %d ms.", i, 100+i%50)}, fmt.Sprintf("u-%d-a", i))
			}
			line("assistant", map[string]any{"role": "assistant", "content": []any{
				map[string]any{"type": "text", "text": fmt.Sprintf("Running check %d.", i)},
				map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": fmt.Sprintf("go test ./pkg%d/...", i%17)}},
			}}, fmt.Sprintf("u-%d-b", i))
			if i%97 != 5 {
				line("user", map[string]any{"role": "user", "content": []any{
					map[string]any{"type": "tool_result", "tool_use_id": id, "content": output(i), "is_error": i%13 == 0},
				}}, fmt.Sprintf("u-%d-c", i))
			}
		case importer.FormatCodex:
			item := func(p map[string]any) {
				enc.Encode(map[string]any{"timestamp": ts, "type": "response_item", "payload": p})
			}
			if i%10 == 0 {
				item(map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": fmt.Sprintf("Step %d: only touch pkg/.", i)}}})
				enc.Encode(map[string]any{"timestamp": ts, "type": "event_msg", "payload": map[string]any{"type": "token_count", "info": nil}})
			}
			item(map[string]any{"type": "function_call", "name": "shell", "arguments": fmt.Sprintf(`{"command":["go","test","./pkg%d/..."]}`, i%17), "call_id": id})
			if i%97 != 5 {
				out, _ := json.Marshal(map[string]any{"output": output(i), "metadata": map[string]any{"exit_code": i % 13 % 2}})
				item(map[string]any{"type": "function_call_output", "call_id": id, "output": string(out)})
			}
		case importer.FormatSWEAgent:
			item := func(m map[string]any) {
				sep()
				m["agent"] = "main"
				enc.Encode(m)
			}
			if i%10 == 0 {
				item(map[string]any{"role": "user", "content": fmt.Sprintf("Step %d: never write to prod.", i), "message_type": "observation"})
			}
			item(map[string]any{"role": "assistant", "content": "Running.", "thought": fmt.Sprintf("Check %d.", i), "action": "go test",
				"message_type": "action", "tool_calls": []any{map[string]any{"id": id, "type": "function",
					"function": map[string]any{"name": "bash", "arguments": fmt.Sprintf(`{"command":"go test ./pkg%d/..."}`, i%17)}}}})
			if i%97 != 5 {
				item(map[string]any{"role": "tool", "content": output(i), "tool_call_ids": []any{id}, "message_type": "observation"})
			}
		case importer.FormatOpenHands:
			ev := func(m map[string]any) {
				sep()
				m["timestamp"] = ts
				enc.Encode(m)
			}
			if i%10 == 0 {
				ev(map[string]any{"id": 3 * i, "source": "user", "action": "message", "args": map[string]any{"content": fmt.Sprintf("Step %d: do not touch prod.", i)}})
			}
			meta := map[string]any{"function_name": "execute_bash", "tool_call_id": id, "total_calls_in_response": 1}
			ev(map[string]any{"id": 3*i + 1, "source": "agent", "action": "run", "tool_call_metadata": meta,
				"args": map[string]any{"command": fmt.Sprintf("go test ./pkg%d/...", i%17), "thought": "Testing.", "blocking": false}})
			if i%97 != 5 {
				ev(map[string]any{"id": 3*i + 2, "source": "agent", "cause": 3*i + 1, "observation": "run", "content": output(i),
					"tool_call_metadata": meta, "extras": map[string]any{"metadata": map[string]any{"exit_code": i % 13 % 2}}})
			}
		case importer.FormatCompactBench:
			// One case a line, as a suite of generated cases is stored.
			turns := []any{
				map[string]any{"id": 0, "role": "user", "content": fmt.Sprintf("Let's plan project %d with Person %d.", i, i%97)},
				map[string]any{"id": 1, "role": "assistant", "content": "Any constraints?"},
				map[string]any{"id": 2, "role": "user", "content": fmt.Sprintf("Never ship release %d on a Friday. That is absolute.", i), "tags": []any{"critical_constraint"}},
			}
			for k := 0; k < 32; k++ {
				turns = append(turns, map[string]any{"id": 3 + k, "role": []string{"user", "assistant"}[k%2], "content": fmt.Sprintf("Distractor %d about lunch, weather and trains.", k), "tags": []any{"distractor"}})
			}
			turns = append(turns, map[string]any{"id": 35, "role": "user", "content": "Given all that, what next?"})
			enc.Encode(map[string]any{"case_id": fmt.Sprintf("buried_constraint_v1_1:s%d:delite", i), "template_key": "buried_constraint_v1_1",
				"template_version": "1.0.0", "seed": i, "difficulty": "elite", "transcript": map[string]any{"turns": turns},
				"ground_truth": map[string]any{"forbidden_behaviors": []any{fmt.Sprintf("ship release %d on a Friday", i)}, "entity_map": map[string]any{fmt.Sprintf("Person %d", i%97): "primary_subject"}},
				"evaluation_items": []any{
					map[string]any{"key": "recall", "item_type": "forbidden_behavior_retention", "prompt": "What must never happen?", "expected": map[string]any{"check": "contains_normalized", "value": fmt.Sprintf("ship release %d on a Friday", i)}},
					map[string]any{"key": "apply", "item_type": "planning_soundness", "prompt": "Next step?", "expected": map[string]any{"check": "forbidden_absent", "value": fmt.Sprintf("ship release %d on a Friday", i)}},
				}})
		case formatRecords:
			// A benchmark's records: {task_id, reward, traj: [messages]},
			// each a session of a few dozen messages.
			var traj []any
			for k := 0; k < 20; k++ {
				cid := fmt.Sprintf("%s_%d", id, k)
				traj = append(traj,
					map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": cid, "type": "function",
						"function": map[string]any{"name": "shell", "arguments": fmt.Sprintf(`{"cmd":"go test ./pkg%d/..."}`, k)}}}},
					map[string]any{"role": "tool", "tool_call_id": cid, "content": output(i + k)})
			}
			sep()
			enc.Encode(map[string]any{"task_id": fmt.Sprintf("bench-task-%d", i), "reward": i % 2, "traj": traj})
		case importer.FormatOpenAI:
			// One JSON array: the importer must stream it element by element.
			msg := func(m map[string]any) {
				sep()
				enc.Encode(m)
			}
			if i%10 == 0 {
				msg(map[string]any{"role": "user", "content": fmt.Sprintf("Step %d: never write to prod.", i)})
			}
			msg(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
				"id": id, "type": "function", "function": map[string]any{"name": "shell", "arguments": fmt.Sprintf(`{"cmd":"go test ./pkg%d/..."}`, i%17)}}}})
			if i%97 != 5 {
				msg(map[string]any{"role": "tool", "tool_call_id": id, "content": output(i)})
			}
		default:
			t.Fatalf("no generator for %s", format)
		}
	}
	switch format {
	case importer.FormatOpenAI, importer.FormatOpenHands, formatRecords:
		cw.Write([]byte("]\n"))
	case importer.FormatSWEAgent:
		cw.Write([]byte(`],"info":{"exit_status":"submitted"}}` + "\n"))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// formatRecords asks genLog for benchmark records read with --messages-path
// /traj (an OpenAI import of the last record).
const formatRecords importer.Format = "records"

// benchFormats are the inputs BenchmarkImport100MB measures.
var benchFormats = []importer.Format{importer.FormatClaudeCode, importer.FormatCodex, importer.FormatOpenAI,
	importer.FormatSWEAgent, importer.FormatOpenHands, formatRecords, importer.FormatCompactBench}

// benchOptions imports what genLog wrote for format.
func benchOptions(format importer.Format) importer.Options {
	if format == formatRecords {
		return importer.Options{Format: importer.FormatOpenAI, MessagesPath: "/traj"}
	}
	return importer.Options{Format: format}
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// peakHeap samples the heap in use (runtime/metrics' heap objects plus heap
// unused: MemStats.HeapInuse, read without stopping the world as
// ReadMemStats would) every few milliseconds until stop is called, and
// returns the peak in bytes.
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		samples := []metrics.Sample{
			{Name: "/memory/classes/heap/objects:bytes"},
			{Name: "/memory/classes/heap/unused:bytes"},
		}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(samples)
			inuse := samples[0].Value.Uint64() + samples[1].Value.Uint64()
			if inuse > peak.Load() {
				peak.Store(inuse)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak.Load()
	}
}

// cpuTime is the user and system CPU time used by the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkImport100MB imports a generated 100 MB log of every format
// (Claude Code, Codex, an OpenAI message array read as one JSON document,
// a SWE-agent trajectory, an OpenHands event array, benchmark records read
// with --messages-path, a CompactBench suite imported with --all) and
// reports throughput (MB/s, MB per CPU-second) and the peak heap in use
// while importing.
//
//	go test ./importer -run '^$' -bench Import100MB -benchtime 2x
func BenchmarkImport100MB(b *testing.B) {
	for _, format := range benchFormats {
		b.Run(string(format), func(b *testing.B) {
			path := genLog(b, format, 100<<20)
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(st.Size())
			runtime.GC()
			stop := peakHeap()
			cpu0 := cpuTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				opts := benchOptions(format)
				opts.TempDir = b.TempDir()
				if format == importer.FormatCompactBench {
					// A suite is imported whole: every case converted.
					_, err = importer.ImportEach(f, opts, func(_ *importer.Report, write func(io.Writer) error, err error) error {
						if err != nil {
							return err
						}
						return write(io.Discard)
					})
				} else {
					_, err = importer.Import(f, io.Discard, opts)
				}
				f.Close()
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			cpu := (cpuTime() - cpu0).Seconds() / float64(b.N)
			b.ReportMetric(float64(stop())/(1<<20), "peak-heap-MB")
			// CPU seconds of the whole process (both goroutines, plus the
			// heap sampler): on a loaded machine wall-clock MB/s says more
			// about the neighbours than about the importer.
			b.ReportMetric(cpu, "cpu-s/op")
			b.ReportMetric(float64(st.Size())/(1<<20)/cpu, "MB/cpu-s")
		})
	}
}

// TestGeneratedLogImports keeps the benchmark's generator honest on a small
// size: the generated log imports, with parallel results and unresolved
// calls, and the output loads.
func TestGeneratedLogImports(t *testing.T) {
	for _, format := range benchFormats {
		t.Run(string(format), func(t *testing.T) {
			path := genLog(t, format, 2<<20)
			opts := benchOptions(format)
			opts.TempDir = t.TempDir()
			if format == formatRecords || format == importer.FormatCompactBench {
				opts.Index = 1 // a record, not the file, is the session
			}
			out, rep := importFile(t, path, opts)
			if format == importer.FormatCompactBench {
				if rep.Records < 10 || rep.Events != 36 || rep.Invariants != 1 || rep.Probes < 2 {
					t.Errorf("report %+v: want many cases, 36 events, a constraint and the probes", rep)
				}
				return
			}
			if format == formatRecords {
				if rep.Records < 10 || rep.Events != 40 {
					t.Errorf("report %+v: want many records and 40 events in the one imported", rep)
				}
				return
			}
			if rep.Unresolved == 0 || rep.Events < 1000 {
				t.Errorf("report %+v: want unresolved calls and over 1000 events", rep)
			}
			if len(out) < 1<<20 {
				t.Errorf("output is %d bytes, want most of the input", len(out))
			}
			s, err := scenarios.LoadBytes("generated.yaml", out)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if errs := scenarios.LintScenario(s); len(errs) > 0 {
				t.Fatalf("lint: %v", errs)
			}
			if len(s.Events) != rep.Events {
				t.Errorf("loaded %d events, report says %d", len(s.Events), rep.Events)
			}
		})
	}
}

// TestWriteBenchLog writes the benchmark's 100 MB log to the path in
// $IMPORT_BENCH_LOG (format from $IMPORT_BENCH_FORMAT, default claude-code),
// so the built binary can be measured from outside:
//
//	IMPORT_BENCH_LOG=/tmp/big.jsonl go test ./importer -run TestWriteBenchLog
//	/usr/bin/time -v compact-eval import -o /tmp/big.yaml /tmp/big.jsonl
func TestWriteBenchLog(t *testing.T) {
	out := os.Getenv("IMPORT_BENCH_LOG")
	if out == "" {
		t.Skip("set IMPORT_BENCH_LOG to write the benchmark log")
	}
	format := importer.Format(os.Getenv("IMPORT_BENCH_FORMAT"))
	if format == "" {
		format = importer.FormatClaudeCode
	}
	data, err := os.ReadFile(genLog(t, format, 100<<20))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoaderLimitWarning: a session too big for the scenario loader still
// imports, with a warning that says what to do.
func TestLoaderLimitWarning(t *testing.T) {
	path := genLog(t, importer.FormatCodex, 9<<20)
	_, rep := importFile(t, path, importer.Options{Format: importer.FormatCodex, TempDir: t.TempDir()})
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "re-import with --max-event-chars") {
		t.Errorf("no loader-limit warning in %q", rep.Warnings)
	}
}
