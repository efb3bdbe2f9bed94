package runner

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/compact-eval/compact-eval/scenarios"
)

// Ref names one scenario of a Suite without holding it.
type Ref struct {
	ID                 string
	Digest, FileDigest string
	File               string
}

// Suite is the scenarios of a run. The runner asks for each scenario when
// its first unit starts and drops it when its last unit is done, so that a
// suite loaded from files never has to be in memory all at once.
type Suite interface {
	// Refs lists the scenarios.
	Refs() []Ref
	// Load returns scenario i of Refs. It may be called more than once for
	// the same i and must be safe for concurrent use.
	Load(i int) (*scenarios.Scenario, error)
}

// Slice is a Suite of scenarios already in memory.
func Slice(list []*scenarios.Scenario) Suite { return sliceSuite(list) }

type sliceSuite []*scenarios.Scenario

// Refs lists the scenarios in slice order.
func (s sliceSuite) Refs() []Ref {
	refs := make([]Ref, len(s))
	for i, sc := range s {
		refs[i] = Ref{ID: sc.ID, Digest: sc.Digest, FileDigest: sc.FileDigest, File: sc.File}
	}
	return refs
}

// Load returns the i-th scenario of the slice.
func (s sliceSuite) Load(i int) (*scenarios.Scenario, error) { return s[i], nil }

// KeepBytes bounds the scenario files LoadSuite keeps loaded from its
// check for the run (by file size): a small suite is parsed once, a large
// one is parsed again file by file as its units run, so that memory stays
// flat.
const KeepBytes = 4 << 20

// fileSuite loads scenario files again when their units run, except those
// kept from the check.
type fileSuite struct {
	refs []Ref
	mu   sync.Mutex
	kept map[int]*scenarios.Scenario // handed out once, then dropped
}

// Refs lists the checked scenario files in path order.
func (s *fileSuite) Refs() []Ref { return s.refs }

// Load hands out a scenario kept from the check once, else reads its file
// again and refuses it if it changed since the check.
func (s *fileSuite) Load(i int) (*scenarios.Scenario, error) {
	s.mu.Lock()
	sc := s.kept[i]
	delete(s.kept, i)
	s.mu.Unlock()
	if sc != nil {
		return sc, nil
	}
	sc, err := scenarios.LoadFile(s.refs[i].File)
	if err != nil {
		return nil, err
	}
	if sc.Digest != s.refs[i].Digest {
		return nil, fmt.Errorf("%s changed while the run was starting", s.refs[i].File)
	}
	return sc, nil
}

// LoadSuite checks every scenario file named by paths (files, or folders
// searched recursively for *.yaml and *.yml, in sorted order), one file at a
// time: loading (scenarios.LoadFile), linting (scenarios.LintScenario) and
// ids unique across the suite. It returns a Suite that loads each file again
// when its units run (except the first KeepBytes of files, kept from the
// check), so that memory holds only the scenarios in flight whatever the
// size of the suite. Problems come as a scenarios.ErrorList
// holding every problem found.
func LoadSuite(paths []string) (Suite, error) {
	files, problems := scenarios.Files(paths)
	suite := &fileSuite{kept: map[int]*scenarios.Scenario{}}
	kept := int64(0)
	first := map[string]string{} // id → file
	for _, f := range files {
		sc, err := scenarios.LoadFile(f)
		if err != nil {
			var el scenarios.ErrorList
			if !errors.As(err, &el) {
				problems = append(problems, &scenarios.Error{File: f, Msg: err.Error()})
			}
			problems = append(problems, el...)
			continue
		}
		problems = append(problems, scenarios.LintScenario(sc)...)
		if prev, dup := first[sc.ID]; dup {
			problems = append(problems, &scenarios.Error{File: f, Pos: sc.IDPos, Msg: fmt.Sprintf("id %q is already used by %s", sc.ID, prev)})
			continue
		}
		first[sc.ID] = f
		if st, err := os.Stat(f); err == nil && kept+st.Size() <= KeepBytes {
			kept += st.Size()
			suite.kept[len(suite.refs)] = sc
		}
		suite.refs = append(suite.refs, Ref{ID: sc.ID, Digest: sc.Digest, FileDigest: sc.FileDigest, File: f})
	}
	if len(problems) > 0 {
		problems.Sort()
		return nil, problems
	}
	return suite, nil
}
