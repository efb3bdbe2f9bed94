package runner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/result"
)

// Errors of the run folder, for callers that map them to exit codes.
var (
	// ErrRunExists: the output folder already holds a run (resume it).
	ErrRunExists = errors.New("run folder holds a run")
	// ErrNotResumable: the folder holds no run, or one with another
	// configuration.
	ErrNotResumable = errors.New("cannot resume this run")
)

// journal is the append-only record of finished units: one JSON line per
// unit (result.MarshalUnit), synced after each line. A later line for the same
// unit supersedes an earlier one (an abandoned unit that a resumed run
// finished).
type journal struct {
	lock  *folderLock
	f     *os.File
	off   int64
	index map[string]entry
	// kept holds units journaled by this process, as they were encoded,
	// while their lines add up to at most keptBudget bytes (keptBytes):
	// writing the result then decodes only the others, instead of reading
	// every line back.
	kept      map[string]*result.Unit
	keptBytes int
}

// keptBudget bounds the journal lines whose units stay in memory for the
// result: a few thousand units of the built-in suite. Past it, units are
// read back from the journal, and memory stays flat however long the run.
var keptBudget = 4 << 20 // a variable for the tests

type entry struct {
	off    int64
	n      int
	status string
}

// unitHead is what the journal index needs of a line.
type unitHead struct {
	Scenario struct {
		ID     string `json:"id"`
		Digest string `json:"digest"`
	} `json:"scenario"`
	Summarizer string `json:"summarizer"`
	Trial      int    `json:"trial"`
	Status     string `json:"status"`
}

// openJournal takes the run folder's lock, then opens (resume) or starts
// the run in it. The lock is held until close: one writer per run folder.
// With repair, corrupt lines of the journal are dropped (their units run
// again) and a warning on header says which.
func openJournal(dir string, resume, repair bool, header *result.Result) (*journal, error) {
	if resume {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("resuming %s: no run there (%s is missing): %w", dir, RunFile, ErrNotResumable)
		}
	} else if err := ensureDir(dir); err != nil {
		return nil, err
	}
	lock, err := lockFolder(dir)
	if err != nil {
		return nil, err
	}
	j, err := openLocked(dir, resume, repair, header)
	if err != nil {
		lock.unlock()
		return nil, err
	}
	j.lock = lock
	return j, nil
}

func openLocked(dir string, resume, repair bool, header *result.Result) (*journal, error) {
	path := filepath.Join(dir, JournalFile)
	runPath := filepath.Join(dir, RunFile)
	if !resume {
		if _, err := os.Stat(path); err == nil {
			return nil, fmt.Errorf("%s already holds a run: resume it with --resume %s, or choose another --out: %w", dir, dir, ErrRunExists)
		}
		b, _ := json.MarshalIndent(header, "", "  ")
		if err := os.WriteFile(runPath, append(b, '\n'), 0o644); err != nil {
			return nil, fmt.Errorf("writing run header: %w", err)
		}
	} else {
		b, err := inputfile.ReadFile(runPath)
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("resuming %s: no run there (%s is missing): %w", dir, RunFile, ErrNotResumable)
		}
		if err != nil {
			return nil, fmt.Errorf("resuming %s: %w", dir, err)
		}
		var prev result.Result
		if err := json.Unmarshal(b, &prev); err != nil {
			return nil, fmt.Errorf("resuming %s: reading %s: %v: %w", dir, RunFile, err, ErrNotResumable)
		}
		if err := sameRun(&prev.Config, &header.Config); err != nil {
			return nil, fmt.Errorf("resuming %s: %v: %w", dir, err, ErrNotResumable)
		}
		header.RunID, header.Started = prev.RunID, prev.Started
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening journal: %w", err)
	}
	j := &journal{f: f, index: map[string]entry{}}
	bad, err := j.load()
	if err == nil && len(bad) > 0 {
		if !repair {
			err = fmt.Errorf("resuming %s: %s: %w", dir, corruptMessage(bad), ErrNotResumable)
		} else if err = j.drop(bad); err == nil {
			for _, b := range bad {
				header.Warnings = append(header.Warnings, fmt.Sprintf("repair: dropped %s line %d (%s); its unit ran again", JournalFile, b.line, b.why))
			}
		}
	}
	if err != nil {
		j.f.Close()
		return nil, err
	}
	return j, nil
}

