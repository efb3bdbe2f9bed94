// Package textmatch holds the one way compact-eval matches patterns against
// text (docs/formats.md §2): RE2, case-insensitive, on text whose whitespace runs
// are folded to one space and whose accents are removed, so that "sesión"
// and "sesion" are the same word. Patterns are folded the same way.
package textmatch

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold returns s with accents removed and every whitespace run replaced by a
// single space, trimmed. Case is left alone: patterns are compiled
// case-insensitive.
func Fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		s = stripMarks(s)
	} else if foldedASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// foldedASCII reports whether ASCII s is its own Fold: no whitespace other
// than single spaces between other characters.
func foldedASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ':
			if i == 0 || i == len(s)-1 || s[i+1] == ' ' {
				return false
			}
		case '\t', '\n', '\v', '\f', '\r':
			return false
		}
	}
	return true
}

func stripMarks(s string) string {
	d := norm.NFD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

var cache sync.Map // pattern string -> *regexp.Regexp

// Compile compiles an RE2 pattern case-insensitively, after folding its
// accents. Compiled patterns are cached.
func Compile(pattern string) (*regexp.Regexp, error) {
	if re, ok := cache.Load(pattern); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile("(?i)" + stripMarksIfNeeded(pattern))
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	cache.Store(pattern, re)
	return re, nil
}

func stripMarksIfNeeded(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return stripMarks(s)
		}
	}
	return s
}

// Find reports the first match of pattern in folded text, "" and false when
// there is none. An invalid pattern never matches; lint reports it.
func Find(pattern, folded string) (string, bool) {
	re, err := Compile(pattern)
	if err != nil {
		return "", false
	}
	loc := re.FindStringIndex(folded)
	if loc == nil {
		return "", false
	}
	return folded[loc[0]:loc[1]], true
}

// FindAny returns the first of patterns that matches folded text, with the
// matched text.
func FindAny(patterns []string, folded string) (pattern, match string, ok bool) {
	for _, p := range patterns {
		if m, ok := Find(p, folded); ok {
			return p, m, true
		}
	}
	return "", "", false
}
