package importer

import (
	"encoding/json"
	"testing"
)

// FuzzUnquoteJSON: whenever unquoteJSON accepts a literal, encoding/json
// reads the same string from it; and every string encoding/json writes is
// accepted.
func FuzzUnquoteJSON(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\nb\t\"q\"\\ \/"`, `"\u00e9\ud83d\ude80"`, `"\ud800x"`, `"bad \x"`, "\"\xff\"", "\"\xff\x80\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := unquoteJSON(raw)
		if ok {
			var want string
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatalf("unquoteJSON accepted %q that encoding/json refuses: %v", raw, err)
			}
			if got != want {
				t.Fatalf("unquoteJSON(%q) = %q, encoding/json reads %q", raw, got, want)
			}
		}
		enc, _ := json.Marshal(string(raw))
		back, ok := unquoteJSON(enc)
		var want string
		json.Unmarshal(enc, &want)
		if !ok || back != want {
			t.Fatalf("unquoteJSON(%s) = %q, %v; want %q", enc, back, ok, want)
		}
	})
}