// badLine is a complete journal line that is not a unit.
type badLine struct {
	line int   // 1-based
	off  int64 // byte offset
	n    int   // length with its newline
	why  string
}

func corruptMessage(bad []badLine) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s line %d is corrupt (%s)", JournalFile, bad[0].line, bad[0].why)
	if len(bad) > 1 {
		fmt.Fprintf(&b, ", and %d more lines", len(bad)-1)
	}
	b.WriteString(": a crash or a second writer damaged it. Resume again with --repair to drop it; its unit runs again")
	return b.String()
}

// RecordedPaths returns the scenario paths the run in dir recorded when it
// started (nil for the built-in suite, or when dir holds no readable run:
// resuming then says why).
func RecordedPaths(dir string) []string {
	if c := RecordedConfig(dir); c != nil {
		return c.Paths
	}
	return nil
}

// RecordedConfig returns the configuration the run in dir recorded when
// it started (its run.json), or nil when dir holds no readable run:
// resuming then says why.
func RecordedConfig(dir string) *result.RunConfig {
	b, err := inputfile.ReadFile(filepath.Join(dir, RunFile))
	if err != nil {
		return nil
	}
	var prev result.Result
	if json.Unmarshal(b, &prev) != nil {
		return nil
	}
	return &prev.Config
}

// recallText names a run's recall arm for a message: "off", or its limits.
func recallText(r *result.RecallConfig) string {
	if r == nil {
		return "off"
	}
	return fmt.Sprintf("%d calls of %d events and %d tokens", r.Calls, r.Events, r.Tokens)
}

// sameRun refuses to resume a run with a different configuration.
func sameRun(prev, cur *result.RunConfig) error {
	switch {
	case !slices.Equal(prev.Summarizers, cur.Summarizers):
		return fmt.Errorf("the run used summarizers %q, not %q", prev.Summarizers, cur.Summarizers)
	case prev.Agent != cur.Agent:
		return fmt.Errorf("the run used agent %q, not %q", prev.Agent, cur.Agent)
	case prev.Trials != cur.Trials:
		return fmt.Errorf("the run used %d trials, not %d", prev.Trials, cur.Trials)
	case prev.Shard != cur.Shard:
		return fmt.Errorf("the run used shard %q, not %q", prev.Shard, cur.Shard)
	case prev.AgentSeed != cur.AgentSeed || prev.AgentSamples != cur.AgentSamples:
		return fmt.Errorf("the run used agent seed %d and %d samples, not %d and %d", prev.AgentSeed, prev.AgentSamples, cur.AgentSeed, cur.AgentSamples)
	case prev.Judge != cur.Judge || prev.JudgeGate != cur.JudgeGate || prev.JudgeScope != cur.JudgeScope:
		return fmt.Errorf("the run used judge %q (gate %t, scope %q), not %q (gate %t, scope %q)", prev.Judge, prev.JudgeGate, prev.JudgeScope, cur.Judge, cur.JudgeGate, cur.JudgeScope)
	case recallText(prev.Recall) != recallText(cur.Recall):
		return fmt.Errorf("the run used recall %s, not %s", recallText(prev.Recall), recallText(cur.Recall))
	case prev.Tokenizer != cur.Tokenizer:
		return fmt.Errorf("the run used tokenizer %q, not %q", prev.Tokenizer, cur.Tokenizer)
	case prev.Run != cur.Run || !slices.Equal(prev.Scenarios, cur.Scenarios):
		return fmt.Errorf("the run selected scenarios with --run %q --scenario %q, not --run %q --scenario %q", prev.Run, prev.Scenarios, cur.Run, cur.Scenarios)
	case !samePaths(prev.Paths, cur.Paths):
		return fmt.Errorf("the run read the scenarios of %s, not %s: resume with no paths to use the recorded ones", pathList(prev.Paths), pathList(cur.Paths))
	}
	if prev.Suite != nil {
		if d := suiteDiff(prev.Suite, cur.Suite); d != "" {
			return fmt.Errorf("the scenarios changed since the run started (%s): finish it with the suite it started with, or start a new run", d)
		}
	}
	return nil
}

