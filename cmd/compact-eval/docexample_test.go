package main

// The reading and the checking of the package doc's examples; the
// convention they follow is described at the top of doc_test.go.

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/internal/version"
)

// Marker lines of an example's shown output (see doc_test.go).
const (
	elided        = "…"           // any number of output lines, none included
	noOutput      = "(no output)" // the command prints nothing on stdout or stderr
	stderrMarker  = "(stderr)"    // the lines after it are stderr's
	examplePrompt = "$ compact-eval "
)

// exitMarker is the last line of an example that exits with a code other
// than 0.
var exitMarker = regexp.MustCompile(`^\(exit (\d+)\)$`)

// docExample is one `$ compact-eval …` line of the package doc and what it
// shows under it.
type docExample struct {
	Args   string   // the command line after "compact-eval "
	Block  []string // the shown lines as written, for messages
	Stdout []string // the shown stdout lines, markers included
	Stderr []string // the shown stderr lines; nil: stderr must be empty
	Exit   int      // the exit code the example declares
}

// String is the example as the doc shows it.
func (ex docExample) String() string {
	return "\t" + examplePrompt + ex.Args + "\n" + indentLines(ex.Block, "\t")
}

// parseDocExamples reads the examples of a doc comment's text (as
// ast.CommentGroup.Text returns it: code blocks are the lines that start
// with a tab). An example is a code-block line "$ compact-eval ARGS"; its
// shown output is the code-block lines that follow, up to the next example
// or the end of the code block, without the blank lines that end it.
func parseDocExamples(text string) ([]docExample, error) {
	var (
		examples []docExample
		args     string
		block    []string
		open     bool
	)
	finish := func() error {
		if !open {
			return nil
		}
		open = false
		for len(block) > 0 && block[len(block)-1] == "" {
			block = block[:len(block)-1]
		}
		ex, err := newDocExample(args, block)
		if err != nil {
			return err
		}
		examples = append(examples, ex)
		return nil
	}
	for _, l := range strings.Split(text, "\n") {
		code, isCode := strings.CutPrefix(l, "\t")
		switch {
		case isCode && strings.HasPrefix(code, examplePrompt):
			if err := finish(); err != nil {
				return nil, err
			}
			args, block, open = strings.TrimPrefix(code, examplePrompt), nil, true
		case open && (isCode || l == ""):
			block = append(block, strings.TrimRight(code, " \t"))
		default:
			if err := finish(); err != nil {
				return nil, err
			}
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return examples, nil
}

// newDocExample splits an example's shown lines into stdout, stderr and
// the exit code, and refuses an example that does not say what it prints.
func newDocExample(args string, block []string) (docExample, error) {
	ex := docExample{Args: args, Block: block}
	bad := func(format string, a ...any) (docExample, error) {
		return docExample{}, fmt.Errorf("doc example %q: %s", examplePrompt+args, fmt.Sprintf(format, a...))
	}
	lines := block
	if n := len(lines); n > 0 {
		if m := exitMarker.FindStringSubmatch(lines[n-1]); m != nil {
			code, err := strconv.Atoi(m[1])
			if err != nil || code == 0 {
				return bad("%q: an example that exits 0 shows no exit line", lines[n-1])
			}
			ex.Exit, lines = code, lines[:n-1]
		}
	}
	for i, l := range lines {
		if exitMarker.MatchString(l) {
			return bad("%q must be the last shown line", l)
		}
		if l == stderrMarker {
			if ex.Stderr != nil {
				return bad("%s appears twice", stderrMarker)
			}
			ex.Stdout, ex.Stderr = lines[:i], lines[i+1:]
			if len(ex.Stderr) == 0 {
				return bad("%s is followed by no line", stderrMarker)
			}
		}
	}
	if ex.Stderr == nil {
		ex.Stdout = lines
	}
	if len(lines) == 0 {
		return bad("shows no output: show its first lines, or %s", noOutput)
	}
	for i, l := range lines {
		if l == noOutput && len(lines) > 1 {
			return bad("%s must be the only output line", noOutput)
		}
		if l == noOutput {
			ex.Stdout = lines[i+1:]
		}
	}
	return ex, nil
}

// outputNormalizer replaces what differs from one run to the next with a
// placeholder, in the real output and in the shown lines alike.
type outputNormalizer struct {
	tmpDirs []string // folders the test made, shown as <tmp>
}

var (
	timestampRE = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?|\b\d{8}T\d{6}Z(?:-[0-9a-f]{8})?\b`)
	durationRE  = regexp.MustCompile(`\b(?:\d+(?:\.\d+)?(?:ns|µs|us|ms|h|m|s))+\b`)
	// harnessVersionRE is compact-eval's own version as version prints it,
	// which need not be a semantic version ("devel").
	harnessVersionRE = regexp.MustCompile(`\bcompact-eval ` + regexp.QuoteMeta(version.Harness()) + `\b`)
	semverRE         = regexp.MustCompile(`\bv\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?\b`)
)

// lines splits text into normalised lines: placeholders in, trailing
// spaces and trailing blank lines out.
func (n outputNormalizer) lines(text string) []string {
	for _, d := range n.tmpDirs {
		text = strings.ReplaceAll(text, d, "<tmp>")
		if real, err := filepath.EvalSymlinks(d); err == nil && real != d {
			text = strings.ReplaceAll(text, real, "<tmp>")
		}
	}
	text = harnessVersionRE.ReplaceAllString(text, "compact-eval <version>")
	text = semverRE.ReplaceAllString(text, "<version>")
	text = timestampRE.ReplaceAllString(text, "<time>")
	text = durationRE.ReplaceAllString(text, "<duration>")
	out := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range out {
		out[i] = strings.TrimRight(l, " \t\r")
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// checkDocExample compares what an example's command did with what the
// example shows; the error shows the example, the shown lines and the
// real output.
func checkDocExample(ex docExample, n outputNormalizer, stdout, stderr string, code int) error {
	var problems []string
	if code != ex.Exit {
		problems = append(problems, fmt.Sprintf("exit %d, the example shows exit %d", code, ex.Exit))
	}
	if err := matchShown(n.lines(strings.Join(ex.Stdout, "\n")), n.lines(stdout)); err != nil {
		problems = append(problems, "stdout: "+err.Error())
	}
	if err := matchShown(n.lines(strings.Join(ex.Stderr, "\n")), n.lines(stderr)); err != nil {
		problems = append(problems, "stderr: "+err.Error())
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("the package doc's example\n%s\ndoes not match what the command does: %s\n"+
		"real stdout (normalised):\n%s\nreal stderr (normalised):\n%s",
		ex, strings.Join(problems, "; "), numberLines(n.lines(stdout)), numberLines(n.lines(stderr)))
}

// matchShown checks output against shown lines. Runs of shown lines
// between elided markers must appear in the output in order, each run on
// consecutive lines; the first run starts the output unless an elided
// marker comes before it, the last ends it unless one comes after it. No
// shown lines match only an empty output. A shown line ending in "…"
// matches a line that starts with the text before the "…".
func matchShown(shown, output []string) error {
	if len(shown) == 1 && shown[0] == "" {
		shown = nil // the normalised form of no lines
	}
	if len(output) == 1 && output[0] == "" {
		output = nil
	}
	if len(shown) == 0 {
		if len(output) > 0 {
			return fmt.Errorf("the example shows nothing, the command printed %d lines", len(output))
		}
		return nil
	}
	runs := splitRuns(shown)
	anchoredStart := shown[0] != elided
	anchoredEnd := shown[len(shown)-1] != elided
	pos := 0
	for i, r := range runs {
		first, last := i == 0, i == len(runs)-1
		at := -1
		switch {
		case first && anchoredStart && last && anchoredEnd:
			if len(r.lines) == len(output) && runMatchesAt(r.lines, output, 0) {
				at = 0
			}
		case first && anchoredStart:
			if runMatchesAt(r.lines, output, 0) {
				at = 0
			}
		case last && anchoredEnd:
			if start := len(output) - len(r.lines); start >= pos && runMatchesAt(r.lines, output, start) {
				at = start
			}
		default:
			for start := pos; start+len(r.lines) <= len(output); start++ {
				if runMatchesAt(r.lines, output, start) {
					at = start
					break
				}
			}
		}
		if at < 0 {
			return r.mismatch(output, first && anchoredStart, last && anchoredEnd, pos)
		}
		pos = at + len(r.lines)
	}
	return nil
}

// shownRun is a run of shown lines without an elided marker.
type shownRun struct {
	from  int // index of its first line among the shown lines
	lines []string
}

// mismatch says where the run should have been and, for a run tied to
// the start or the end of the output, the first line that differs.
func (r shownRun) mismatch(output []string, atStart, atEnd bool, after int) error {
	where := fmt.Sprintf("not found, in order and on consecutive lines, after output line %d", after)
	start := -1
	switch {
	case atStart && atEnd:
		where, start = "not the whole output (show "+elided+" where lines are left out)", 0
	case atStart:
		where, start = "not the start of the output (begin with "+elided+" if they need not be)", 0
	case atEnd:
		where, start = "not the end of the output (end with "+elided+" if they need not be)", max(len(output)-len(r.lines), after)
	}
	name := fmt.Sprintf("shown lines %d-%d", r.from+1, r.from+len(r.lines))
	if len(r.lines) == 1 {
		name = fmt.Sprintf("shown line %d", r.from+1)
	}
	return fmt.Errorf("%s: %s:\n%s%s", name, where, indentLines(r.lines, "    "), r.firstDifference(output, start))
}

// firstDifference names the first shown line of the run that differs from
// the output read from start on; "" when start is not known (-1).
func (r shownRun) firstDifference(output []string, start int) string {
	if start < 0 {
		return ""
	}
	for i, l := range r.lines {
		switch {
		case start+i >= len(output):
			return fmt.Sprintf("first difference: shown line %d %q, but the output ends after line %d\n", r.from+i+1, l, len(output))
		case !shownLineMatches(l, output[start+i]):
			return fmt.Sprintf("first difference: shown line %d %q, output line %d %q\n", r.from+i+1, l, start+i+1, output[start+i])
		}
	}
	if len(output) > start+len(r.lines) {
		return fmt.Sprintf("first difference: the output goes on at line %d %q\n", start+len(r.lines)+1, output[start+len(r.lines)])
	}
	return ""
}

// splitRuns cuts shown lines at the elided markers.
func splitRuns(shown []string) []shownRun {
	var runs []shownRun
	var cur *shownRun
	for i, l := range shown {
		if l == elided {
			cur = nil
			continue
		}
		if cur == nil {
			runs = append(runs, shownRun{from: i})
			cur = &runs[len(runs)-1]
		}
		cur.lines = append(cur.lines, l)
	}
	return runs
}

// runMatchesAt reports whether the lines match output from start on.
func runMatchesAt(lines, output []string, start int) bool {
	if start < 0 || start+len(lines) > len(output) {
		return false
	}
	for i, l := range lines {
		if !shownLineMatches(l, output[start+i]) {
			return false
		}
	}
	return true
}

// shownLineMatches: a shown line matches the same line, or, when it ends
// in "…", any line that starts with what comes before the "…".
func shownLineMatches(shown, got string) bool {
	if prefix, ok := strings.CutSuffix(shown, elided); ok && prefix != "" {
		return strings.HasPrefix(got, prefix)
	}
	return shown == got
}

func indentLines(lines []string, indent string) string {
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(indent)
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

func numberLines(lines []string) string {
	if len(lines) == 0 || len(lines) == 1 && lines[0] == "" {
		return "    (nothing)\n"
	}
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, l)
	}
	return b.String()
}
