package scenarios

import (
	"embed"
	"io/fs"
	"path"
	"slices"
)

//go:embed *.yaml
var builtinFS embed.FS

// BuiltinPrefix is the File prefix of the embedded suite's scenarios:
// "builtin/NAME.yaml".
const BuiltinPrefix = "builtin/"

// Builtin loads the suite embedded in the binary, in file name order. Like
// LoadPaths it returns every scenario that loaded and an ErrorList of every
// problem (nil when none); it does not lint (see Lint).
func Builtin() ([]*Scenario, error) {
	names, err := fs.Glob(builtinFS, "*.yaml")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var list []*Scenario
	var errs ErrorList
	for _, name := range names {
		data, err := builtinFS.ReadFile(name)
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
