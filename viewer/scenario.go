package viewer

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// The scenario a unit ran, for the events its summaries replaced.
//
// A result names each unit's scenario file as the run was given it (a
// path relative to where `compact-eval run` was started, or builtin/NAME.yaml
// for the built-in suite) with the digest of its meaning. The viewer loads
// it again and shows its events only when the digest is still the unit's:
// a file edited since the run would put other events beside the summary,
// and the page says so instead (and shows the file as it is now only when
// asked). Every text of the events goes through the scenario's secret
// redactor, as every output of a run does.

// loadedScenario is a scenario file as loaded, its events redacted.
type loadedScenario struct {
	sc   *scenarios.Scenario
	path string
}

// scenarioCache keeps the scenarios loaded last, by path and file state.
type scenarioCache struct {
	mu      sync.Mutex
	entries []*scenarioEntry // most recent first
}

type scenarioEntry struct {
	key  string
	once sync.Once
	ls   *loadedScenario
	err  error
}

const maxScenarios = 8

// load loads the scenario file at path once per state of the file.
func (c *scenarioCache) load(path string) (*loadedScenario, error) {
	key := path
	if !strings.HasPrefix(path, scenarios.BuiltinPrefix) {
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		key = fmt.Sprintf("%s\x00%d@%d", path, st.Size(), st.ModTime().UnixNano())
	}
	c.mu.Lock()
	i := slices.IndexFunc(c.entries, func(e *scenarioEntry) bool { return e.key == key })
	var e *scenarioEntry
	if i >= 0 {
		e = c.entries[i]
		c.entries = slices.Delete(c.entries, i, i+1)
	} else {
		e = &scenarioEntry{key: key}
	}
	c.entries = append([]*scenarioEntry{e}, c.entries...)
	if len(c.entries) > maxScenarios {
		c.entries = c.entries[:maxScenarios]
	}
	c.mu.Unlock()
	e.once.Do(func() { e.ls, e.err = loadScenario(path) })
	return e.ls, e.err
}

// loadScenario loads and lints one scenario file and redacts its events'
// texts with its secrets.
func loadScenario(path string) (*loadedScenario, error) {
	var sc *scenarios.Scenario
	var err error
	if strings.HasPrefix(path, scenarios.BuiltinPrefix) {
		sc, err = scenarios.LoadBuiltin(path)
	} else if sc, err = scenarios.LoadFile(path); err == nil {
		if errs := scenarios.LintScenario(sc); errs != nil {
			err = errs
		}
	}
	if err != nil {
		// Never the loader's messages: the path came from a result file,
		// and a file that is no scenario is none of the page's business.
		n := 1
		if l, ok := err.(scenarios.ErrorList); ok {
			n = len(l)
		}
		return nil, fmt.Errorf("%s does not load as a scenario (%s; compact-eval validate %s lists them)", path, plural(n, "problem"), path)
	}
	rd := checks.SecretRedactor(sc)
	checks.Forget(sc)
	if rd != nil {
		red := func(s string) string { return rd.String(s) }
		for _, evs := range [][]scenarios.Event{sc.Events, sc.Arrivals} {
			for i := range evs {
				e := &evs[i]
				e.Text = red(e.Text)
				if c := e.ToolCall; c != nil {
					args := make(map[string]any, len(c.Args))
					for k, v := range c.Args {
						args[red(k)] = redactValue(v, red)
					}
					c.Args = args
				}
				if r := e.ToolResult; r != nil {
					r.Text = red(r.Text)
				}
			}
		}
		sc.Goal, sc.Rules = red(sc.Goal), red(sc.Rules)
		for i := range sc.Probes {
			sc.Probes[i].Question = red(sc.Probes[i].Question)
		}
	}
	return &loadedScenario{sc: sc, path: path}, nil
}

// redactValue redacts the strings of a tool call's argument value.
func redactValue(v any, red func(string) string) any {
	switch x := v.(type) {
	case string:
		return red(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = redactValue(e, red)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[red(k)] = redactValue(e, red)
		}
		return out
	}
	return v
}

// scenarioPaths are where a unit's scenario file may be: the built-in
// suite's name, an absolute path, or a relative one as given (from the
// viewer's folder), from the folder the run's root folder is in (where
// run was started when it wrote compact-eval-out/ there), and from the
// root folder itself.
func scenarioPaths(file, runDir string) []string {
	if file == "" {
		return nil
	}
	if strings.HasPrefix(file, scenarios.BuiltinPrefix) || filepath.IsAbs(file) {
		return []string{file}
	}
	var out []string
	for _, p := range []string{file, filepath.Join(filepath.Dir(filepath.Dir(runDir)), file), filepath.Join(filepath.Dir(runDir), file)} {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// scenarioOf finds the scenario unit u of the run in runDir ran. It returns
// the scenario (nil when none is found), whether its meaning changed since
// the run, and a note that says where it was found, or why not.
func (c *scenarioCache) scenarioOf(u *result.Unit, runDir string) (ls *loadedScenario, changed bool, note string) {
	paths := scenarioPaths(u.Scenario.File, runDir)
	if len(paths) == 0 {
		return nil, false, "the result names no scenario file for this unit"
	}
	var reasons []string
	for _, p := range paths {
		l, err := c.load(p)
		switch {
		case os.IsNotExist(err):
			continue
		case err != nil:
			reasons = append(reasons, err.Error())
			continue
		case l.sc.ID != u.Scenario.ID:
			reasons = append(reasons, fmt.Sprintf("%s holds scenario %s, not %s", p, l.sc.ID, u.Scenario.ID))
			continue
		case u.Scenario.Digest != "" && l.sc.Digest != u.Scenario.Digest:
			return l, true, fmt.Sprintf("%s changed meaning since the run (its digest was %s, it is %s now): its events may not be the ones this unit's summaries replaced", p, short12(u.Scenario.Digest), short12(l.sc.Digest))
		}
		return l, false, ""
	}
	if len(reasons) == 0 {
		return nil, false, fmt.Sprintf("the scenario file %s is not found (looked for %s)", u.Scenario.File, strings.Join(paths, ", "))
	}
	return nil, false, strings.Join(reasons, "; ")
}

func short12(digest string) string {
	d := strings.TrimPrefix(digest, "sha256:")
	if len(d) > 12 {
		d = d[:12]
	}
	return "sha256:" + d
}
