package main

import (
	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/console"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Names and texts compact-eval did not write are printed through
// console.Text; standard output and standard error are console.Guards
// (see package console).

func shown(s string) string      { return console.Text(s) }
func shownLines(s string) string { return console.Lines(s) }

// problem is a scenario problem as a console line: its file name and
// message shown.
func problem(p *scenarios.Error) string {
	q := *p
	q.File, q.Msg = shown(p.File), shown(p.Msg)
	return q.Error()
}
