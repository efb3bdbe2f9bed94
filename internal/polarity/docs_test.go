package polarity

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the cue table in docs/polarity.md")

const docsPath = "../../docs/polarity.md"

// renderTable renders the cue table as docs/polarity.md shows it.
func renderTable() string {
	var b strings.Builder
	b.WriteString("| lang | kind | scope | cue | example |\n|---|---|---|---|---|\n")
	for _, c := range Cues() {
		ex := strings.ReplaceAll(c.Example, "{X}", "**X**")
		phrase := strings.ReplaceAll(c.Phrase, "|", "\\|")
		if c.Then != "" {
			phrase += " … " + c.Then
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", c.Lang, c.Kind, c.Scope, phrase, ex)
	}
	return b.String()
}

// The table in docs/polarity.md is the table the code reads.
func TestDocsTable(t *testing.T) {
	const begin, end = "<!-- cues:begin (generated from internal/polarity/cues.tsv; go test ./internal/polarity -update) -->\n", "<!-- cues:end -->"
	data, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no generated cue table between %q and %q", docsPath, begin, end)
	}
	want := renderTable()
	got := doc[i+len(begin) : j]
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(docsPath, []byte(doc[:i+len(begin)]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the cue table of %s is out of date with cues.tsv; rerun with -update", docsPath)
}
