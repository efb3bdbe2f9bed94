package importer_test

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// The fourth public set (testdata/import/precision/public4, issue 38):
// tau-bench records labelled after every rule of issue 38 was written
// and before the importer's output for them was looked at, so that the
// rules are measured on sessions they were not tuned on. Per class, as
// the third set.
//
//	PRECISION_PRINT=1 go test ./importer -run TestPublicSuggestionsFourthSet -v

// TestPublicSuggestionsFourthSet measures the fourth public set and fails
// when the overall precision or recall drops below the "after" row
// docs/import.md states for it.
func TestPublicSuggestionsFourthSet(t *testing.T) {
	by, all := classScores(t, "../testdata/import/precision/public4", os.Getenv("PRECISION_PRINT") != "")
	classes := make([]string, 0, len(by))
	for c := range by {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	var lines []string
	for _, c := range classes {
		lines = append(lines, fmt.Sprintf("%s: %v", c, *by[c]))
	}
	t.Logf("fourth public set: %v\n%s", all, strings.Join(lines, "\n"))
	doc := documentedFigures(t, "| after, fourth public set |", 2)
	atLeastDocumented(t, doc, []float64{all.precision(), all.recall()}, []string{"precision", "recall"})
}
