package viewer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// The unit index of a run, for the pages that show its units (the grid,
// the unit page, units.csv).
//
// A result of 20,000 units is some 200 MB, and decoding it in full takes
// seconds and holds half a gigabyte. The index never decodes it in full: one
// pass over the file finds each unit's line (result.WriteJSON writes one
// unit per line) and reads only its opening (the scenario, the summarizer
// and the trial); a unit's figures (reports.FiguresOf) are computed when a
// page needs them, chunk by chunk, each chunk decoded once and its units
// let go; the unit page decodes one line. A result laid out otherwise (by
// hand, by another tool) is decoded in full instead, as before.

// chunkUnits is how many units a chunk of figures holds.
const chunkUnits = 256

// unitIndex is where each unit of one result lies, and the figures of the
// chunks decoded so far. Safe for concurrent use.
type unitIndex struct {
	path    string
	runID   string
	pricing reports.Pricing
	units   []unitLine
	// scenarios are in the order of the file, each with its units' line
	// numbers; sums are the summarizers, the run's order first.
	scenarios []scenarioUnits
	sums      []string
	trials    int
	byAnchor  map[string]int
	chunks    []figChunk
	// res is the result decoded in full, when the file is not laid out one
	// unit a line; nil otherwise.
	res *result.Result
}

// unitLine is one unit: its place in the file, its scenario and
// summarizer (indices into the index's lists) and trial.
type unitLine struct {
	off       int64
	n         int32
	scen, sum int32
	trial     int32
}

type scenarioUnits struct {
	Ref   result.ScenarioRef
	lines []int32
	// text is what the grid's filter matches: id, title and tags.
	text string
}

type figChunk struct {
	once sync.Once
	figs []reports.UnitFigures
	err  error
}

// buildIndex indexes the result at path of the run named runID, whose
// summarizers, in the run's order, are sums.
func buildIndex(path, runID string, sums []string, pricing reports.Pricing) (*unitIndex, error) {
	x := &unitIndex{path: path, runID: runID, pricing: pricing, sums: slices.Clone(sums), byAnchor: map[string]int{}}
	err := x.scan()
	if errors.Is(err, errNotLight) {
		x.units, x.scenarios, x.byAnchor = nil, nil, map[string]int{}
		x.sums = slices.Clone(sums)
		res, rerr := reports.Read(path)
		if rerr != nil {
			return nil, rerr
		}
		x.res = res
		for i := range res.Units {
			x.add(&res.Units[i].Scenario, res.Units[i].Summarizer, res.Units[i].Trial, 0, 0)
		}
		err = nil
	}
	if err != nil {
		return nil, err
	}
	x.chunks = make([]figChunk, (len(x.units)+chunkUnits-1)/chunkUnits)
	return x, nil
}

// add indexes one unit.
func (x *unitIndex) add(ref *result.ScenarioRef, sum string, trial int, off int64, n int) {
	si := slices.IndexFunc(x.scenarios, func(s scenarioUnits) bool { return s.Ref.ID == ref.ID })
	// Units come sorted by scenario: the last one is almost always it.
	if k := len(x.scenarios) - 1; k >= 0 && x.scenarios[k].Ref.ID == ref.ID {
		si = k
	}
	if si < 0 {
		si = len(x.scenarios)
		r := *ref
		r.Plan = nil
		x.scenarios = append(x.scenarios, scenarioUnits{Ref: r, text: strings.ToLower(strings.Join(append([]string{ref.ID, ref.Title}, ref.Tags...), " "))})
	}
	mi := slices.Index(x.sums, sum)
	if mi < 0 {
		mi = len(x.sums)
		x.sums = append(x.sums, sum)
	}
	x.trials = max(x.trials, trial+1)
	i := len(x.units)
	x.units = append(x.units, unitLine{off: off, n: int32(n), scen: int32(si), sum: int32(mi), trial: int32(trial)})
	x.scenarios[si].lines = append(x.scenarios[si].lines, int32(i))
	x.byAnchor[reports.UnitAnchor(ref.ID, sum, trial)] = i
}

