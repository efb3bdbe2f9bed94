package runner

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBuiltinSuite: running the lazily loaded embedded suite gives the
// result file of running the suite loaded up front.
func TestBuiltinSuite(t *testing.T) {
	suite, err := BuiltinSuite()
	if err != nil {
		t.Fatal(err)
	}
	list := builtinSuite(t)
	if diff := cmp.Diff(Slice(list).Refs(), suite.Refs()); diff != "" {
		t.Fatalf("refs (-Builtin +BuiltinSuite):\n%s", diff)
	}
	var got []string
	for _, s := range []Suite{Slice(list), suite} {
		opts := baseOptions(t, filepath.Join(t.TempDir(), "run"))
		opts.Jobs = 4
		res, err := RunSuite(context.Background(), s, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Ran != len(list)*4 {
			t.Errorf("ran %d units, want %d", res.Ran, len(list)*4)
		}
		got = append(got, normalised(t, res.ResultPath))
	}
	if diff := cmp.Diff(got[0], got[1]); diff != "" {
		t.Errorf("results differ (-Builtin +BuiltinSuite):\n%s", diff)
	}
}

// TestBuiltinSuiteLoadChecks: a ref that does not match the embedded file
// gives a load error, not a wrong scenario.
func TestBuiltinSuiteLoadChecks(t *testing.T) {
	suite, err := BuiltinSuite()
	if err != nil {
		t.Fatal(err)
	}
	s := suite.(embeddedSuite)
	if _, err := s.Load(0); err != nil {
		t.Fatalf("Load(0): %v", err)
	}
	bad := embeddedSuite{s[0], s[1]}
	bad[0].Digest = "sha256:00"
	bad[1].File = "builtin/nope.yaml"
	for i := range bad {
		if sc, err := bad.Load(i); err == nil {
			t.Errorf("Load(%d) of %+v = %s, want an error", i, bad[i], sc.ID)
		}
	}
}
