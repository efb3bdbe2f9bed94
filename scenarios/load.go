package scenarios

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/result"

	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/internal/yamlnode"
)

// MaxFileSize is the largest scenario file the loader reads: 8 MiB. A larger
// file is refused before it is read, with an error at line 1, column 1. The
// long built-in session is well under 1 MiB; anything near the limit is a
// mistake (a log pasted whole) or an attack.
const MaxFileSize = 8 << 20

// MaxEvents bounds the events of one scenario: explicit events, filler and
// arrivals together. A few filler lines must not be able to ask for a
// billion events, nor a file hold 280,000 tiny ones.
const MaxEvents = 20000

// MaxPatterns bounds the patterns of one scenario (invariants' match,
// conclusion and probes' requires together). Each is a compiled regexp that
// every filler event is checked against: without a bound, a 2.6 MB file of
// 25,000 one-line constraints took 36 s and 240 MB to validate. Real
// scenarios hold a few dozen.
const MaxPatterns = 1000

// LoadFile reads and loads one scenario file. Every problem is reported: the
// error is an ErrorList of positioned *Error values, sorted.
//
// Loading checks the structure (fields, types, payload rules, seq
// numbering) and expands filler; Lint checks the references between parts
// and across a suite. A scenario is usable only when both pass.
func LoadFile(path string) (*Scenario, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, ErrorList{{File: path, Msg: openMsg(err)}}
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil {
		if st.IsDir() {
			return nil, ErrorList{{File: path, Msg: "is a directory; use LoadPaths for folders"}}
		}
		if st.Size() > MaxFileSize {
			return nil, ErrorList{tooBig(path, st.Size())}
		}
	}
	// The file may grow between Stat and Read: never read more than the limit.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, ErrorList{{File: path, Msg: fmt.Sprintf("reading: %v", err)}}
	}
	return LoadBytes(path, data)
}

// openMsg is err without the path, which the positioned Error already names.
func openMsg(err error) string { return inputfile.Reason(err) }

func tooBig(file string, size int64) *Error {
	return &Error{File: file, Pos: result.Pos{Line: 1, Col: 1}, Msg: fmt.Sprintf("file is %.1f MB, limit is %d MiB", float64(size)/1e6, MaxFileSize>>20)}
}

