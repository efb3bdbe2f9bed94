package scenarios

import (
	"embed"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"sync"
)

//go:embed *.yaml
var builtinFS embed.FS

// BuiltinPrefix is the File prefix of the embedded suite's scenarios:
// "builtin/NAME.yaml".
const BuiltinPrefix = "builtin/"

// Builtin loads the suite embedded in the binary, in file name order. Like
// LoadPaths it returns every scenario that loaded and an ErrorList of every
// problem (nil when none); it does not lint (see Lint).
//
// The files are loaded in parallel, on up to GOMAXPROCS goroutines: `run`
// loads the suite before its first request, and filler expansion makes
// each file cost up to a few milliseconds. Results and problems keep file
// name order.
func Builtin() ([]*Scenario, error) {
	names, err := fs.Glob(builtinFS, "*.yaml")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	type result struct {
		s    *Scenario
		errs ErrorList
	}
	results := make([]result, len(names))
	data := make([][]byte, len(names))
	for i, name := range names {
		if data[i], err = builtinFS.ReadFile(name); err != nil {
			results[i].errs = ErrorList{{File: BuiltinPrefix + name, Msg: err.Error()}}
		}
	}
	// The largest files go first, so that the longest one does not start
	// last and keep the others waiting.
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(data[b]) - len(data[a]) })
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next == len(order) {
			return 0, false
		}
		next++
		return order[next-1], true
	}
	for range min(runtime.GOMAXPROCS(0), len(names)) {
		wg.Go(func() {
			for i, ok := take(); ok; i, ok = take() {
				if results[i].errs != nil {
					continue
				}
				s, err := LoadBytes(BuiltinPrefix+path.Base(names[i]), data[i])
				if err != nil {
					results[i].errs = err.(ErrorList)
					continue
				}
				results[i].s = s
			}
		})
	}
	wg.Wait()
	var list []*Scenario
	var errs ErrorList
	for _, r := range results {
		if r.errs != nil {
			errs = append(errs, r.errs...)
			continue
		}
		list = append(list, r.s)
	}
	return list, errs.Err()
}
