package checks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/scenarios"
)

// The mutation suite (issue 3): every gold summary of the built-in suite
// passes every check, and every single-defect mutation of a gold summary
// fails exactly the check (and invariant) it targets and no other. This is
// the proof that the checks have recall and precision. New mutations are one
// file each in testdata/mutations.

const (
	goldDir     = "../testdata/gold"
	mutationDir = "../testdata/mutations"
)

// goldFile is testdata/gold/<scenario-id>.json.
type goldFile struct {
	Scenario    string `json:"scenario"`
	Generations []struct {
		Cut     int             `json:"cut"`
		Summary json.RawMessage `json:"summary"`
	} `json:"generations"`
}

// mutationFile is testdata/mutations/<name>.json.
type mutationFile struct {
	Scenario   string `json:"scenario"`
	Generation int    `json:"generation"` // 1-based
	Check      string `json:"check"`
	Invariant  string `json:"invariant,omitempty"`
	Why        string `json:"why"`
	// TailDrop removes events from the constructed tail (for the tail check).
	TailDrop []int `json:"tail_drop,omitempty"`
	// Also lists the other results the defect must fail by construction of
	// the scenario (every unresolved call of the built-in suite is also a
	// pending_operation invariant). Everything else must not fail.
	Also []struct {
		Check     string `json:"check"`
		Invariant string `json:"invariant,omitempty"`
	} `json:"also,omitempty"`
	// Status is the status the targeted check must give: fail (the
	// default), or uncertain where the change is not plain (a permission
	// under a condition or a time limit the rule never had: the meaning
	// changed, but not into its plain opposite).
	Status  result.Status   `json:"status,omitempty"`
	Summary json.RawMessage `json:"summary"`
}

func builtinByID(t *testing.T) map[string]*scenarios.Scenario {
	t.Helper()
	scs, err := scenarios.Builtin()
	if err != nil {
		t.Fatalf("loading the built-in suite: %v", err)
	}
	m := map[string]*scenarios.Scenario{}
	for _, sc := range scs {
		m[sc.ID] = sc
	}
	return m
}

func readGold(t *testing.T, id string) (*goldFile, bool) {
	t.Helper()
	path := filepath.Join(goldDir, id+".json")
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return nil, false
	}
	g := readGoldFile(t, path)
	if g.Scenario != filepath.Base(id) {
		t.Fatalf("gold %s.json names scenario %q", id, g.Scenario)
	}
	return g, true
}

// readGoldFile reads a file of the gold's shape (a gold summary, or a
// paraphrase of one), refusing unknown fields.
func readGoldFile(t *testing.T, path string) *goldFile {
	t.Helper()
	var g goldFile
	readStrictJSON(t, path, &g)
	return &g
}

// readStrictJSON decodes the JSON file path into v, refusing unknown
// fields: a test fixture with a misspelt key fails instead of testing less.
func readStrictJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
}

// goldInput builds the input of generation n (1-based) of a gold file, as
// the runner would: previous gold as the base, the tail every event after
// the cut, plus the arrivals at the last generation.
func goldInput(t *testing.T, sc *scenarios.Scenario, g *goldFile, n int, raw json.RawMessage) *Input {
	t.Helper()
	if n < 1 || n > len(g.Generations) {
		t.Fatalf("%s: generation %d of %d", sc.ID, n, len(g.Generations))
	}
	gen := Generation{N: n, Cut: g.Generations[n-1].Cut}
	if n > 1 {
		prev := g.Generations[n-2]
		gen.PrevCoversThrough = prev.Cut
		in := &Input{Raw: prev.Summary}
		gen.Previous = in.state().sum
	}
	for _, e := range sc.Events {
		if e.Seq > gen.Cut {
			gen.Tail = append(gen.Tail, e)
		}
	}
	if n == len(g.Generations) {
		gen.Tail = append(gen.Tail, sc.Arrivals...)
	}
	return &Input{Scenario: sc, Gen: gen, Raw: raw}
}

