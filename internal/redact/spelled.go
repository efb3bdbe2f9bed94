package redact

import (
	_ "embed"
	"strings"
)

// Spelled-out forms: a secret spelled with words (the NATO alphabet and
// its kin, digit names, letter names, "capital x") or in Morse code. A run
// of at least minSpelled spelled characters in a row (words or codes with
// only separators between them, at least one of them a word or a code
// rather than a bare character) is read as the characters it spells; runs
// are joined by a space (a separator) in the decoded stream, so the
// characters of one run stay together and several runs can be read as
// the pieces of one secret.

//go:embed spelled.tsv
var spelledTSV string

// minSpelled is the shortest run of spelled characters read: shorter runs
// of such words occur in prose ("oh, two more").
const minSpelled = 4

// spelling is what one word or code spells: the character (0 for a word
// that only qualifies the next, such as "capital"), and whether it is
// Morse.
type spelling struct {
	c     byte
	morse bool
}

var spelledWords = func() map[string]spelling {
	m := map[string]spelling{}
	for _, row := range tsvRows(spelledTSV) {
		if len(row) != 3 {
			panic("spelled.tsv: bad row " + strings.Join(row, "\t"))
		}
		var c byte
		switch v := row[1]; {
		case v == "~":
			c = ' '
		case len(v) == 1:
			c = v[0]
		case v != "":
			panic("spelled.tsv: bad character " + v)
		}
		m[row[0]] = spelling{c: c, morse: row[2] == "morse"}
	}
	return m
}()

// spelledBloom is a filter of the table's words by length and first,
// second and last letters: most words of prose fail it without a lookup.
var spelledBloom = func() (b [64]uint64) {
	for w, sp := range spelledWords {
		if !sp.morse && len(w) >= 2 {
			k := bloomKey(len(w), w[0], w[1], w[len(w)-1])
			b[k>>6] |= 1 << (k & 63)
		}
	}
	return b
}()

func bloomKey(n int, c0, c1, cl byte) int {
	return (((n*31+int(c0|0x20))*31+int(c1|0x20))*31 + int(cl|0x20)) & 4095
}

func inBloom(w string) bool {
	k := bloomKey(len(w), w[0], w[1], w[len(w)-1]) & 4095
	return spelledBloom[k>>6]&(1<<(k&63)) != 0
}

