package importer_test

import (
	"testing"

	"github.com/compact-eval/compact-eval/importer"
)

// The fifth public set (testdata/import/precision/public5, issue 38 item
// 2): tau-bench records labelled, and the labels committed, before the
// rules for text failures, structured retries, settled corrections and
// unfinished requests were written and before the importer's output for
// them was looked at; the rules were tuned on the first four sets only, so
// its first measurement is their held-out figure. Per class, as the third
// and fourth sets.
//
//	PRECISION_PRINT=1 go test ./importer -run TestPublicSuggestionsFifthSet -v

// TestPublicSuggestionsFifthSet measures the fifth public set and fails
// when the overall precision or recall drops below the "after" row
// docs/import.md states for it.
func TestPublicSuggestionsFifthSet(t *testing.T) {
	measureClasses(t, "fifth public set", "../testdata/import/precision/public5")
}

// TestPublicSuggestionsFifthSetWholeSession measures the fifth public set
// with every event compacted (--cut 1.0), where its labels, written
// without regard to the cut, place what a summary must keep, and fails
// when either overall figure drops below the row docs/import.md states.
//
//	PRECISION_PRINT=1 go test ./importer -run TestPublicSuggestionsFifthSetWholeSession -v
func TestPublicSuggestionsFifthSetWholeSession(t *testing.T) {
	measureClassesCut(t, "fifth public set, whole session", "../testdata/import/precision/public5", importer.Cut{Fraction: 1})
}
