package scenarios

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// The built-in suite: the scenario files of scenarios/builtin.
//
//go:embed builtin/*.yaml builtin/recall/*.yaml
var embedded embed.FS

// BuiltinRecallDir is the folder, under the embedded suite, of the
// scenarios that measure the recall arm: a good citation makes the
// difference there. `run --recall` with no paths runs them with the rest
// of the suite; a run without the recall arm leaves them out.
const BuiltinRecallDir = "recall/"

// builtinFS is the folder of the built-in scenario files.
var builtinFS = func() fs.FS {
	sub, err := fs.Sub(embedded, "builtin")
	if err != nil {
		panic(err) // a constant, valid path
	}
	return sub
}()

// BuiltinPrefix is the File prefix of the embedded suite's scenarios:
// "builtin/NAME.yaml".
const BuiltinPrefix = "builtin/"

// Builtin loads the suite embedded in the binary, in file name order. Like
// LoadPaths it returns every scenario that loaded and an ErrorList of every
// problem (nil when none); it does not lint (see Lint). `run` does not wait
// for it: it loads each scenario as its first unit starts (BuiltinRefs,
// LoadBuiltin).
func Builtin() ([]*Scenario, error) {
	names, err := fs.Glob(builtinFS, "*.yaml")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var list []*Scenario
	var errs ErrorList
	for _, name := range names {
		data, err := fs.ReadFile(builtinFS, name)
		if err != nil {
			errs = append(errs, &Error{File: BuiltinPrefix + name, Msg: err.Error()})
			continue
		}
		s, err := LoadBytes(BuiltinPrefix+path.Base(name), data)
		if err != nil {
			errs = append(errs, err.(ErrorList)...)
			continue
		}
		list = append(list, s)
	}
	return list, errs.Err()
}

// BuiltinRef names one scenario of the embedded suite without loading it.
type BuiltinRef struct {
	// ID is the scenario's id, read from the file's top-level "id:" line;
	// LoadBuiltin checks it against the loaded scenario.
	ID string
	// Digest and FileDigest are Scenario.Digest and FileDigest of the file.
	Digest, FileDigest string
	// File is Scenario.File: BuiltinPrefix and the file name.
	File string
}

// BuiltinRefs lists the embedded suite in file name order, as Builtin
// returns it, without loading it: a run can then load each scenario when
// its first unit starts (LoadBuiltin) and send its first request after
// loading one scenario rather than all of them. The embedded files are
// checked by the tests, so the loading Builtin does up front finds nothing
// at run time. An error means a file has no plain top-level id line, or two
// files share an id.
func BuiltinRefs() ([]BuiltinRef, error) { return builtinRefs("*.yaml") }

// BuiltinRecallRefs is BuiltinRefs for the scenarios of BuiltinRecallDir.
func BuiltinRecallRefs() ([]BuiltinRef, error) { return builtinRefs(BuiltinRecallDir + "*.yaml") }

// BuiltinRecall loads the scenarios of BuiltinRecallDir, as Builtin does
// the suite.
func BuiltinRecall() ([]*Scenario, error) {
	refs, err := BuiltinRecallRefs()
	if err != nil {
		return nil, err
	}
	var list []*Scenario
	var errs ErrorList
	for _, r := range refs {
		s, err := LoadBuiltin(r.File)
		if el, ok := err.(ErrorList); ok {
			errs = append(errs, el...)
			continue
		} else if err != nil {
			errs = append(errs, &Error{File: r.File, Msg: err.Error()})
			continue
		}
		list = append(list, s)
	}
	return list, errs.Err()
}

func builtinRefs(pattern string) ([]BuiltinRef, error) {
	names, err := fs.Glob(builtinFS, pattern)
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	refs := make([]BuiltinRef, 0, len(names))
	seen := map[string]string{}
	for _, name := range names {
		data, err := fs.ReadFile(builtinFS, name)
		if err != nil {
			return nil, err
		}
		file := BuiltinPrefix + name
		id := topLevelID(data)
		if id == "" {
			return nil, fmt.Errorf("%s: no plain top-level id line", file)
		}
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("%s: id %q is already used by %s", file, id, prev)
		}
		seen[id] = file
		digest, err := MeaningDigest(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		refs = append(refs, BuiltinRef{ID: id, Digest: digest, FileDigest: fileDigest(data), File: file})
	}
	return refs, nil
}

// topLevelID returns the value of the first unindented "id:" line, plain or
// quoted without escapes, "" when there is none of that form.
func topLevelID(data []byte) string {
	for line := range strings.Lines(string(data)) {
		v, ok := strings.CutPrefix(line, "id:")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		if v == "" || strings.ContainsAny(v, "\"'#\\:{}[],&*!|>%@`") {
			return ""
		}
		return v
	}
	return ""
}

// LoadBuiltin loads one file of the embedded suite, by its BuiltinRef.File
// ("builtin/NAME.yaml"), and lints it on its own (LintScenario). Problems
// come as an ErrorList; an id other than the one BuiltinRefs read is one.
func LoadBuiltin(file string) (*Scenario, error) {
	name, ok := strings.CutPrefix(file, BuiltinPrefix)
	if b := strings.TrimPrefix(name, BuiltinRecallDir); !ok || path.Base(b) != b {
		return nil, fmt.Errorf("%s: not a built-in scenario file (want %sNAME.yaml)", file, BuiltinPrefix)
	}
	data, err := fs.ReadFile(builtinFS, name)
	if err != nil {
		return nil, fmt.Errorf("%s: no such built-in scenario", file)
	}
	s, err := LoadBytes(file, data)
	if err != nil {
		return nil, err
	}
	if errs := LintScenario(s); errs != nil {
		return nil, errs
	}
	if id := topLevelID(data); id != s.ID {
		return nil, ErrorList{{File: file, Pos: s.IDPos, Msg: fmt.Sprintf("id %q, but its top-level id line reads %q", s.ID, id)}}
	}
	return s, nil
}
