package viewer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// The light read of a result, for the runs table and the trends.
//
// Decoding a result in full costs about 75 ms for the built-in suite × 3
// summarizers (700 KB), 75 s of CPU for 1,000 runs; even a decode into a
// struct of two fields costs 17 ms a run, because encoding/json scans every
// byte of every unit. So the listing decodes no unit: result.WriteJSON
// writes each unit on one line between an indented head and tail, and the
// light read takes the head and the tail (run header, stored summaries and
// aggregates, interruption, missing shards, git) as JSON, and from each
// unit line only its opening, the scenario reference and the summarizer
// (for the suite digest and the counts of units and scenarios).
//
// The stored summaries and aggregates are what Result.Aggregate wrote from
// the same units, and the verdict's counts follow from them exactly when no
// unit or generation errored: failures, uncertain checks, regressions,
// check and probe errors are counted the same way by both. A unit's or a
// generation's error is not (a finding leaves out an error that follows
// from its generation's), so the units that hold an error, and only those
// (the key "error" occurs in their line), are decoded and their findings
// counted: a 20,000-unit run whose model summarizer failed now and then
// is still listed in a fraction of a second, where decoding it in full
// took 20 s. A file laid out otherwise (written by hand, or by another
// tool), one without stored summaries, or one whose stored errors its
// units do not account for is decoded in full, as before; so is one
// written before the stored figures carried their intervals clustered by
// scenario.
// When a run is opened its result is decoded in full, and its headline
// figures are taken from the units again: a hand-edited summary does not
// outlive the first look at its run.

// errNotLight says that a result cannot be read lightly; it is decoded in
// full instead.
var errNotLight = errors.New("not laid out as result.WriteJSON writes")

// lightResult is what the light read finds.
type lightResult struct {
	head      *result.Result // without units
	units     int
	scenarios []string // "id digest", once each, in file order
	ids       int      // distinct scenario ids
	extra     []string // summarizers of units that the config does not name

	seenRef, seenSum, idSet map[string]struct{}
	// unitErrors counts the errors of units and generations in the units
	// that errored; errorFindings is what their findings add to the
	// verdict's errors beyond their checks' and probes' (errored).
	unitErrors, errorFindings int
}

