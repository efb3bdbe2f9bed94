package suggest

import (
	_ "embed"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// toolFailureData lists how a tool writes a failure as text (see the
// file's header).
//
//go:embed toolfailures.txt
var toolFailureData string

// failureShapes is toolFailureData parsed, lower-cased.
type failureShapes struct {
	prefixes, suffixes []string
}

var loadFailureShapes = sync.OnceValue(func() *failureShapes { return parseFailureShapes(toolFailureData) })

func parseFailureShapes(data string) *failureShapes {
	f := &failureShapes{}
	for _, line := range strings.Split(data, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, text, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		switch kind {
		case "prefix":
			f.prefixes = append(f.prefixes, strings.ToLower(text))
		case "suffix":
			f.suffixes = append(f.suffixes, strings.ToLower(text))
		}
	}
	return f
}

// maxFailureHead bounds the bytes of a result read for a failure's shape.
const maxFailureHead = 200

// failsByText reports a tool result whose text is a failure: it opens with
// a failure's prefix ("Error: …", "Failed to …", a traceback) or its first
// word is an exception's name ("ValueError: …").
func failsByText(text string) bool {
	head := strings.TrimSpace(text[:min(len(text), maxFailureHead)])
	if head == "" {
		return false
	}
	lower := strings.ToLower(head)
	shapes := loadFailureShapes()
	for _, p := range shapes.prefixes {
		rest, ok := strings.CutPrefix(lower, p)
		if !ok {
			continue
		}
		last, _ := utf8.DecodeLastRuneInString(p)
		next, _ := utf8.DecodeRuneInString(rest)
		if unicode.IsLetter(last) && rest != "" && (unicode.IsLetter(next) || next == '_') {
			continue // "failedover", "errors": another word
		}
		return true
	}
	first := lower
	if i := strings.IndexAny(first, " \t\n"); i >= 0 {
		first = first[:i]
	}
	for _, s := range shapes.suffixes {
		if len(first) > len(s) && strings.HasSuffix(first, s) {
			return true
		}
	}
	return false
}
