// Package lazyre is a regular expression compiled on its first use: a
// package whose patterns only one subcommand needs then does not compile
// them at every start of the command (the importer's cost some 2.4 ms
// before main).
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regexp compiled on its first use; safe for concurrent use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New is regexp.MustCompile, deferred: a bad pattern panics on first use,
// which the tests of the package that declares it reach.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

func (l *Regexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

func (l *Regexp) MatchString(s string) bool      { return l.get().MatchString(s) }
func (l *Regexp) FindString(s string) string     { return l.get().FindString(s) }
func (l *Regexp) FindStringIndex(s string) []int { return l.get().FindStringIndex(s) }
func (l *Regexp) FindStringSubmatch(s string) []string {
	return l.get().FindStringSubmatch(s)
}
func (l *Regexp) FindStringSubmatchIndex(s string) []int {
	return l.get().FindStringSubmatchIndex(s)
}
func (l *Regexp) FindAllString(s string, n int) []string {
	return l.get().FindAllString(s, n)
}
func (l *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}
func (l *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}
func (l *Regexp) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}
