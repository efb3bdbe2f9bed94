package guard_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/guard"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// claudeSession writes a Claude Code transcript of a long session to
// path: the user's rules at turn 1, then steps of a tool call and its
// output (a few hundred tokens of test output each) with a user turn
// every tenth step, until the history holds about want tokens (o200k),
// then a compaction (compact_boundary with preTokens, and its summary),
// as Claude Code writes it. It returns the history's tokens.
func claudeSession(tb testing.TB, path string, want int) int {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	n := 0
	line := func(m map[string]any) {
		n++
		m["uuid"], m["parentUuid"], m["sessionId"], m["isSidechain"] = fmt.Sprintf("u%d", n), fmt.Sprintf("u%d", n-1), "bench", false
		m["cwd"], m["timestamp"] = "/home/dev/billing", start.Add(time.Duration(n)*time.Second).Format(time.RFC3339Nano)
		if err := enc.Encode(m); err != nil {
			tb.Fatal(err)
		}
	}
	user := func(text string) {
		line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
	}
	user("The invoice totals are off by a cent in some reports. Never run git push --force on this repository, do not touch the prod database: use the staging replica only, and keep the p99 latency under 300 ms.")
	counter := tokens.Default()
	// the packages' names: no two within a few edits of each other, as
	// numbered names would be (the import suggests such near twins as
	// artifacts a summary must tell apart)
	pkgs := strings.Fields("billing ledger rounding currency taxes refunds discounts archive reports ingest payouts webhooks")
	total := 0
	for i := 0; ; i++ {
		id := fmt.Sprintf("toolu_%05d", i)
		pkg := pkgs[i%len(pkgs)]
		cmd := fmt.Sprintf("go test ./invoice/%s/... -run TestTotals%d -count=1", pkg, i)
		text := fmt.Sprintf("Step %d: running the totals tests of the %s package.", i, pkg)
		line(map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "text", "text": text},
			map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": cmd}},
		}}})
		var out strings.Builder
		for k := 0; k < 30; k++ {
			fmt.Fprintf(&out, "=== RUN   TestTotals%d/case_%d\n    totals_test.go:%d: invoice %d-%d: got %d.%02d, want %d.%02d\n", i, k, 40+k, i, k, 100+k, k%100, 100+k, (k+1)%100)
		}
		line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": id, "content": out.String(), "is_error": i%7 == 0},
		}}})
		// the step as the transcript renders it: its text, the call and
		// the result, with the markers around each
		total += counter.Count(text+" Bash "+cmd+" "+out.String()) + 24
		if i%10 == 9 {
			msg := fmt.Sprintf("Looks right for the %s package; go on with the next one.", pkg)
			user(msg)
			total += counter.Count(msg) + 6
		}
		if total >= want {
			break
		}
	}
	line(map[string]any{"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "level": "info",
		"compactMetadata": map[string]any{"trigger": "auto", "preTokens": want}})
	line(map[string]any{"type": "user", "isCompactSummary": true, "message": map[string]any{"role": "user", "content": "This session is being continued from a previous conversation. Summary:\n1. Rules from the user: never run git push --force on this repository; do not touch the prod database, use the staging replica only; keep the p99 latency under 300 ms.\n2. The totals tests fail by one cent in every package: rounding happens per line instead of per invoice.\n3. Next: round once per invoice and rerun the tests."}})
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	s, err := guard.ReadFile(path, guard.ReadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	b, _ := s.Latest()
	return counter.Count(transcript.EventsText(s.Scenario.Events[:indexOf(s, b.Seq)+1]))
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func indexOf(s *guard.Session, seq int) int {
	for i, e := range s.Scenario.Events {
		if e.Seq == seq {
			return i
		}
	}
	return -1
}

// BenchmarkGuard200k is the guard's latency inside an agent's loop (docs/
// guard.md, "Latency"): read a Claude Code transcript whose history before
// the compaction holds about 200,000 tokens, as a stream, and check the
// compaction against the project's invariants and the import's
// suggestions. The budget is 300 ms on one core:
//
//	go test ./guard -run '^$' -bench Guard200k -cpu 1
func BenchmarkGuard200k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "session.jsonl")
	n := claudeSession(b, path, 200000)
	st, _ := os.Stat(path)
	inv, err := guard.ParseInvariants("invariants.yaml", []byte(`version: 1
invariants:
  - {id: no-force-push, type: constraint, match: ['never\W+run\W+git push --force']}
  - {id: prod-db, type: constraint, match: ['do not touch the prod database']}
  - {id: staging, type: constraint, match: ['use the staging replica']}
  - {id: p99, type: quantity, value: 300, unit: ms, match: ['p99']}
  - {id: no-deletes, type: constraint, match: ['never delete']}
`))
	if err != nil {
		b.Fatal(err)
	}
	opts := guard.Options{Invariants: inv, Suggested: true, MinConfidence: 0.5}
	b.ReportAllocs()
	b.ResetTimer()
	var v *guard.Verdict
	cpu0, ops := cpuTime(), 0
	for b.Loop() {
		ops++
		s, err := guard.ReadFile(path, guard.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		last, _ := s.Latest()
		if v, err = guard.Check(s, last, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	// The process's CPU time per answer: on a machine shared with other
	// jobs the wall-clock figure says as much about the neighbours; with
	// -cpu 1 this is what one free core would take.
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(ops), "cpu-ms/op")
	if v.Status != guard.Kept {
		b.Fatalf("verdict %s: %s", v.Status, v.Reason)
	}
	b.ReportMetric(float64(n), "history-tokens")
	b.ReportMetric(float64(st.Size())/1e6, "log-MB")
}

// The benchmark's session is what it claims: about 200,000 tokens of
// history, and the guard keeps every rule of its faithful summary.
func TestGuard200kSession(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 200k-token session")
	}
	path := filepath.Join(t.TempDir(), "session.jsonl")
	n := claudeSession(t, path, 200000)
	t.Logf("history: %d tokens", n)
	if n < 195000 || n > 210000 {
		t.Errorf("the history holds %d tokens, want about 200,000", n)
	}
}