// samePaths reports whether two runs named the same scenario paths, as
// written or once made absolute.
func samePaths(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if filepath.Clean(a[i]) == filepath.Clean(b[i]) {
			continue
		}
		x, err1 := filepath.Abs(a[i])
		y, err2 := filepath.Abs(b[i])
		if err1 != nil || err2 != nil || x != y {
			return false
		}
	}
	return true
}

func pathList(ps []string) string {
	if len(ps) == 0 {
		return "the built-in suite"
	}
	return fmt.Sprintf("%q", ps)
}

// suiteDiff names how the planned suite cur differs from prev: the
// scenarios changed, added and gone, at most five of each; "" when none.
func suiteDiff(prev, cur []result.SuiteScenario) string {
	before := map[string]string{}
	for _, s := range prev {
		before[s.ID] = s.Digest
	}
	var changed, added, gone []string
	now := map[string]bool{}
	for _, s := range cur {
		now[s.ID] = true
		switch d, ok := before[s.ID]; {
		case !ok:
			added = append(added, s.ID)
		case d != s.Digest:
			changed = append(changed, s.ID)
		}
	}
	for _, s := range prev {
		if !now[s.ID] {
			gone = append(gone, s.ID)
		}
	}
	var parts []string
	for _, g := range []struct {
		what string
		ids  []string
	}{{"changed", changed}, {"new", added}, {"gone", gone}} {
		if len(g.ids) == 0 {
			continue
		}
		list := g.ids
		more := ""
		if len(list) > 5 {
			list, more = list[:5], fmt.Sprintf(" and %d more", len(g.ids)-5)
		}
		parts = append(parts, fmt.Sprintf("%s: %s%s", g.what, strings.Join(list, ", "), more))
	}
	return strings.Join(parts, "; ")
}

// load indexes the journal and returns its corrupt lines: complete lines
// that are not a unit (a crash or a second writer tore them). A torn last
// line (a crash while writing, no newline yet) is cut off so that the next
// append starts on a clean line.
func (j *journal) load() ([]badLine, error) {
	if _, err := j.f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("reading journal: %w", err)
	}
	r := bufio.NewReaderSize(j.f, 1<<16)
	var off int64
	var bad []badLine
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			if h, why := parseHead(line); why != "" {
				bad = append(bad, badLine{line: n, off: off, n: len(line), why: why})
			} else {
				j.index[unitKey(h.Scenario.ID, h.Scenario.Digest, h.Summarizer, h.Trial)] = entry{off: off, n: len(line), status: h.Status}
			}
			off += int64(len(line))
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading journal: %w", err)
		}
	}
	if err := j.f.Truncate(off); err != nil {
		return nil, fmt.Errorf("repairing journal: %w", err)
	}
	j.off = off
	return bad, nil
}

// parseHead reads what the index needs of a line; why says what is wrong
// with a line that is not a unit.
func parseHead(line []byte) (h unitHead, why string) {
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		return h, "not JSON: " + clip.String(err.Error(), 120)
	}
	if err := json.Unmarshal(line, &h); err != nil {
		return h, "not a unit: " + clip.String(err.Error(), 120)
	}
	switch {
	case h.Scenario.ID == "" || h.Summarizer == "":
		return h, "not a unit: no scenario id or summarizer"
	case h.Status != result.UnitOK && h.Status != result.UnitError && h.Status != result.UnitAbandoned:
		return h, fmt.Sprintf("not a unit: status %q", clip.String(h.Status, 40))
	}
	return h, ""
}

