package importer

import (
	"strings"
	"testing"
)

// The byte pre-filter of sweStatus never hides a refusal the regexp finds:
// every spelling of each refusal, in any case, and a text around it.
func TestSWEStatusPrefilter(t *testing.T) {
	refusals := []string{
		"Your proposed edit has introduced new syntax error(s). Please read this error message carefully",
		"Your changes have NOT been applied. Please fix your edit command and try again.",
		"ERROR: your edit has not been applied, the file is unchanged",
		"The edit has not been applied.",
		"No replacement was performed, old_str `x = 1` did not appear verbatim in /repo/a.py.",
	}
	for _, r := range refusals {
		for _, text := range []string{r, strings.ToUpper(r), strings.ToLower(r), "[File: /repo/a.py (40 lines)]\n" + r + "\n(Open file: /repo/a.py)"} {
			if got := sweStatus(text); got != "error" {
				t.Errorf("sweStatus(%q) = %s, want error", text, got)
			}
		}
	}
	for _, ok := range []string{"File updated. Please review the changes.", "", "applied 3 migrations", "Syntax OK", "replacement done"} {
		if got := sweStatus(ok); got != "ok" {
			t.Errorf("sweStatus(%q) = %s, want ok", ok, got)
		}
	}
}

// FuzzSWEStatusPrefilter: the pre-filter passes every text the regexp
// matches.
func FuzzSWEStatusPrefilter(f *testing.F) {
	for _, s := range []string{"Your changes have NOT been applied", "no REPLACEMENT was performed", "new SYNTAX ERROR", "edit was not applied", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if rejectedEdit.MatchString(s) && !mayRefuse(s) {
			t.Errorf("the regexp finds a refusal in %q that the pre-filter misses", s)
		}
	})
}