// readLight reads the result at path without decoding its units. It
// returns errNotLight when the file is not laid out as WriteJSON lays it
// out or its figures cannot be taken from its summaries; any other error is
// the file's (it cannot be opened or read, or its head does not decode).
func readLight(path string) (*lightResult, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	var doc []byte
	lr := &lightResult{seenRef: map[string]struct{}{}, seenSum: map[string]struct{}{}, idSet: map[string]struct{}{}}
	const (
		inHead = iota
		inUnits
		inTail
	)
	state := inHead
	for {
		read := readLine
		if state == inUnits {
			read = readWhole // a unit that errored is decoded: all of it
		}
		line, long, err := read(br)
		if err == io.EOF && len(line) == 0 {
			break
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		switch state {
		case inHead:
			if long {
				return nil, errNotLight
			}
			switch {
			case bytes.Equal(line, []byte("  \"units\": [\n")):
				doc = append(doc, "  \"units\": []"...)
				state = inUnits
			case bytes.HasPrefix(line, []byte(`  "units": []`)):
				doc = append(doc, line...)
				state = inTail
			default:
				doc = append(doc, line...)
			}
		case inUnits:
			if rest, ok := bytes.CutPrefix(line, []byte("  ]")); ok {
				doc = append(doc, rest...) // "," and the newline, or the newline
				state = inTail
				continue
			}
			ref, sum, ok := unitOpening(line)
			if !ok || !lr.add(ref, sum) || !lr.errored(line) {
				return nil, errNotLight
			}
		case inTail:
			if long {
				return nil, errNotLight
			}
			doc = append(doc, line...)
		}
		if err == io.EOF {
			break
		}
	}
	if state != inTail {
		return nil, errNotLight
	}
	lr.ids = len(lr.idSet)
	head, err := decodeHead(doc)
	if err != nil {
		return nil, err
	}
	if lr.units > 0 && len(head.Summaries) == 0 {
		return nil, errNotLight // written without its figures
	}
	if !clusteredFigures(head) {
		return nil, errNotLight // written before the intervals by scenario
	}
	// A summary's Errors are its units' errors, its generations' and its
	// checks'; the aggregates count the checks'. The difference is the
	// units' and generations' errors, which the units that hold an error
	// (decoded, errored) must account for exactly.
	errs := 0
	for _, s := range head.Summaries {
		errs += s.Errors
	}
	for _, a := range head.Aggregates {
		if a.Check != result.CheckDecisions {
			errs -= a.Error
		}
	}
	if errs != lr.unitErrors {
		return nil, errNotLight // errors the unit lines do not hold: edited by hand
	}
	lr.extra = slices.DeleteFunc(lr.extra, func(s string) bool { return slices.Contains(head.Config.Summarizers, s) })
	lr.head = head
	return lr, nil
}

// clusteredFigures reports whether the stored figures carry their
// intervals clustered by scenario: a result written before them stored
// Wilson's intervals over every outcome, which trials narrow, and is
// decoded in full so that they are computed again.
func clusteredFigures(head *result.Result) bool {
	for _, a := range head.Aggregates {
		if a.Judged() > 0 && a.Scenarios == 0 {
			return false
		}
	}
	for _, s := range head.Summaries {
		if s.InvariantPass+s.InvariantFail+s.InvariantUncertain > 0 && s.InvariantsKeptInterval == nil ||
			s.StructuralPass+s.StructuralFail+s.StructuralUncertain > 0 && s.StructuralPassedInterval == nil {
			return false
		}
	}
	return true
}

// errored decodes a unit's line when it may hold an error (a unit's, a
// generation's, a call's: the key "error" occurs in it, which no unit
// without one holds) and counts what the verdict's counts need beyond the
// aggregates: its units' and generations' errors, and the error findings
// its checks' and probes' errors do not account for (reports.UnitFindings
// lists a unit's error, and its generations' unless they repeat it, and
// leaves out the check errors of a generation that errored). It reports
// whether the line decodes.
func (lr *lightResult) errored(line []byte) bool {
	if !bytes.Contains(line, []byte(`"error":`)) {
		return true
	}
	body := bytes.TrimSuffix(bytes.TrimSuffix(bytes.TrimPrefix(line, []byte("    ")), []byte("\n")), []byte(","))
	u, err := result.UnmarshalUnit(body)
	if err != nil {
		return false
	}
	outcomes := 0
	if u.Status == result.UnitError {
		lr.unitErrors++
	}
	for _, g := range u.Generations {
		if g.Error != "" {
			lr.unitErrors++
		}
		for _, c := range g.Checks {
			if c.Status == result.Error {
				outcomes++
			}
		}
	}
	for _, p := range u.Probes {
		if p.Class == result.ProbeErrored {
			outcomes++
		}
	}
	for _, f := range reports.UnitFindings(u) {
		if f.Severity == reports.SevError {
			lr.errorFindings++
		}
	}
	lr.errorFindings -= outcomes
	return true
}

// readWhole reads one line, newline included, however long.
func readWhole(br *bufio.Reader) (line []byte, long bool, err error) {
	line, err = br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, false, err
	}
	line = slices.Clone(line)
	for err == bufio.ErrBufferFull {
		var more []byte
		more, err = br.ReadSlice('\n')
		line = append(line, more...)
	}
	return line, false, err
}

// readLine reads one line, newline included. A line longer than the
// reader's buffer is returned cut at the buffer's size with long set; the
// rest of it is skipped.
func readLine(br *bufio.Reader) (line []byte, long bool, err error) {
	line, err = br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, false, err
	}
	line = slices.Clone(line)
	for err == bufio.ErrBufferFull {
		_, err = br.ReadSlice('\n')
	}
	return line, true, err
}