// drop rewrites the journal without the bad lines (durably: a new file,
// synced, renamed over the old one) and indexes it again.
func (j *journal) drop(bad []badLine) error {
	path := j.f.Name()
	tmp := path + ".repair"
	out, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("repairing journal: %w", err)
	}
	defer os.Remove(tmp)
	var at int64
	for _, b := range append(bad, badLine{off: j.off}) {
		if _, err := io.Copy(out, io.NewSectionReader(j.f, at, b.off-at)); err != nil {
			out.Close()
			return fmt.Errorf("repairing journal: %w", err)
		}
		at = b.off + int64(b.n)
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return fmt.Errorf("repairing journal: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		out.Close()
		return fmt.Errorf("repairing journal: %w", err)
	}
	j.f.Close()
	j.f = out
	j.index = map[string]entry{}
	if again, err := j.load(); err != nil || len(again) > 0 {
		return fmt.Errorf("repairing journal: %d lines still corrupt (%v)", len(again), err)
	}
	return nil
}

func (j *journal) finished(key string) bool {
	e, ok := j.index[key]
	return ok && e.status != result.UnitAbandoned
}

// append writes each unit as one line, then syncs once: a unit is in the
// index (finished) only once it is durable.
func (j *journal) append(units []result.Unit) error {
	var buf []byte
	entries := make([]entry, len(units))
	for i := range units {
		u := &units[i]
		start := len(buf)
		var err error
		if buf, err = result.AppendUnit(buf, u); err != nil {
			return fmt.Errorf("journaling %s × %s: %w", u.Scenario.ID, u.Summarizer, err)
		}
		entries[i] = entry{off: j.off + int64(start), n: len(buf) - start, status: u.Status}
	}
	if _, err := j.f.WriteAt(buf, j.off); err != nil {
		return fmt.Errorf("writing journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("syncing journal: %w", err)
	}
	for i := range units {
		u := &units[i]
		key := unitKey(u.Scenario.ID, u.Scenario.Digest, u.Summarizer, u.Trial)
		j.index[key] = entries[i]
		j.keep(key, u, buf[entries[i].off-j.off:][:entries[i].n])
	}
	j.off += int64(len(buf))
	return nil
}

// keep remembers u, just journaled as line, if the budget allows and the
// line decodes to u: encoding/json writes each byte of a string that is
// not UTF-8 as the escape \ufffd, so a line holding that escape is read
// back instead.
func (j *journal) keep(key string, u *result.Unit, line []byte) {
	if j.keptBytes+len(line) > keptBudget || bytes.Contains(line, []byte(`\ufffd`)) {
		delete(j.kept, key)
		return
	}
	if j.kept == nil {
		j.kept = map[string]*result.Unit{}
	}
	c := *u // the caller reuses its batch
	j.kept[key] = &c
	j.keptBytes += len(line)
}

// line returns the journaled line for key (with its newline); ok is false
// when there is none.
func (j *journal) line(key string) ([]byte, bool, error) {
	e, ok := j.index[key]
	if !ok {
		return nil, false, nil
	}
	buf := make([]byte, e.n)
	if _, err := j.f.ReadAt(buf, e.off); err != nil {
		return nil, false, fmt.Errorf("reading journal: %w", err)
	}
	return buf, true, nil
}

// read returns the journaled unit for key; ok is false when there is none.
func (j *journal) read(key string) (*result.Unit, bool, error) {
	if u, ok := j.kept[key]; ok {
		return u, true, nil
	}
	buf, ok, err := j.line(key)
	if !ok || err != nil {
		return nil, ok, err
	}
	u, err := result.UnmarshalUnit(buf)
	if err != nil {
		return nil, false, fmt.Errorf("reading journal at byte %d: %w", j.index[key].off, err)
	}
	return u, true, nil
}

// close closes the journal and releases the run folder.
func (j *journal) close() error {
	err := j.f.Close()
	if uerr := j.lock.unlock(); err == nil {
		err = uerr
	}
	return err
}

// writeResult writes the result file from the header and the journaled
// units of keys, in order, without holding more units in memory than the
// journal keeps (keptBudget): a first pass takes each unit (kept, or
// decoded from its line), hands it to onUnit and keeps a light copy for
// the aggregates; a second copies the journal lines into the file, one
// unit a line as result.WriteJSON writes them (the bytes are the same).
func writeResult(path string, header *result.Result, j *journal, keys []string, onUnit func(*result.Unit)) error {
	agg := &result.Result{Config: header.Config}
	n := 0 // units in the file
	for _, k := range keys {
		u, ok, err := j.read(k)
		if err != nil {
			return err
		}
		if ok {
			n++
			agg.Units = append(agg.Units, light(u))
			if onUnit != nil {
				onUnit(u)
			}
		}
	}
	agg.Aggregate()
	header.Aggregates, header.Summaries = agg.Aggregates, agg.Summaries
	header.Judge, header.Disagreements = agg.Judge, agg.Disagreements
	agg = nil

	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("writing result: %w", err)
	}
	defer os.Remove(tmp)
	w := bufio.NewWriterSize(f, 1<<16)
	// The layout of result.WriteJSON: the head indented, one unit a line.
	h := *header
	h.Units = nil
	var hb bytes.Buffer
	enc := json.NewEncoder(&hb)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&h); err != nil {
		f.Close()
		return fmt.Errorf("writing result: %w", err)
	}
	head, tail, ok := bytes.Cut(hb.Bytes(), []byte(`"units": null`))
	if !ok {
		f.Close()
		return errors.New("writing result: unexpected header layout")
	}
	w.Write(head)
	if n == 0 {
		w.WriteString(`"units": []`)
	} else {
		w.WriteString("\"units\": [\n")
		i := 0
		for _, k := range keys {
			line, ok, err := j.line(k)
			if err != nil {
				f.Close()
				return err
			}
			if !ok {
				continue
			}
			i++
			w.WriteString("    ")
			w.Write(bytes.TrimSuffix(line, []byte("\n")))
			if i < n {
				w.WriteByte(',')
			}
			w.WriteByte('\n')
		}
		w.WriteString("  ]")
	}
	w.Write(tail)
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("writing result: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing result: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing result: %w", err)
	}
	return nil
}

