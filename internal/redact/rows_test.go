package redact

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Every row of confusables.tsv: its character is of the script its name
// says (Latin, Cyrillic or Greek), NFKD alone does not fold it to its
// target (the row is needed), its target is an ASCII letter or digit, the
// finder folds it to that target, and a secret written with it is found.
func TestConfusableRows(t *testing.T) {
	rows := tsvRows(confusablesTSV)
	if len(rows) != len(confusables) {
		t.Fatalf("%d rows, %d distinct characters", len(rows), len(confusables))
	}
	for _, row := range rows {
		t.Run(row[0], func(t *testing.T) {
			r, _ := utf8.DecodeRuneInString(row[1])
			target := row[2]
			if len(target) != 1 || !isAlnumByte(target[0]) {
				t.Fatalf("target %q is not an ASCII letter or digit", target)
			}
			script := map[string]*unicode.RangeTable{"LATIN": unicode.Latin, "CYRILLIC": unicode.Cyrillic, "GREEK": unicode.Greek}[strings.Fields(row[3])[0]]
			if script == nil || !unicode.Is(script, r) {
				t.Errorf("%s %q: not of the script its name says (%s)", row[0], row[1], row[3])
			}
			if strings.EqualFold(norm.NFKD.String(row[1]), target) {
				t.Errorf("%s: NFKD folds it already: the row is not needed", row[0])
			}
			if got := string(foldValue(row[1])); got != strings.ToLower(target) {
				t.Errorf("%s folds to %q, want %q", row[0], got, strings.ToLower(target))
			}
			secret := "Qx7mPz4KvR9wAb3C" + target + "dE5fG6hJ"
			written := strings.Replace(secret, target, row[1], 1)
			if r := New([]Secret{{ID: "s", Value: secret}}); !r.Contains("key " + written) {
				t.Errorf("%q written with %s is not found", secret, row[0])
			}
		})
	}
}

// Every row of spelled.tsv spells its character: in a run of four with
// other rows of its class, and the run decoded is what the row says.
func TestSpelledRows(t *testing.T) {
	rows := tsvRows(spelledTSV)
	if len(rows) != len(spelledWords) {
		t.Fatalf("%d rows, %d distinct words", len(rows), len(spelledWords))
	}
	for _, row := range rows {
		t.Run(row[2]+"/"+row[0], func(t *testing.T) {
			word, want := row[0], row[1]
			text := "alfa bravo " + word + " charlie delta"
			if row[2] == "morse" {
				text = ".- -... " + word + " -.-. -.."
			}
			if want == "~" {
				want = " "
			}
			if got := spelledDecode(nil, &stream{b: text}); got != "ab"+want+"cd" {
				t.Errorf("%q decodes to %q, want %q", text, got, "ab"+want+"cd")
			}
		})
	}
}
