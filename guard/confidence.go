package guard

import (
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/result"
)

// ClassRow is one class of suggestion and how often a careful author
// kept it (confidence.tsv).
type ClassRow struct {
	// Class is the id prefix the import gives the class's suggestions
	// ("constraint" in constraint-2); Type its invariant type.
	Class, Type string
	// Kept of Suggested suggestions of the class were kept by the
	// labels of the measured sessions.
	Kept, Suggested int
}

// Confidence is the lower end of the 95% Wilson interval of Kept /
// Suggested, rounded down to two decimals; 0 when nothing was measured.
func (r ClassRow) Confidence() float64 {
	if r.Suggested == 0 {
		return 0
	}
	_, low, _ := result.Wilson(r.Kept, r.Suggested)
	return math.Floor(low*100) / 100
}

//go:embed confidence.tsv
var confidenceTSV string

// Classes lists the classes of suggestion with their measurements, in
// the order of confidence.tsv.
var Classes = mustClasses(confidenceTSV)

func mustClasses(tsv string) []ClassRow {
	rows, err := parseClasses(tsv)
	if err != nil {
		panic("guard: confidence.tsv: " + err.Error())
	}
	return rows
}

func parseClasses(tsv string) ([]ClassRow, error) {
	var rows []ClassRow
	for i, line := range strings.Split(tsv, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: want 4 tab-separated fields, got %d", i+1, len(f))
		}
		kept, err1 := strconv.Atoi(f[2])
		n, err2 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || kept < 0 || kept > n {
			return nil, fmt.Errorf("line %d: kept and suggested must be counts, kept ≤ suggested", i+1)
		}
		rows = append(rows, ClassRow{Class: f[0], Type: f[1], Kept: kept, Suggested: n})
	}
	return rows, nil
}

// ClassOf is the class of a suggestion's id: the id without its last
// "-N" ("constraint" of constraint-12), or the id itself.
func ClassOf(id string) string {
	if i := strings.LastIndexByte(id, '-'); i > 0 {
		if _, err := strconv.Atoi(id[i+1:]); err == nil {
			return id[:i]
		}
	}
	return id
}

// Confidence is the confidence of a class of suggestion (ClassRow), 0
// for a class confidence.tsv does not measure.
func Confidence(class string) float64 {
	for _, r := range Classes {
		if r.Class == class {
			return r.Confidence()
		}
	}
	return 0
}
