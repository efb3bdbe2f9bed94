package suggest

import (
	"path"
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
)

// A value that only a tool's error reveals as wrong: the agent called a
// tool with X, the tool failed ("No such file", "unknown option", "did you
// mean Y?"), and the agent called it again with Y in X's place. The error
// is the correction's source.

// lastCall is the latest tool call: its tool, index and value tokens.
type lastCall struct {
	idx    int
	name   string
	tokens []string
	lists  bool // a search or a listing: its output names files
}

// failedCall is a call whose result was an error, waiting for a retry.
type failedCall struct {
	call      lastCall
	resultIdx int
	line      string // the error's first line that says what failed
	calls     int    // calls since, of any tool
}

// maxCommands bounds the command names remembered.
const maxCommands = 200

// commandWordRE is the first word of a shell command in a call's
// arguments: after "command": or "cmd":, or at a line's start.
var commandWordRE = lazyre.New(`(?:"(?:command|cmd|script)":\s*"?|\n|&&\s*|;\s*|\|\s*)([a-zA-Z][\w.-]{1,30})\b`)

// maxRetryGap bounds the calls between a failed call and its retry.
const maxRetryGap = 3

// errorMarkers are what a failed call's output says, lower-cased.
var errorMarkers = []string{"no such file", "not found", "does not exist", "did you mean", "unknown option",
	"unknown command", "unknown argument", "unknown flag", "unrecognized", "invalid option", "invalid argument",
	"invalid choice", "invalid value", "cannot find", "could not find", "couldn't find", "no module named",
	"is not recognized", "error:", "exception:"}

// errorEdge bounds the bytes read at each end of a tool's output for an
// error: a failure is said at the start or the end, and this runs on every
// output.
const errorEdge = 600

// errorAt returns the index in text of the first error marker within its
// first and last errorEdge bytes, or -1.
func errorAt(text string) int {
	parts := [][2]int{{0, min(len(text), errorEdge)}}
	if len(text) > 2*errorEdge {
		parts = append(parts, [2]int{len(text) - errorEdge, len(text)})
	} else if len(text) > errorEdge {
		parts[0][1] = len(text)
	}
	for _, p := range parts {
		lower := strings.ToLower(text[p[0]:p[1]])
		best := -1
		for _, m := range errorMarkers {
			if i := strings.Index(lower, m); i >= 0 && (best < 0 || i < best) {
				best = i
			}
		}
		if best >= 0 {
			return p[0] + best
		}
	}
	return -1
}

var didYouMeanRE = lazyre.New("(?i)did you mean[: ]+[`'\"]?([\\w./@:-]+?)[`'\"]?(?:\\?|\\s|$)")