// scan reads the file's unit lines: their places and openings. It returns
// errNotLight when the file is not laid out as result.WriteJSON writes it.
func (x *unitIndex) scan() error {
	f, err := inputfile.Open(x.path)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	var off int64
	inUnits, done := false, false
	refs := map[string]*result.ScenarioRef{}
	names := map[string]string{}
	for !done {
		line, n, err := readCounted(br)
		if err == io.EOF && n == 0 {
			break
		}
		if err != nil && err != io.EOF {
			return err
		}
		start := off
		off += int64(n)
		switch {
		case !inUnits:
			if bytes.Equal(line, []byte("  \"units\": [\n")) {
				inUnits = true
			} else if bytes.HasPrefix(line, []byte(`  "units": []`)) {
				done = true
			}
		case bytes.HasPrefix(line, []byte("  ]")):
			done = true
		default:
			ref, sum, trial, ok := unitHead(line)
			if !ok {
				return errNotLight
			}
			r := refs[string(ref)]
			if r == nil {
				r = new(result.ScenarioRef)
				if json.Unmarshal(ref, r) != nil || r.ID == "" {
					return errNotLight
				}
				refs[string(ref)] = r
			}
			name, ok := names[string(sum)]
			if !ok {
				if json.Unmarshal(sum, &name) != nil || name == "" {
					return errNotLight
				}
				names[string(sum)] = name
			}
			// The line without its indent; decode drops the comma and newline.
			x.add(r, name, trial, start+4, n-4)
		}
		if err == io.EOF {
			break
		}
	}
	if !done {
		return errNotLight
	}
	return nil
}

// readCounted reads one line and returns its first 64 KiB (all of it when
// shorter) and its whole length.
func readCounted(br *bufio.Reader) (line []byte, n int, err error) {
	line, err = br.ReadSlice('\n')
	n = len(line)
	if err != bufio.ErrBufferFull {
		return line, n, err
	}
	line = slices.Clone(line)
	for err == bufio.ErrBufferFull {
		var more []byte
		more, err = br.ReadSlice('\n')
		n += len(more)
	}
	return line, n, err
}

// unitHead reads what opens a unit's line: the scenario reference and the
// summarizer (raw JSON, as unitOpening returns them) and the trial, which
// MarshalUnit writes next.
func unitHead(line []byte) (ref, sum []byte, trial int, ok bool) {
	ref, sum, ok = unitOpening(line)
	if !ok {
		return nil, nil, 0, false
	}
	rest := line[len(`    {"scenario":`)+len(ref)+len(`,"summarizer":`)+len(sum):]
	rest, ok = bytes.CutPrefix(rest, []byte(`,"trial":`))
	if !ok {
		return nil, nil, 0, false
	}
	end := bytes.IndexByte(rest, ',')
	if end < 0 {
		return nil, nil, 0, false
	}
	t, err := strconv.Atoi(string(rest[:end]))
	if err != nil || t < 0 {
		return nil, nil, 0, false
	}
	return ref, sum, t, true
}

// unit decodes the i-th unit.
func (x *unitIndex) unit(i int) (*result.Unit, error) {
	if x.res != nil {
		return &x.res.Units[i], nil
	}
	f, err := inputfile.Open(x.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	us, err := x.decode(f, i, i+1, result.UnmarshalUnit)
	if err != nil {
		return nil, err
	}
	return us[0], nil
}

// decode decodes the units lo..hi-1 from f with dec, reading their bytes
// at once.
func (x *unitIndex) decode(f *os.File, lo, hi int, dec func([]byte) (*result.Unit, error)) ([]*result.Unit, error) {
	first, last := x.units[lo], x.units[hi-1]
	buf := make([]byte, last.off+int64(last.n)-first.off)
	if _, err := f.ReadAt(buf, first.off); err != nil {
		return nil, fmt.Errorf("reading %s: %w (was the result rewritten?)", x.path, err)
	}
	out := make([]*result.Unit, 0, hi-lo)
	for i := lo; i < hi; i++ {
		l := x.units[i]
		b := buf[l.off-first.off : l.off-first.off+int64(l.n)]
		b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte(","))
		u, err := dec(b)
		if err != nil {
			return nil, fmt.Errorf("%s: unit %d (%s × %s, trial %d): %w", x.path, i+1, x.scenarios[l.scen].Ref.ID, x.sums[l.sum], l.trial+1, err)
		}
		out = append(out, u)
	}
	return out, nil
}