func isLetterByte(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// letters returns the end of the run of ASCII letters at s[i].
func letters(s string, i int) int {
	for i < len(s) && isLetterByte(s[i]) {
		i++
	}
	return i
}

func isMorseByte(c byte) bool { return c == '.' || c == '-' || c == '_' }

// spelled decodes the runs of spelled characters of st.
func (sr *searcher) spelled(st *stream, next int) {
	if out := spelledRuns(st); out != nil {
		sr.child(out.stream("spelled out"), next)
	}
}

// spelledDecode is what spelled reads in st, for the tests.
func spelledDecode(_ *searcher, st *stream) string {
	if out := spelledRuns(st); out != nil {
		return string(out.b)
	}
	return ""
}

// spelledRuns builds the stream of the spelled runs of st, nil when there
// is none.
func spelledRuns(st *stream) *builder {
	s := st.b
	var out *builder
	var run []spelledChar
	words := 0 // spelled words and codes in the run (not bare characters)
	flush := func() {
		if n := countChars(run); n >= minSpelled && words > 0 {
			if out == nil {
				out = newBuilder(st, len(s)/4)
			} else {
				out.add(' ', run[0].lo, run[0].lo)
			}
			for _, sc := range run {
				if sc.c != 0 {
					out.add(sc.c, sc.lo, sc.hi)
				}
			}
		}
		run, words = run[:0], 0
	}
	var buf [16]byte
	lastEnd := 0
	for i := 0; i < len(s); {
		c := s[i]
		// a word of letters (and one inner hyphen: x-ray), a number, or a
		// Morse code
		j := i
		kind := 0 // 1 letters, 2 digits, 3 Morse
		switch {
		case isLetterByte(c):
			kind = 1
			j = letters(s, i)
			// a hyphenated word of the table (x-ray, double-u)
			if j+1 < len(s) && s[j] == '-' && isLetterByte(s[j+1]) {
				if k := letters(s, j+1); k-i <= len(buf) {
					for n := range k - i {
						buf[n] = lowerASCII(s[i+n])
					}
					if _, ok := spelledWords[string(buf[:k-i])]; ok {
						j = k
					}
				}
			}
		case isDigit(c):
			kind = 2
			for j < len(s) && isDigit(s[j]) {
				j++
			}
		case (isMorseByte(c) || c == 0xc2 && i+1 < len(s) && s[i+1] == 0xb7) && (i == 0 || !isAlnumByte(s[i-1])): // · is C2 B7
			kind = 3
			for j < len(s) && (isMorseByte(s[j]) || s[j] == 0xc2 && j+1 < len(s) && s[j+1] == 0xb7) {
				if s[j] == 0xc2 {
					j++
				}
				j++
			}
			if j < len(s) && isAlnumByte(s[j]) {
				// a dash or a dot before a word: a separator
				i = j
				continue
			}
		default:
			i++
			continue
		}
		// what stands between the last word and this one: only
		// separators keep the run going
		if len(run) > 0 && !spelledGap(s[lastEnd:i]) {
			flush()
		}
		tok := s[i:j]
		lastEnd = j
		switch kind {
		case 2:
			for k := i; k < j; k++ {
				run = append(run, spelledChar{s[k], k, k + 1})
			}
			i = j
			continue
		case 3:
			n := 0
			for k := 0; k < len(tok) && n < len(buf); k++ {
				switch {
				case tok[k] == 0xc2:
				case tok[k] == 0xb7 || tok[k] == '.':
					buf[n] = '.'
					n++
				default:
					buf[n] = '-'
					n++
				}
			}
			if sp, ok := spelledWords[string(buf[:n])]; ok && sp.morse && len(tok) <= 14 {
				run = append(run, spelledChar{sp.c, i, j})
				words++
			} else {
				flush()
			}
			i = j
			continue
		}
		if len(tok) == 1 {
			run = append(run, spelledChar{lowerASCII(tok[0]), i, j})
			i = j
			continue
		}
		if len(tok) > len(buf) {
			flush()
			i = j
			continue
		}
		for k := range len(tok) {
			buf[k] = lowerASCII(tok[k])
		}
		sp, ok := spelledWords[string(buf[:len(tok)])]
		switch {
		case !ok || sp.morse:
			flush()
		case sp.c == 0:
			// a qualifier: part of the run, spells nothing
			run = append(run, spelledChar{0, i, j})
		default:
			run = append(run, spelledChar{sp.c, i, j})
			words++
		}
		i = j
	}
	flush()
	return out
}

type spelledChar struct {
	c      byte
	lo, hi int
}

func countChars(run []spelledChar) int {
	n := 0
	for _, sc := range run {
		if sc.c != 0 {
			n++
		}
	}
	return n
}

// spelledGap reports whether the text between two spelled words is only
// separators: blanks, commas, slashes, hyphens, dots, pipes, quotes,
// brackets and colons, at most 12 bytes of them.
func spelledGap(g string) bool {
	if len(g) > 12 {
		return false
	}
	for i := 0; i < len(g); i++ {
		if strings.IndexByte(" \t\r\n,;/|-.'\"()[]:", g[i]) < 0 {
			return false
		}
	}
	return true
}

// mayBeSpelled reports whether s may hold a run of spelled characters:
// two words of the table in a row, or four Morse codes in a row. It reads
// words only, through a filter (spelledBloom) that most words of prose
// fail, and most prose has no two table words in a row; a byte is
// classed by one look-up (spelledBytes). TestMayBeSpelled holds it to the
// byte-by-byte reading it replaced.
func mayBeSpelled(s string) bool {
	var buf [16]byte
	inRow, codes := 0, 0
	for i := 0; i < len(s); {
		k := spelledBytes[s[i]]
		if k&spMorse != 0 && (i == 0 || spelledBytes[s[i-1]]&spAlnum == 0) {
			j := i
			for j < len(s) && spelledBytes[s[j]]&spMorse != 0 {
				j++
			}
			if j-i <= 7 && (j == len(s) || spelledBytes[s[j]]&spAlnum == 0) {
				if codes++; codes >= minSpelled {
					return true
				}
			} else {
				codes = 0
			}
			i = j
			continue
		}
		if k&spLetter == 0 {
			if k&spCodeGap == 0 {
				codes = 0
			}
			i++
			continue
		}
		codes = 0
		j := i + 1
		for j < len(s) && spelledBytes[s[j]]&spLetter != 0 {
			j++
		}
		n := j - i
		switch {
		case n < 2:
		case n > len(buf) || !inBloom(s[i:j]):
			inRow = 0
		default:
			for k := range n {
				buf[k] = lowerASCII(s[i+k])
			}
			if sp, ok := spelledWords[string(buf[:n])]; !ok {
				inRow = 0
			} else if sp.c != 0 {
				if inRow++; inRow >= 2 {
					return true
				}
			}
		}
		i = j
	}
	return false
}

// What mayBeSpelled tells of a byte: an ASCII letter, a Morse mark, a
// letter or digit, a byte that may stand between Morse codes.
const (
	spLetter = 1 << iota
	spMorse
	spAlnum
	spCodeGap
)

var spelledBytes = func() (t [256]uint8) {
	for c := range 256 {
		b := byte(c)
		if isLetterByte(b) {
			t[c] |= spLetter
		}
		if isMorseByte(b) {
			t[c] |= spMorse
		}
		if isAlnumByte(b) {
			t[c] |= spAlnum
		}
		if !isAlnumByte(b) && strings.IndexByte(" \t\r\n/|", b) >= 0 {
			t[c] |= spCodeGap
		}
	}
	return t
}()
