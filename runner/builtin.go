package runner

import (
	"fmt"

	"github.com/compact-eval/compact-eval/scenarios"
)

// BuiltinSuite is the suite embedded in the binary (scenarios.BuiltinRefs),
// each scenario loaded and linted when its first unit starts
// (scenarios.LoadBuiltin), so that a run's first request waits for one
// scenario rather than for all of them. It differs from
// Slice(scenarios.Builtin()) only in when the files are loaded: the
// embedded files are checked by the tests, and a scenario that fails to
// load all the same gives units with status error.
func BuiltinSuite() (Suite, error) {
	refs, err := scenarios.BuiltinRefs()
	if err != nil {
		return nil, err
	}
	return embedded(refs), nil
}

// BuiltinRecallSuite is BuiltinSuite with the scenarios that measure the
// recall arm (scenarios.BuiltinRecallDir) after it: the suite of `run
// --recall` with no paths.
func BuiltinRecallSuite() (Suite, error) {
	refs, err := scenarios.BuiltinRefs()
	if err != nil {
		return nil, err
	}
	more, err := scenarios.BuiltinRecallRefs()
	if err != nil {
		return nil, err
	}
	return embedded(append(refs, more...)), nil
}

func embedded(refs []scenarios.BuiltinRef) Suite {
	s := embeddedSuite(make([]Ref, len(refs)))
	for i, r := range refs {
		s[i] = Ref{ID: r.ID, Digest: r.Digest, FileDigest: r.FileDigest, File: r.File}
	}
	return s
}

type embeddedSuite []Ref

// Refs lists the embedded scenarios in file name order.
func (s embeddedSuite) Refs() []Ref { return s }

// Load loads the i-th embedded scenario.
func (s embeddedSuite) Load(i int) (*scenarios.Scenario, error) {
	sc, err := scenarios.LoadBuiltin(s[i].File)
	if err != nil {
		return nil, err
	}
	if sc.Digest != s[i].Digest {
		return nil, fmt.Errorf("%s: digest %s, want %s", s[i].File, sc.Digest, s[i].Digest)
	}
	return sc, nil
}
