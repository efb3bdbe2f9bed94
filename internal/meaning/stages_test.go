package meaning

import (
	"reflect"
	"testing"
)

func TestTokenize(t *testing.T) {
	var got []string
	for _, tk := range tokenize("READ-ONLY on prod-eu-1: config/*.yaml, 18:00 UTC; isn’t it? db.yml.") {
		got = append(got, tk.W)
	}
	want := []string{"read-only", "on", "prod-eu-1", ":", "config/*.yaml", ",", "18:00", "utc", ";", "isn't", "it", "?", "db.yml", "."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokens = %q\nwant     %q", got, want)
	}
	for w, value := range map[string]bool{"prod-eu-1": true, "read-only": false, "config/db.yaml": true, "isn't": false, "50": true} {
		if isValue(w) != value {
			t.Errorf("isValue(%q) = %v", w, !value)
		}
	}
}

func TestClauses(t *testing.T) {
	cases := map[string][]string{
		"Read-only. No apply; no restart: look, report": {"Read-only", "No apply", "no restart", "look, report"},
		"read-only, but writes are fine":                {"read-only,", "but writes are fine"},
		"keep db.yml (the live one) — e.g. the config":  {"keep db.yml (the live one)", "e.g. the config"},
		"run `status: open` first | next":               {"run `status: open` first", "next"},
		"- one\n- two":                                  {"one", "two"},
	}
	for in, want := range cases {
		x := New(in)
		var got []string
		for ci := range x.clauses {
			got = append(got, x.ClauseText(ci))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("clauses(%q) = %q; want %q", in, got, want)
		}
	}
	x := New("Done: the migration; the reindex")
	if x.clauses[1].Heading != 0 || x.clauses[2].Heading != 0 {
		t.Errorf("headings = %d, %d; want 0, 0", x.clauses[1].Heading, x.clauses[2].Heading)
	}
}

func TestShape(t *testing.T) {
	if Shape("prod-eu-2") != Shape("prod-us-2") || Shape("prod-eu-2") == Shape("v1.2.3") {
		t.Errorf("shapes: %q %q %q", Shape("prod-eu-2"), Shape("prod-us-2"), Shape("v1.2.3"))
	}
	if !shapedLike("prod-eu-2", []string{"prod-us-2"}) || shapedLike("10.0.0.1", []string{"v1.2.3"}) {
		t.Error("shapedLike misreads a lookalike host or a version")
	}
}

func TestLanguage(t *testing.T) {
	for in, want := range map[string]string{"the session is read-only": "en", "la sesión es de solo lectura": "es", "prod-eu-1 10.42.7.19": "", "no apply, no restart, no scaling on prod-eu-1": "en", "no apply, no restart: the session is read-only": "en", "no se aplica nada": "es"} {
		if got := Language(in); got != want {
			t.Errorf("Language(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestModifiersAccounted(t *testing.T) {
	src := New("prod-eu-1 is under a change freeze until friday 18:00 utc. never deploy without my explicit go-ahead")
	cases := []struct {
		text string
		want bool // accounted
	}{
		{"frozen until friday", true},
		{"frozen until the end of the sprint", false},
		{"no deploy without the user's explicit go-ahead", true},
		{"no deploy if the owner agrees", false},
		{"mostly frozen", false},
	}
	for _, c := range cases {
		x := New(c.text)
		mods := x.modifiers(0, []Class{Condition, Time, Quantifier}, nil)
		if len(mods) == 0 {
			t.Errorf("%q: no modifier found", c.text)
			continue
		}
		if got := accounted(mods[0], src); got != c.want {
			t.Errorf("%q: accounted(%s) = %v; want %v", c.text, mods[0], got, c.want)
		}
	}
}