func TestGoldSummariesPassEveryCheck(t *testing.T) {
	byID := builtinByID(t)
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	found := 0
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			g, ok := readGold(t, id)
			if !ok {
				t.Skipf("no gold summary testdata/gold/%s.json yet", id)
			}
			found++
			for n := 1; n <= len(g.Generations); n++ {
				in := goldInput(t, byID[id], g, n, g.Generations[n-1].Summary)
				for _, r := range Run(in) {
					if r.Status != result.Pass && r.Status != result.Skip {
						t.Errorf("generation %d (cut %d): %s/%s: %s: %s %+v", n, in.Gen.Cut, r.Check, r.Invariant, r.Status, r.Message, r.Evidence)
					}
				}
			}
		})
	}
	if found == 0 {
		t.Errorf("no gold summaries found in %s: nothing was checked", goldDir)
	}
}

func TestMutationsFailExactlyTheirCheck(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(mutationDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no mutations in %s (%v): nothing was checked", mutationDir, err)
	}
	byID := builtinByID(t)
	known := map[string]bool{}
	for _, n := range CheckNames() {
		known[n] = true
	}
	covered := map[string]int{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			var m mutationFile
			readStrictJSON(t, f, &m)
			if !known[m.Check] || m.Why == "" || len(m.Summary) == 0 {
				t.Fatalf("mutation needs a known check (got %q), a why and a summary", m.Check)
			}
			sc := byID[m.Scenario]
			if sc == nil {
				t.Fatalf("unknown scenario %q", m.Scenario)
			}
			g, ok := readGold(t, m.Scenario)
			if !ok {
				t.Skipf("no gold for %s yet", m.Scenario)
			}
			in := goldInput(t, sc, g, m.Generation, m.Summary)
			if len(m.TailDrop) > 0 {
				var tail []scenarios.Event
				for _, e := range in.Gen.Tail {
					drop := false
					for _, s := range m.TailDrop {
						drop = drop || e.Seq == s
					}
					if !drop {
						tail = append(tail, e)
					}
				}
				in.Gen.Tail = tail
			}
			hit := false
			alsoHit := map[int]bool{}
			want := m.Status
			if want == "" {
				want = result.Fail
			}
			results := Run(in)
			checkPointers(t, m.Summary, results)
			for _, r := range results {
				target := r.Check == m.Check && (m.Invariant == "" || r.Invariant == m.Invariant)
				also := -1
				for i, a := range m.Also {
					if r.Check == a.Check && (a.Invariant == "" || r.Invariant == a.Invariant) {
						also = i
					}
				}
				switch {
				case also >= 0 && r.Status == result.Fail:
					alsoHit[also] = true
				case also >= 0:
					t.Errorf("expected collateral %s/%s is %s, not fail: %s", r.Check, r.Invariant, r.Status, r.Message)
				case target && r.Status == want:
					hit = true
					t.Logf("%s/%s: %s", r.Check, r.Invariant, r.Message)
				case target:
					t.Errorf("targeted %s/%s is %s, not %s: %s", r.Check, r.Invariant, r.Status, want, r.Message)
				case r.Status == result.Fail || r.Status == result.Error:
					t.Errorf("collateral: %s/%s is %s: %s %+v", r.Check, r.Invariant, r.Status, r.Message, r.Evidence)
				}
			}
			if !hit {
				t.Errorf("no result for %s/%s", m.Check, m.Invariant)
			}
			if len(alsoHit) != len(m.Also) {
				t.Errorf("expected collateral %v; failed: %v", m.Also, alsoHit)
			}
			covered[m.Check]++
		})
	}
	t.Logf("mutations per check: %v", covered)
}

// checkPointers asserts that every evidence pointer names a value of the
// summary, or a missing member of a value that exists (where something
// should have been), so a person can follow it.
func checkPointers(t *testing.T, raw json.RawMessage, results []result.CheckResult) {
	t.Helper()
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return
	}
	for _, r := range results {
		for _, e := range r.Evidence {
			if e.Pointer == "" {
				continue
			}
			parts := strings.Split(strings.TrimPrefix(e.Pointer, "/"), "/")
			if _, ok := resolve(doc, parts); ok {
				continue
			}
			if _, ok := resolve(doc, parts[:len(parts)-1]); !ok {
				t.Errorf("%s/%s: evidence pointer %s names nothing in the summary", r.Check, r.Invariant, e.Pointer)
			}
		}
	}
}

func resolve(v any, parts []string) (any, bool) {
	for _, p := range parts {
		p = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[p]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}