// unitOpening reads the scenario reference and the summarizer that open a
// unit's line (MarshalUnit writes them first), and nothing after them. It
// returns them raw: a run repeats each many times, and only a new one is
// decoded (lightResult.add).
func unitOpening(line []byte) (ref, sum []byte, ok bool) {
	rest, ok := bytes.CutPrefix(line, []byte(`    {"scenario":`))
	if !ok {
		return nil, nil, false
	}
	n := valueEnd(rest)
	if n <= 0 || rest[0] != '{' {
		return nil, nil, false
	}
	ref, rest = rest[:n], rest[n:]
	rest, ok = bytes.CutPrefix(rest, []byte(`,"summarizer":`))
	if !ok {
		return nil, nil, false
	}
	n = valueEnd(rest)
	if n <= 0 || rest[0] != '"' {
		return nil, nil, false
	}
	return ref, rest[:n], true
}

// valueEnd is the length of the JSON object or string that b starts with,
// 0 when b starts with neither or ends first. It trusts the value to be
// valid: what it returns is decoded by encoding/json.
func valueEnd(b []byte) int {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if i >= len(b) {
				return 0
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		default:
			if depth == 0 {
				return 0
			}
		}
	}
	return 0
}

// add counts one unit of scenario ref and summarizer sum (raw JSON, as
// unitOpening returns them), decoding each only the first time it is seen.
func (lr *lightResult) add(ref, sum []byte) bool {
	lr.units++
	if _, ok := lr.seenRef[string(ref)]; !ok {
		var r result.ScenarioRef
		if json.Unmarshal(ref, &r) != nil || r.ID == "" {
			return false
		}
		lr.seenRef[string(ref)] = struct{}{}
		if k := r.ID + " " + r.Digest; !slices.Contains(lr.scenarios, k) {
			lr.scenarios = append(lr.scenarios, k)
		}
		lr.idSet[r.ID] = struct{}{}
	}
	if _, ok := lr.seenSum[string(sum)]; !ok {
		var s string
		if json.Unmarshal(sum, &s) != nil || s == "" {
			return false
		}
		lr.seenSum[string(sum)] = struct{}{}
		if !slices.Contains(lr.extra, s) {
			lr.extra = append(lr.extra, s)
		}
	}
	return true
}

// decodeHead decodes a result document without units, as strictly as
// result.Decode decodes a whole one. A document it cannot decode is left
// to result.Decode, which says where it goes wrong.
func decodeHead(doc []byte) (*result.Result, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	var r result.Result
	if err := dec.Decode(&r); err != nil {
		return nil, errNotLight
	}
	switch {
	case r.ResultVersion < 1:
		return nil, errNotLight
	case r.ResultVersion > result.ResultVersion:
		return nil, fmt.Errorf("result_version %d is newer than this compact-eval reads (%d): upgrade compact-eval", r.ResultVersion, result.ResultVersion)
	}
	return &r, nil
}

// counts are the verdict's counts of a result read lightly: the stored
// aggregates', and the errors of the units that errored.
func (lr *lightResult) counts() reports.Counts {
	c := reports.Counts{Units: lr.units, Scenarios: lr.ids, Errors: lr.errorFindings}
	for _, s := range lr.head.Summaries {
		c.Regressions += s.Regressions
	}
	for _, a := range lr.head.Aggregates {
		c.Errors += a.Error // the checks' and the probes'
		if a.Check == result.CheckDecisions {
			continue
		}
		c.Checks += a.Pass + a.Fail + a.Error + a.Skip + a.Uncertain
		c.Uncertain += a.Uncertain
		c.Decided.Plus(a.Decided)
		if a.Kind == result.KindInvariant {
			c.InvariantFail += a.Fail
		} else {
			c.StructuralFail += a.Fail
		}
	}
	return c
}