// light is a copy of u with only what aggregation reads.
func light(u *result.Unit) result.Unit {
	l := result.Unit{Scenario: result.ScenarioRef{ID: u.Scenario.ID}, Summarizer: u.Summarizer, Trial: u.Trial, Status: u.Status}
	for _, g := range u.Generations {
		lg := result.Generation{N: g.N, SummaryTokens: g.SummaryTokens, ReplacedTokens: g.ReplacedTokens, Error: g.Error,
			Call: result.Generation{}.Call}
		lg.Call.Spec, lg.Call.Latency, lg.Call.Retries = g.Call.Spec, g.Call.Latency, g.Call.Retries
		lg.Citations = g.Citations
		if len(g.Summary) > 0 {
			lg.Summary = json.RawMessage("{}")
		}
		for _, c := range g.Checks {
			c.Message, c.Evidence, c.Metrics = "", nil, nil
			lg.Checks = append(lg.Checks, c)
		}
		l.Generations = append(l.Generations, lg)
	}
	for _, p := range u.Probes {
		lp := result.Probe{Class: p.Class}
		lp.Full.Call.Retries, lp.Compacted.Call.Retries = p.Full.Call.Retries, p.Compacted.Call.Retries
		lp.Full.Judge, lp.Compacted.Judge = p.Full.Judge, p.Compacted.Judge
		if p.Recall != nil {
			lr := &result.Decision{RecallCalls: make([]result.RecallCall, len(p.Recall.RecallCalls))}
			lr.Call.Retries = p.Recall.Call.Retries
			for i, c := range p.Recall.RecallCalls {
				lr.RecallCalls[i] = result.RecallCall{Tokens: c.Tokens, Error: c.Error}
			}
			lp.Recall, lp.Recovery = lr, p.Recovery
		}
		l.Probes = append(l.Probes, lp)
	}
	return l
}