// valueTokens are the tokens of a call's arguments that can be a value: a
// path, a name, a flag, a version; never a bare number or a stop word.
func valueTokens(args string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(args, func(r rune) bool {
		return r == ' ' || r == '\n' || r == '\t' || r == '"' || r == '\'' || r == '`' || r == ',' || r == '(' || r == ')' || r == '{' || r == '}' || r == '[' || r == ']' || r == '='
	}) {
		f = strings.TrimRight(strings.TrimLeft(f, ":"), ":;.")
		if len(f) < 3 || len(f) > 200 || seen[f] || !strings.ContainsAny(strings.ToLower(f), "abcdefghijklmnopqrstuvwxyz") {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	return out
}

// call notes a tool call, and when it retries a failed call with one value
// replaced by a similar one, records the correction. A structured call's
// retries are read by their arguments instead (retries.go).
func (s *Scanner) call(idx int, name, args string, structured bool) {
	c := lastCall{idx: idx, name: name, tokens: valueTokens(args), lists: listsFiles(name, args)}
	if len(s.commands) < maxCommands {
		s.commands[strings.ToLower(name)] = true
		for _, m := range commandWordRE.FindAllStringSubmatch(args, 4) {
			s.commands[strings.ToLower(m[1])] = true
		}
	}
	if f := s.failed; f != nil && structured && f.call.name == name {
		s.failed = nil
	} else if f != nil {
		f.calls++
		if f.call.name == name {
			s.failed = nil
			if old, new, ok := replacedValue(f.call.tokens, c.tokens); ok {
				s.toolCorrection(f, old, new)
			}
		} else if f.calls > maxRetryGap {
			s.failed = nil
		}
	}
	s.last = &c
}

// result notes a tool result: an error of the latest call waits for a
// retry; a "did you mean Y?" names the correction at once.
func (s *Scanner) result(idx int, text string) {
	if s.last == nil {
		return
	}
	at := errorAt(text)
	if at < 0 {
		return
	}
	line := text[strings.LastIndexByte(text[:at], '\n')+1:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	f := &failedCall{call: *s.last, resultIdx: idx, line: strings.TrimSpace(line)}
	if m := didYouMeanRE.FindStringSubmatch(text[at:min(len(text), at+errorEdge)]); m != nil {
		for _, tok := range f.call.tokens {
			if similarValue(tok, m[1]) {
				s.toolCorrection(f, tok, m[1])
				return
			}
		}
	}
	s.failed = f
}

// replacedValue returns the one value the retry replaced, when it replaced
// exactly one, by a value like it.
func replacedValue(before, after []string) (old, new string, ok bool) {
	in := func(list []string, v string) bool {
		for _, x := range list {
			if x == v {
				return true
			}
		}
		return false
	}
	var gone, added []string
	for _, t := range before {
		if !in(after, t) {
			gone = append(gone, t)
		}
	}
	for _, t := range after {
		if !in(before, t) {
			added = append(added, t)
		}
	}
	if len(gone) != 1 || len(added) != 1 || !similarValue(gone[0], added[0]) {
		return "", "", false
	}
	return gone[0], added[0], true
}

// similarValue reports two values that name the same thing differently: the
// same file in another folder, near-identical spellings, one extending the
// other (a flag, a version).
func similarValue(a, b string) bool {
	if a == b {
		return false
	}
	if path.Base(a) == path.Base(b) && strings.Contains(a, "/") != strings.Contains(b, "/") || path.Base(a) == path.Base(b) && path.Dir(a) != path.Dir(b) {
		return true
	}
	for _, p := range [][2]string{{a, b}, {path.Base(a), path.Base(b)}} {
		x, y := strings.ToLower(p[0]), strings.ToLower(p[1])
		if x != y && len(x) >= 4 && len(y) >= 4 && abs(len(x)-len(y)) <= 3 && withinDistance(x, y, 3) {
			return true
		}
	}
	return commonPrefix(strings.ToLower(a), strings.ToLower(b)) >= 4 && (strings.ContainsAny(a, "./-_") || strings.ContainsAny(b, "./-_"))
}

func (s *Scanner) toolCorrection(f *failedCall, old, new string) {
	s.addCorrection(Correction{Idx: f.resultIdx, Old: old, New: new, Text: f.line, ByTool: true})
}

// addCorrection records c unless the cap is reached or the same values
// were corrected before.
func (s *Scanner) addCorrection(c Correction) {
	if len(s.corrections) >= maxCorrections {
		return
	}
	key := "r:" + strings.ToLower(c.Old) + "\x00" + strings.ToLower(c.New)
	if s.seen[key] {
		return
	}
	s.seen[key] = true
	s.corrections = append(s.corrections, c)
}

// listWords mark a call whose output lists files: a search, a listing, a
// directory view.
var listWords = []string{"find", "grep", "glob", "search", "ls", "tree", "rg ", "locate", "list", "view", "fd "}

func listsFiles(name, args string) bool {
	for _, t := range []string{strings.ToLower(name), args} {
		for _, w := range listWords {
			if strings.Contains(t, w) {
				return true
			}
		}
	}
	return false
}
