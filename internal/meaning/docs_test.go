package meaning

import (
	"os"
	"strings"
	"testing"
)

// docs/reader.md names every class of words.tsv and every part of
// concepts.tsv, as the reader reads them: a class added to the table is
// documented in the same change.
func TestReaderDocNamesEveryClass(t *testing.T) {
	data, err := os.ReadFile("../../docs/reader.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	seen := map[string]bool{}
	for _, e := range Entries() {
		seen["`"+string(e.Class)+"`"] = true
	}
	for _, r := range Concepts() {
		seen["`"+r.Part+"`"] = true
	}
	for name := range seen {
		if !strings.Contains(doc, name) {
			t.Errorf("docs/reader.md does not name %s", name)
		}
	}
}
