package guard_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/guard"
)

// docsGuard is docs/guard.md.
func docsGuard(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../docs/guard.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Every row of anchors.tsv is a row of the docs' table, as the guard
// reads it.
func TestAnchorsDocumented(t *testing.T) {
	doc := docsGuard(t)
	for _, r := range guard.Anchors {
		roles := "any"
		if len(r.Roles) > 0 {
			roles = strings.Join(r.Roles, ", ")
		}
		after := "—"
		if r.After != "" {
			after = "`" + r.After + "`"
		}
		row := fmt.Sprintf("| `%s` | `%s` | `%s` | %s | %s | %s |", r.Type, r.Field, r.By, r.How, roles, after)
		if !strings.Contains(doc, row) {
			t.Errorf("docs/guard.md lacks the row %s", row)
		}
	}
}

// Every class of confidence.tsv is a row of the docs' table, with the
// confidence the guard computes from its counts.
func TestClassesDocumented(t *testing.T) {
	doc := docsGuard(t)
	for _, r := range guard.Classes {
		c := fmt.Sprintf("%.2f", r.Confidence())
		if r.Confidence() == 0 {
			c = "0"
		}
		row := fmt.Sprintf("| `%s` | `%s` | %d / %d | %s |", r.Class, r.Type, r.Kept, r.Suggested, c)
		if !strings.Contains(doc, row) {
			t.Errorf("docs/guard.md lacks the row %s", row)
		}
	}
}
