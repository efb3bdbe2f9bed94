package scenarios

import (
	"errors"
	"testing"
)

// FuzzLoad: no input makes the loader or the linter panic, and every
// problem is positioned in the file it names. The seed corpus is in
// testdata/fuzz/FuzzLoad (the built-in suite, broken fixtures, bad input).
func FuzzLoad(f *testing.F) {
	f.Add([]byte(lintBase))
	f.Add([]byte("version: 1\nid: x\nevents:\n  - &a {role: user, text: hi}\n  - *a\n"))
	f.Add([]byte("version: 1\nid: x\nevents:\n  - filler: {count: 50, seed: 1, topic: network}\n"))
	f.Add([]byte("\xff\xfe"))
	f.Add([]byte("{{{{{{{{{{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := LoadBytes("f.yaml", data)
		if err != nil {
			var el ErrorList
			if !errors.As(err, &el) || len(el) == 0 {
				t.Fatalf("error %v (%T) is not a non-empty ErrorList", err, err)
			}
			for _, e := range el {
				if e.File != "f.yaml" || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Msg == "" {
					t.Fatalf("unpositioned error %#v", e)
				}
			}
			return
		}
		for _, e := range Lint([]*Scenario{s}) {
			if e.File != "f.yaml" || e.Msg == "" {
				t.Fatalf("bad lint error %#v", e)
			}
		}
	})
}
