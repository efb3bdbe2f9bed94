package layers_test

import (
	"errors"
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/compact-eval/compact-eval/"

// testkit is the floor of internal/testkit/*: above every other.
const testkit = 100

// floors places every package of the module (its path below the module,
// or a prefix ending in "/" for a tree). The longest matching entry wins.
var floors = map[string]int{
	"result":    0,
	"summary":   0,
	"docs":      0,
	"internal/": 0,

	"scenarios":            1,
	"scenarios/transcript": 2,
	"importer/suggest":     2,
	"providers":            3,

	"summarizers": 4,
	"agents":      4,
	"judges":      4,
	"checks":      4,
	"importer":    7,
	"reports":     4,
	// A package's own internal tree sits on the ground: it serves the
	// package above it and imports nothing of compact-eval.
	"reports/internal/": 0,
	"runner/internal/":  0,

	"runner":   5,
	"viewer":   5,
	"selftest": 6,

	// The guard reads logs through the importer and checks them; the
	// audit runs the guard over a folder of logs.
	"guard": 8,
	"audit": 9,

	"cmd/compact-eval/internal/console": 7,
	"cmd/compact-eval/internal/":        8,
	"cmd/compact-eval":                  10,

	"internal/testkit/": testkit,
}

func floorOf(pkg string) (int, bool) {
	best, floor := -1, 0
	for k, f := range floors {
		match := pkg == k || strings.HasSuffix(k, "/") && strings.HasPrefix(pkg, k)
		if match && len(k) > best {
			best, floor = len(k), f
		}
	}
	return floor, best >= 0
}

// TestLayering fails on an import that points up or sideways (outside the
// ground floor), on a package the table does not place, and on a
// non-test package that imports a test kit.
//
// It reads the package graph with go/build from the module's own files,
// not with `go list`: the go command loads the whole module graph, which
// needs every dependency in the module cache, and a test must pass on a
// fresh machine whose cache holds only what the build needed (issue 35).
func TestLayering(t *testing.T) {
	lines, err := listPackages(moduleRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	bad, n, arrows := violations(lines)
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
	if n < 30 || arrows < 50 {
		t.Fatalf("found %d packages and %d imports: the listing is wrong", n, arrows)
	}
}

// moduleRoot is the folder of the go.mod above this package's folder.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above", dir)
		}
		dir = parent
	}
}

// listPackages returns a line per package of the module under root, as
// `go list -f '{{.ImportPath}} {{join .Imports " "}}'` prints it: the
// non-test imports of the files the current platform builds. Folders the
// go command ignores (testdata, names starting with . or _) and nested
// modules are skipped.
func listPackages(root string) ([]string, error) {
	var lines []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != root {
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			var none *build.NoGoError
			if errors.As(err, &none) {
				return nil
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		importPath := strings.TrimSuffix(module, "/")
		if rel != "." {
			importPath = module + filepath.ToSlash(rel)
		}
		lines = append(lines, strings.Join(append([]string{importPath}, pkg.Imports...), " "))
		return nil
	})
	return lines, err
}

// violations reads `go list` lines ("pkg import import…", full paths) and
// returns every arrow the table forbids, with the number of packages and
// of arrows within the module read.
func violations(lines []string) (bad []string, n, arrows int) {
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		n++
		from, ok := floorOf(pkg)
		if !ok {
			bad = append(bad, pkg+": not in the table of floors (internal/layers)")
			continue
		}
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			arrows++
			to, ok := floorOf(imp)
			switch {
			case !ok:
				// reported on its own line
			case to == testkit && from != testkit:
				bad = append(bad, pkg+" imports the test kit "+imp+": only tests may")
			case from == testkit && strings.HasPrefix(imp, "cmd/"):
				bad = append(bad, pkg+" (a test kit) imports the command "+imp)
			case from == testkit:
			case to > from:
				bad = append(bad, pkg+" (floor "+itoa(from)+") imports "+imp+" (floor "+itoa(to)+"): an arrow that points up")
			case to == from && from != 0:
				bad = append(bad, pkg+" imports "+imp+" on its own floor "+itoa(from)+": move one of them, or give them floors")
			}
		}
	}
	return bad, n, arrows
}

// TestViolations feeds the check the arrows it must refuse, and the ones it
// must let through.
func TestViolations(t *testing.T) {
	m := func(ps ...string) string {
		for i := range ps {
			if !strings.Contains(ps[i], ".") {
				ps[i] = module + ps[i]
			}
		}
		return strings.Join(ps, " ")
	}
	refused := map[string]string{
		"up":                   m("internal/meaning", "scenarios"),
		"ground imports model": m("result", "summary", "checks"),
		"sideways":             m("checks", "summarizers"),
		"runtime imports kit":  m("runner", "internal/testkit/fake"),
		"kit imports command":  m("internal/testkit/fake", "cmd/compact-eval"),
		"unplaced":             m("newpkg", "result"),
	}
	for name, line := range refused {
		if bad, _, _ := violations([]string{line}); len(bad) == 0 {
			t.Errorf("%s: %q passed", name, line)
		}
	}
	allowed := []string{
		m("checks", "result", "summary", "scenarios", "scenarios/transcript", "internal/meaning", "fmt", "github.com/google/go-cmp/cmp"),
		m("internal/llm", "internal/redact", "internal/clip"),
		m("internal/testkit/loadgen", "summarizers", "internal/testkit/llmtest"),
		m("cmd/compact-eval", "runner", "cmd/compact-eval/internal/config"),
	}
	if bad, _, _ := violations(allowed); len(bad) > 0 {
		t.Errorf("allowed arrows refused: %q", bad)
	}
}

// TestFloorOf pins the table's lookup: the longest entry wins.
func TestFloorOf(t *testing.T) {
	for pkg, want := range map[string]int{
		"result":                       0,
		"internal/meaning":             0,
		"internal/testkit/simserver":   testkit,
		"scenarios/transcript":         2,
		"reports/internal/junit":       0,
		"cmd/compact-eval/internal/cf": 8,
		"cmd/compact-eval":             10,
		"guard":                        8,
		"audit":                        9,
	} {
		if got, ok := floorOf(pkg); !ok || got != want {
			t.Errorf("floorOf(%q) = %d, %v; want %d", pkg, got, ok, want)
		}
	}
	if _, ok := floorOf("newpkg"); ok {
		t.Error("floorOf(newpkg) placed a package the table does not hold")
	}
}

func itoa(n int) string {
	if n == testkit {
		return "testkit"
	}
	return strconv.Itoa(n)
}
