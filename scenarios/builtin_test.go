package scenarios

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBuiltinRefs: the refs read without loading are those of the loaded
// suite, and LoadBuiltin gives each scenario as Builtin does.
func TestBuiltinRefs(t *testing.T) {
	list, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	refs, err := BuiltinRefs()
	if err != nil {
		t.Fatal(err)
	}
	var want []BuiltinRef
	for _, s := range list {
		want = append(want, BuiltinRef{ID: s.ID, Digest: s.Digest, FileDigest: s.FileDigest, File: s.File})
	}
	if diff := cmp.Diff(want, refs); diff != "" {
		t.Fatalf("refs (-loaded +read):\n%s", diff)
	}
	for i, ref := range refs {
		s, err := LoadBuiltin(ref.File)
		if err != nil {
			t.Fatalf("LoadBuiltin(%s): %v", ref.File, err)
		}
		if s.Digest != ref.Digest || s.File != ref.File {
			t.Errorf("LoadBuiltin(%s): digest %s file %s, want %s %s", ref.File, s.Digest, s.File, ref.Digest, ref.File)
		}
		got, _ := json.Marshal(s)
		wantJSON, _ := json.Marshal(list[i])
		if string(got) != string(wantJSON) {
			t.Errorf("LoadBuiltin(%s) differs from Builtin's scenario", ref.File)
		}
	}
}

func TestLoadBuiltinRefuses(t *testing.T) {
	for _, file := range []string{"", "arrival-hold-during-compaction.yaml", "builtin/", "builtin/../builtin.go", "builtin/sub/x.yaml", "builtin/nope.yaml"} {
		t.Run(file, func(t *testing.T) {
			if s, err := LoadBuiltin(file); err == nil {
				t.Errorf("LoadBuiltin(%q) = %v, want an error", file, s.ID)
			}
		})
	}
}

func TestTopLevelID(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"plain", "version: 1\nid: a-b\n", "a-b"},
		{"double quoted", "id: \"a-b\"\n", "a-b"},
		{"single quoted", "id: 'a-b'\r\n", "a-b"},
		{"first wins", "id: one\nid: two\n", "one"},
		{"indented is not top level", "events:\n  id: x\n", ""},
		{"comment", "id: a # note\n", ""},
		{"escape", "id: \"a\\tb\"\n", ""},
		{"flow", "id: [a]\n", ""},
		{"empty", "id:\n", ""},
		{"none", "version: 1\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := topLevelID([]byte(tc.data)); got != tc.want {
				t.Errorf("topLevelID(%q) = %q, want %q", tc.data, got, tc.want)
			}
		})
	}
}

// TestBuiltinRecall: the scenarios that measure the recall arm load and
// lint clean, their ids are not the suite's, and LoadBuiltin reads them by
// their file.
func TestBuiltinRecall(t *testing.T) {
	list, err := BuiltinRecall()
	if err != nil || len(list) < 2 {
		t.Fatalf("%d recall scenarios, %v", len(list), err)
	}
	main, _ := BuiltinRefs()
	ids := map[string]bool{}
	for _, r := range main {
		ids[r.ID] = true
	}
	for _, s := range list {
		if ids[s.ID] {
			t.Errorf("%s: id also in the suite", s.ID)
		}
		if !strings.HasPrefix(s.File, BuiltinPrefix+BuiltinRecallDir) {
			t.Errorf("%s: file %q", s.ID, s.File)
		}
	}
	for _, bad := range []string{"builtin/recall/../x.yaml", "builtin/recall/sub/x.yaml", "builtin/other/x.yaml"} {
		if _, err := LoadBuiltin(bad); err == nil {
			t.Errorf("LoadBuiltin(%q) accepted", bad)
		}
	}
}