// ensure computes the figures of the units of chunks cs that no page has
// asked for yet, on one reader per CPU.
func (x *unitIndex) ensure(cs []int) error {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(len(cs), runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for c := range next {
				x.chunks[c].once.Do(func() { x.chunks[c].figs, x.chunks[c].err = x.decodeChunk(c) })
			}
		})
	}
	for _, c := range cs {
		next <- c
	}
	close(next)
	wg.Wait()
	for _, c := range cs {
		if err := x.chunks[c].err; err != nil {
			return err
		}
	}
	return nil
}

// ensureAll computes every unit's figures.
func (x *unitIndex) ensureAll() error {
	cs := make([]int, len(x.chunks))
	for i := range cs {
		cs[i] = i
	}
	return x.ensure(cs)
}

func (x *unitIndex) decodeChunk(c int) ([]reports.UnitFigures, error) {
	lo, hi := c*chunkUnits, min((c+1)*chunkUnits, len(x.units))
	out := make([]reports.UnitFigures, 0, hi-lo)
	if x.res != nil {
		for i := lo; i < hi; i++ {
			out = append(out, reports.FiguresOf(&x.res.Units[i], x.pricing))
		}
		return out, nil
	}
	f, err := inputfile.Open(x.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	us, err := x.decode(f, lo, hi, decodeSlim)
	if err != nil {
		return nil, err
	}
	for _, u := range us {
		out = append(out, reports.FiguresOf(u, x.pricing))
	}
	return out, nil
}

// fig is unit i's figures; its chunk must have been ensured.
func (x *unitIndex) fig(i int) *reports.UnitFigures {
	return &x.chunks[i/chunkUnits].figs[i%chunkUnits]
}

// ensureScenarios computes the figures of the units of scenarios sis.
func (x *unitIndex) ensureScenarios(sis []int) error {
	var cs []int
	for _, si := range sis {
		for _, l := range x.scenarios[si].lines {
			if c := int(l) / chunkUnits; !slices.Contains(cs, c) {
				cs = append(cs, c)
			}
		}
	}
	return x.ensure(cs)
}

// indexes are the unit indexes of the runs opened last.
type indexes struct {
	mu      sync.Mutex
	entries []*indexEntry // most recent first
}

type indexEntry struct {
	id, stamp string
	once      sync.Once
	x         *unitIndex
	err       error
}

// maxIndexes is how many runs' unit indexes are kept.
const maxIndexes = 4

// get returns run's index, building it once per state of its files.
func (ix *indexes) get(run *Run, pricing reports.Pricing) (*unitIndex, error) {
	ix.mu.Lock()
	var e *indexEntry
	for i, c := range ix.entries {
		if c.id == run.ID && c.stamp == run.stamp {
			e = c
			ix.entries = append(ix.entries[:i:i], ix.entries[i+1:]...)
			break
		}
	}
	if e == nil {
		e = &indexEntry{id: run.ID, stamp: run.stamp}
		ix.entries = slices.DeleteFunc(ix.entries, func(c *indexEntry) bool { return c.id == run.ID })
	}
	ix.entries = append([]*indexEntry{e}, ix.entries...)
	if len(ix.entries) > maxIndexes {
		ix.entries = ix.entries[:maxIndexes]
	}
	ix.mu.Unlock()
	e.once.Do(func() {
		e.x, e.err = buildIndex(filepath.Join(run.Dir, resultFile), run.RunID, run.Summarizers, pricing)
	})
	return e.x, e.err
}
