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

// renderClasses renders the class table as docs/polarity.md shows it.
func renderClasses() string {
	var b strings.Builder
	b.WriteString("| lang | class | sense | words | example |\n|---|---|---|---|---|\n")
	for _, e := range Entries() {
		if e.Class == Antonym {
			continue
		}
		ex := strings.NewReplacer("{C}", "…", "<", "**", ">", "**").Replace(e.Example)
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", e.Lang, e.Class, e.Sense, strings.ReplaceAll(e.Phrase, "|", "\\|"), ex)
	}
	return b.String()
}

// renderPairs renders the antonym table as docs/polarity.md shows it.
func renderPairs() string {
	var b strings.Builder
	b.WriteString("| concept | lang | state | opposite | forbidden actions |\n|---|---|---|---|---|\n")
	tab := classesOf()
	esc := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
	for _, p := range Pairs() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", p.Concept, p.Lang, esc(tab.entries[p.States].Phrase), esc(tab.entries[p.Opposites].Phrase), esc(tab.entries[p.Action].Phrase))
	}
	return b.String()
}

// renderConcepts renders the action concept table as docs/polarity.md
// shows it.
func renderConcepts() string {
	var b strings.Builder
	b.WriteString("| concept | lang | words | forbid | permit |\n|---|---|---|---|---|\n")
	for _, r := range ActionConcepts() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.Concept, r.Lang, strings.Join(r.Words, ", "), strings.ReplaceAll(r.Forbid, "{C}", "…"), strings.ReplaceAll(r.Permit, "{C}", "…"))
	}
	return b.String()
}

// The tables in docs/polarity.md are the tables the code reads.
func TestDocsTable(t *testing.T) {
	data, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	changed := false
	for _, g := range []struct{ name, file, begin, end, want string }{
		{"cue", "cues.tsv", "<!-- cues:begin (generated from internal/polarity/cues.tsv; go test ./internal/polarity -update) -->\n", "<!-- cues:end -->", renderTable()},
		{"class", "classes.tsv", "<!-- classes:begin (generated from internal/polarity/classes.tsv; go test ./internal/polarity -update) -->\n", "<!-- classes:end -->", renderClasses()},
		{"concept", "concepts.tsv", "<!-- concepts:begin (generated from internal/polarity/concepts.tsv; go test ./internal/polarity -update) -->\n", "<!-- concepts:end -->", renderConcepts()},
		{"antonym", "antonyms.tsv", "<!-- antonyms:begin (generated from internal/polarity/antonyms.tsv; go test ./internal/polarity -update) -->\n", "<!-- antonyms:end -->", renderPairs()},
	} {
		i, j := strings.Index(doc, g.begin), strings.Index(doc, g.end)
		if i < 0 || j < i {
			t.Errorf("%s has no generated %s table between %q and %q", docsPath, g.name, g.begin, g.end)
			continue
		}
		if doc[i+len(g.begin):j] == g.want {
			continue
		}
		if !*update {
			t.Errorf("the %s table of %s is out of date with %s; rerun with -update", g.name, docsPath, g.file)
			continue
		}
		doc, changed = doc[:i+len(g.begin)]+g.want+doc[j:], true
	}
	if changed {
		if err := os.WriteFile(docsPath, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
