package scenarios

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/result"
)

// Error is one problem in a scenario file, positioned. Its text reads
// "file:line:col: msg"; with a zero Pos (a problem with the file as a whole,
// such as a missing file) it reads "file: msg".
type Error struct {
	File string
	Pos  result.Pos
	Msg  string
	// Warning marks a problem that does not make the file invalid (see
	// Warnings); its text reads "file:line:col: warning: msg".
	Warning bool
}

// Error returns "file:line:col: msg", or "file:line:col: warning: msg".
func (e *Error) Error() string {
	msg := e.Msg
	if e.Warning {
		msg = "warning: " + msg
	}
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, msg)
}

// ErrorList is every problem found, in file and position order. It
// implements error; its text is one problem per line. A nil or empty list
// means no problem (but is never returned as a non-nil error by this
// package: functions return a nil error instead).
type ErrorList []*Error

// Error returns the problems, one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Sort orders the list by file, line, column and message, and drops exact
// duplicates.
func (l *ErrorList) Sort() {
	slices.SortStableFunc(*l, func(a, b *Error) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			cmp.Compare(a.Msg, b.Msg),
		)
	})
	*l = slices.CompactFunc(*l, func(a, b *Error) bool { return *a == *b })
}

// Err returns l sorted as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	l.Sort()
	return l
}

func (l *ErrorList) add(file string, pos result.Pos, format string, args ...any) {
	*l = append(*l, &Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}
