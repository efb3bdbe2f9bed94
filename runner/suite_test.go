package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const tinyScenario = `version: 1
id: ID
compaction: {at: [2]}
events:
  - {role: user, text: "Do not change prod."}
  - {role: assistant, text: "Understood."}
  - {role: user, text: "Go on."}
`

func TestLoadSuite(t *testing.T) {
	dir := t.TempDir()
	write := func(name, id string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(strings.Replace(tinyScenario, "ID", id, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("ok/a.yaml", "alpha")
	b := write("ok/sub/b.yml", "beta")
	write("ok/notes.txt", "ignored")
	dup := write("dup/a.yaml", "alpha")
	os.MkdirAll(filepath.Join(dir, "empty"), 0o755)

	s, err := LoadSuite([]string{filepath.Join(dir, "ok")})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, r := range s.Refs() {
		ids = append(ids, r.ID)
		sc, err := s.Load(i)
		if err != nil || sc.ID != r.ID || sc.Digest != r.Digest {
			t.Errorf("Load(%d) = %v, %v; want %s", i, sc, err, r.ID)
		}
	}
	if diff := cmp.Diff([]string{"alpha", "beta"}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	_ = b

	tests := []struct {
		name  string
		paths []string
		want  string
	}{
		{"duplicate id", []string{a, dup}, `id "alpha" is already used by ` + a},
		{"empty folder", []string{filepath.Join(dir, "empty")}, "no *.yaml or *.yml scenario files in this folder"},
		{"missing file", []string{filepath.Join(dir, "nope.yaml")}, "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadSuite(tc.paths)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}

	// Kept scenarios are handed out once; then the file is read again, and
	// a file that changed after the check fails to load (a unit error).
	// A comment changes no meaning: it is no change.
	os.WriteFile(a, []byte(strings.Replace(tinyScenario, "ID", "alpha", 1)+"# edited\n"), 0o644)
	if _, err := s.Load(0); err != nil {
		t.Errorf("a comment added: err = %v, want the same scenario", err)
	}
	os.WriteFile(a, []byte(strings.Replace(strings.Replace(tinyScenario, "ID", "alpha", 1), "Go on.", "Go on now.", 1)), 0o644)
	if _, err := s.Load(0); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("edited file: err = %v, want it to say the file changed", err)
	}
}