// LoadBytes loads a scenario from data; name is used as its File in errors.
// See LoadFile.
//
// Decisions the format leaves open, taken here:
//   - YAML aliases (*name) are refused: a scenario gains nothing from them and
//     they are the way to build a "billion laughs" bomb. Anchors alone are
//     harmless and ignored.
//   - A file holds exactly one YAML document.
//   - Text fields accept any scalar (`old: 5432` is the string "5432").
//   - Invariants holds pointers: *Constraint, *RefutedHypothesis, *Artifact,
//     *PendingOperation, *Correction, *Quantity, *Secret.
func LoadBytes(name string, data []byte) (s *Scenario, err error) {
	if len(data) > MaxFileSize {
		return nil, ErrorList{tooBig(name, int64(len(data)))}
	}
	if e := checkEncoding(name, data); e != nil {
		return nil, ErrorList{e}
	}
	if _, over := nodeBound(data, MaxNodes); over >= 0 {
		return nil, ErrorList{{File: name, Pos: offsetPos(data, over), Msg: fmt.Sprintf(
			"more than %d YAML nodes by here: a scenario holds at most %d events and %d nodes (keys, values, lists, mappings); keep the part of the session that matters",
			MaxNodes, MaxEvents, MaxNodes)}}
	}
	defer func() {
		// yaml.v3 has panicked on hostile input in the past; a loader must
		// not crash its caller.
		if r := recover(); r != nil {
			s, err = nil, ErrorList{{File: name, Pos: result.Pos{Line: 1, Col: 1}, Msg: fmt.Sprintf("cannot parse YAML: %v", r)}}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, ErrorList{{File: name, Pos: result.Pos{Line: 1, Col: 1}, Msg: "empty file: want a scenario mapping"}}
		}
		return nil, ErrorList{yamlError(name, data, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return nil, ErrorList{yamlError(name, data, err)}
		}
		return nil, ErrorList{{File: name, Pos: pos(&extra), Msg: "a second YAML document: a file holds one scenario"}}
	}
	d := newDecoder(name)
	if d.refuseAliases(&doc); len(d.errs) > 0 {
		return nil, d.errs.Err()
	}
	if d.refuseTags(&doc); len(d.errs) > 0 {
		return nil, d.errs.Err()
	}
	digest := meaningDigest(&doc) // before decoding: it never reads a node the decoder touched
	s = d.scenario(&doc)
	if len(d.errs) > 0 {
		return nil, d.errs.Err()
	}
	s.Digest, s.FileDigest = digest, fileDigest(data)
	s.File = name
	return s, nil
}

// LoadPaths loads every scenario named by paths: files, or folders searched
// recursively for *.yaml and *.yml, in sorted order (see Files). It returns every
// scenario that loaded, and an ErrorList of every problem (nil when none).
func LoadPaths(paths []string) ([]*Scenario, error) {
	files, errs := Files(paths)
	var list []*Scenario
	for _, f := range files {
		s, err := LoadFile(f)
		if err != nil {
			errs = append(errs, err.(ErrorList)...)
			continue
		}
		list = append(list, s)
	}
	return list, errs.Err()
}

// Files expands paths to the scenario files they name: a file as given, a
// folder searched recursively for *.yaml and *.yml in sorted order, leaving
// out the config file and hidden files and folders (skipped). A path
// that does not exist, or a folder with no scenario file, is an error.
// Files are listed once even when several paths name them.
func Files(paths []string) ([]string, ErrorList) {
	var files []string
	var errs ErrorList
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, &Error{File: p, Msg: openMsg(err)})
			continue
		}
		if !st.IsDir() {
			add(p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, de fs.DirEntry, err error) error {
			if path != p && skipped(de.Name()) {
				if de.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if err != nil {
				errs = append(errs, &Error{File: path, Msg: openMsg(err)})
				return nil
			}
			if !de.IsDir() && isScenarioName(path) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, &Error{File: p, Msg: err.Error()})
		}
		if len(found) == 0 {
			errs = append(errs, &Error{File: p, Msg: "no *.yaml or *.yml scenario files in this folder (" + ConfigFile + ", hidden files and hidden folders such as .github/ are not read)"})
		}
		slices.Sort(found)
		for _, f := range found {
			add(f)
		}
	}
	return files, errs
}

// ConfigFile is the name of compact-eval's config file (the command's
// config.DefaultFile), which a folder of scenarios often holds beside
// them: Files never reads it as a scenario.
const ConfigFile = "compact-eval.yaml"

// skipped reports whether a file or folder met while searching a folder is
// left out, without a word: the config file (ConfigFile, or its .yml
// spelling), and every hidden file and folder (.github/ and its workflows,
// .git/, an editor's lock files). A path named explicitly is always read.
func skipped(name string) bool {
	return strings.HasPrefix(name, ".") || name == ConfigFile || name == strings.TrimSuffix(ConfigFile, ".yaml")+".yml"
}

func isScenarioName(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".yaml" || ext == ".yml"
}

// checkEncoding refuses binary and non-UTF-8 data, at the offending byte.
func checkEncoding(name string, data []byte) *Error {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return &Error{File: name, Pos: offsetPos(data, i), Msg: fmt.Sprintf("binary file: NUL byte at offset %d; a scenario is UTF-8 YAML text", i)}
	}
	if utf8.Valid(data) {
		return nil
	}
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return &Error{File: name, Pos: offsetPos(data, i), Msg: fmt.Sprintf("not UTF-8: invalid byte 0x%02x at offset %d; save the file as UTF-8", data[i], i)}
		}
		i += n
	}
	return nil
}

func offsetPos(data []byte, off int) result.Pos {
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return result.Pos{Line: line, Col: 1 + utf8.RuneCount(data[start:off])}
}

// yamlError positions a syntax error of the YAML parser at the problem
// (yamlnode.SyntaxPos), at 1:1 when even its line is unknown.
func yamlError(name string, data []byte, err error) *Error {
	at, msg := yamlnode.SyntaxPos(data, err)
	p := result.Pos(at)
	if p.Line == 0 {
		p = result.Pos{Line: 1, Col: 1}
	}
	return &Error{File: name, Pos: p, Msg: "YAML syntax: " + msg}
}
