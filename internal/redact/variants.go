package redact

import (
	"slices"
	"strconv"
)

// variants returns the forms of a secret searched for as runs in every
// text and every decoding of it: the folded value, its letters shifted by
// 1 to 25 (ROT13 among them), ROT47, and each of those reversed. Folding
// comes after the transformation, so a shifted upper-case letter matches
// as a folded one. A form that equals one already listed (a value without
// letters shifts to itself) is left out.
func variants(value string, s []rune) []variant {
	out := []variant{{s: s}}
	add := func(name string, rs []rune) {
		if len(rs) != len(s) {
			return // folding changed the length: offsets would not map back
		}
		for _, rev := range []bool{false, true} {
			v := variant{name: name, s: rs, rev: rev}
			if rev {
				v.s = slices.Clone(rs)
				slices.Reverse(v.s)
				v.name = "reversed"
				if name != "" {
					v.name = name + " reversed"
				}
			}
			if !slices.ContainsFunc(out, func(o variant) bool { return slices.Equal(o.s, v.s) }) {
				out = append(out, v)
			}
		}
	}
	add("", s)
	for d := 1; d < 26; d++ {
		name := "ROT13"
		if d != 13 {
			name = "letters shifted by " + strconv.Itoa(d)
		}
		add(name, foldValue(shiftLetters(value, d)))
	}
	add("ROT47", foldValue(rot47(value)))
	return out
}

// shiftLetters shifts each ASCII letter of s by d places, keeping its case
// (a Caesar shift; d = 13 is ROT13).
func shiftLetters(s string, d int) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z':
			b[i] = 'a' + byte((int(c-'a')+d)%26)
		case 'A' <= c && c <= 'Z':
			b[i] = 'A' + byte((int(c-'A')+d)%26)
		}
	}
	return string(b)
}

// rot47 rotates the printable ASCII characters other than space by 47.
func rot47(s string) string {
	b := []byte(s)
	for i, c := range b {
		if '!' <= c && c <= '~' {
			b[i] = '!' + (c-'!'+47)%94
		}
	}
	return string(b)
}
