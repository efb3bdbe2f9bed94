package textmatch

import "testing"

func TestFold(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"ascii unchanged", "read-only", "read-only"},
		{"whitespace runs", "  read \t\n only  ", "read only"},
		{"accents", "sesión sólo lectura", "sesion solo lectura"},
		{"ñ keeps its letter", "año", "ano"},
		{"non-breaking space", "80\u00a0%", "80 %"},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Fold(tc.in); got != tc.want {
				t.Errorf("Fold(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestFind(t *testing.T) {
	for _, tc := range []struct {
		name, pattern, text string
		want                string
		ok                  bool
	}{
		{"case-insensitive", `read[- ]?only`, "This run is READ-ONLY.", "READ-ONLY", true},
		{"accented pattern, plain text", `sesión`, "la sesion de ayer", "sesion", true},
		{"plain pattern, accented text", `solo lectura`, "modo sólo lectura", "solo lectura", true},
		{"whitespace folded in text", `do not change`, "do   not\n change", "do not change", true},
		{"no match", `read[- ]?only`, "read and write", "", false},
		{"invalid pattern never matches", `read(`, "read(", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Find(tc.pattern, Fold(tc.text))
			if got != tc.want || ok != tc.ok {
				t.Errorf("Find(%q, Fold(%q)) = %q, %v; want %q, %v", tc.pattern, tc.text, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestCompileRefusesBadPatterns(t *testing.T) {
	if _, err := Compile(`a(b`); err == nil {
		t.Fatal("Compile(`a(b`) succeeded, want an error")
	}
	if _, err := Compile(`(?=x)`); err == nil {
		t.Fatal("Compile of a look-ahead (not RE2) succeeded, want an error")
	}
}

func TestFindAny(t *testing.T) {
	p, m, ok := FindAny([]string{`nope`, `lect(ura)?`}, Fold("Sólo lectura"))
	if !ok || p != `lect(ura)?` || m != "lectura" {
		t.Errorf("FindAny = %q, %q, %v; want the second pattern matching \"lectura\"", p, m, ok)
	}
	if _, _, ok := FindAny(nil, "x"); ok {
		t.Error("FindAny with no patterns matched")
	}
}
