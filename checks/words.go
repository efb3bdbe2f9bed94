package checks

import (
	_ "embed"
	"strings"
	"sync"
)

// Word forms for the grounding check's content words and relations: a
// light English stemmer (relStem), irregular forms and senses read from
// wordforms.tsv, and the language of a text by its function words.

//go:embed wordforms.tsv
var wordFormsTSV string

// wordForms is wordforms.tsv read: irregular form -> lemma, and stem ->
// the stem of its sense's first word.
type wordFormTable struct {
	lemma map[string]string
	sense map[string]string
}

var wordForms = sync.OnceValue(func() wordFormTable {
	t := wordFormTable{lemma: map[string]string{}, sense: map[string]string{}}
	for _, line := range strings.Split(wordFormsTSV, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		form, rest, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		if form != "=" {
			t.lemma[form] = rest
			continue
		}
		ws := strings.Fields(rest)
		for _, w := range ws {
			t.sense[relStem(w)] = relStem(ws[0])
		}
	}
	return t
})

// groundStem is the stem the grounding check compares a word by (folded,
// lower-cased): its lemma when it is an irregular form ("kept": "keep"),
// stemmed (relStem), then its sense's ("stays": "keep"; "mantener":
// "keep").
func groundStem(w string) string {
	t := wordForms()
	if l, ok := t.lemma[w]; ok {
		w = l
	}
	s := relStem(w)
	if r, ok := t.sense[s]; ok {
		return r
	}
	return s
}

// Function words of each language, for textLang.
var (
	langES = set(`el la los las del que es son esta estan una un para con por se y pero mas como al lo de en su sus fue era hay sin sobre ya tambien cuando donde muy ni`)
	langEN = set(`the of and to is are was were for with that this it on at by from be in its has have not but which will there`)
)

// textLang tells the language of low (folded, lower-cased) by its
// function words: "es" or "en" when one of them has at least one and the
// other none, or at least twice as many; "" when they do not say (a tool
// output of names and figures).
func textLang(low string) string {
	es, en := 0, 0
	for i := 0; i < len(low); {
		c := low[i]
		if !(c >= 'a' && c <= 'z') {
			i++
			continue
		}
		j := i
		for j < len(low) && low[j] >= 'a' && low[j] <= 'z' {
			j++
		}
		// a run of letters glued to a digit is part of an id or a digest
		// ("de" in 77c0de9a), never a word
		glued := i > 0 && isDigitByte(low[i-1]) || j < len(low) && isDigitByte(low[j])
		if w := low[i:j]; !glued && j-i <= 7 && (j == len(low) || low[j] < 0x80) {
			if langES[w] {
				es++
			}
			if langEN[w] {
				en++
			}
		}
		i = j
	}
	switch {
	case es > 0 && (en == 0 || es >= 2*en):
		return "es"
	case en > 0 && (es == 0 || en >= 2*es):
		return "en"
	}
	return ""
}

// crossLanguage reports whether an entry in language a cannot be compared
// word by word with an event in language b: a Spanish entry against an
// event that is not Spanish (English, or a tool output of English names),
// or an English entry against a Spanish event.
func crossLanguage(a, b string) bool {
	return a == "es" && b != "es" || a == "en" && b == "es"
}

func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }
