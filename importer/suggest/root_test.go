package suggest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scanAt feeds events to a scanner that knows the session's working
// directory.
func scanAt(root string, events ...Event) *Scanner {
	s := New()
	s.SetRoot(root)
	for i, e := range events {
		s.Add(i, e)
	}
	return s
}

// groupsSpelled returns the artifact groups and the sibling sets as the
// suggestions write them.
func groupsSpelled(s *Scanner) [][]string {
	var out [][]string
	for _, g := range s.ArtifactGroups() {
		var sp []string
		for _, p := range g {
			sp = append(sp, s.Spelled(p))
		}
		out = append(out, sp)
	}
	for _, sib := range s.Siblings() {
		var sp []string
		for _, p := range sib.Paths {
			sp = append(sp, s.Spelled(p))
		}
		out = append(out, sp)
	}
	return out
}

func TestPathsUnderTheRootAreOneFile(t *testing.T) {
	tests := []struct {
		name   string
		root   string
		events []Event
		want   [][]string
	}{
		{
			// The case: one file written absolute and relative is
			// no pair of same-named files.
			name: "absolute and relative forms of one edited file",
			root: "/Users/me/spotter-fum",
			events: []Event{
				callRec("Read", `{"file_path": "/Users/me/spotter-fum/lib/x.ex"}`),
				callRec("Edit", `{"file_path": "lib/x.ex", "old_string": "a", "new_string": "b"}`),
				callRec("Bash", `{"command": "mix test test/x_test.exs"}`),
			},
		},
		{
			name: "a ./ prefix names the same file",
			root: "/repo",
			events: []Event{
				callRec("Edit", `{"file_path": "./src/app.py", "old_string": "a", "new_string": "b"}`),
				callRec("Read", `{"file_path": "/repo/src/app.py"}`),
			},
		},
		{
			// What could fool it: a sibling folder whose name starts
			// with the root's is not under it.
			name: "a folder beside the root with the root's name as a prefix",
			root: "/work/repo",
			events: []Event{
				callRec("Edit", `{"file_path": "/work/repo/lib/x.ex", "old_string": "a", "new_string": "b"}`),
				callRec("Read", `{"file_path": "/work/repo2/lib/x.ex"}`),
			},
			want: [][]string{{"/work/repo/lib/x.ex", "/work/repo2/lib/x.ex"}},
		},
		{
			// The real rule it must not miss: two same-named files under
			// the root stay a pair, named as the session wrote them.
			name: "same-named files in two folders of the repository",
			root: "/testbed",
			events: []Event{
				callRec("Read", `{"file_path": "/testbed/django/core/validators.py"}`),
				callRec("Edit", `{"file_path": "/testbed/django/contrib/auth/validators.py", "old_string": "a", "new_string": "b"}`),
			},
			want: [][]string{{"/testbed/django/contrib/auth/validators.py", "/testbed/django/core/validators.py"}},
		},
		{
			name: "near twins under the root, one written relative",
			root: "/home/dev/shop",
			events: []Event{
				callRec("Read", `{"file_path": "/home/dev/shop/tests/payment_test.py"}`),
				callRec("Read", `{"file_path": "/home/dev/shop/tests/payments_test.py"}`),
				callRec("Bash", `{"command": "pytest tests/payment_test.py"}`),
			},
			want: [][]string{{"tests/payment_test.py", "/home/dev/shop/tests/payments_test.py"}},
		},
		{
			name: "a root that is not absolute is ignored",
			root: "repo",
			events: []Event{
				callRec("Read", `{"file_path": "repo/lib/x.ex"}`),
				callRec("Edit", `{"file_path": "lib/x.ex", "old_string": "a", "new_string": "b"}`),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := groupsSpelled(scanAt(tc.root, tc.events...))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("groups (-want +got):\n%s", diff)
			}
		})
	}
}

func TestListedPathUnderTheRootIsTheEditedFile(t *testing.T) {
	// find_file lists the file absolute; the edit names it relative: the
	// listing's entry is that file, and the other two are its siblings.
	s := scanAt("/pydicom__pydicom",
		callRec("find_file", `{"input": "find_file numpy_handler.py"}`),
		resultRec("Found 3 matches:\n/pydicom__pydicom/pydicom/overlays/numpy_handler.py\n/pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py\n/pydicom__pydicom/pydicom/waveforms/numpy_handler.py\n"),
		callRec("edit", `{"input": "open pydicom/pixel_data_handlers/numpy_handler.py", "content": "x"}`),
	)
	want := [][]string{{"pydicom/pixel_data_handlers/numpy_handler.py", "/pydicom__pydicom/pydicom/overlays/numpy_handler.py", "/pydicom__pydicom/pydicom/waveforms/numpy_handler.py"}}
	if diff := cmp.Diff(want, groupsSpelled(s)); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
}

// patternCase is a turn or turns and the constraint patterns they give.
type patternCase struct {
	name   string
	events []Event
	want   []string
}

// runPatternCases checks each case's constraint patterns.
func runPatternCases(t *testing.T, tests []patternCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := constraintPatterns(scan(tc.events...))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("patterns (-want +got):\n%s", diff)
			}
		})
	}
}
