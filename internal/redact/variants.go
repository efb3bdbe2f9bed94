package redact

import (
	"slices"
	"strconv"
)

// variants returns the forms of a secret searched for as runs in every
// text and every decoding of it: the folded value, its letters shifted by
// 1 to 25 (ROT13 among them), its digits shifted by 5 (ROT5) alone and with
// ROT13 (ROT18), its letters and digits mirrored (Atbash: a↔z, 0↔9), ROT47,
// and each of those reversed. Folding comes after the transformation, so a
// shifted upper-case letter matches as a folded one. A form that equals one
// already listed (a value without letters shifts to itself) is left out.
func variants(value string, s []rune) []variant {
	out := []variant{newVariant("", s, false)}
	add := func(name string, rs []rune) {
		if len(rs) != len(s) {
			return // folding changed the length: offsets would not map back
		}
		for _, rev := range []bool{false, true} {
			v := newVariant(name, rs, false)
			if rev {
				r := slices.Clone(rs)
				slices.Reverse(r)
				n := "reversed"
				if name != "" {
					n = name + " reversed"
				}
				v = newVariant(n, r, true)
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
	add("ROT5", foldValue(shiftDigits(value, 5)))
	add("ROT18", foldValue(shiftDigits(shiftLetters(value, 13), 5)))
	add("Atbash", foldValue(atbash(value)))
	add("ROT47", foldValue(rot47(value)))
	return out
}

// newVariant is the variant of folded runes s, with its skeleton.
func newVariant(name string, s []rune, rev bool) variant {
	v := variant{name: name, s: s, rev: rev}
	for i, r := range s {
		if isAlnum(r) {
			v.k = append(v.k, r)
			v.ki = append(v.ki, int32(i))
		}
	}
	return v
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

// shiftDigits shifts each ASCII digit of s by d places (d = 5 is ROT5).
func shiftDigits(s string, d int) string {
	b := []byte(s)
	for i, c := range b {
		if '0' <= c && c <= '9' {
			b[i] = '0' + byte((int(c-'0')+d)%10)
		}
	}
	return string(b)
}

// atbash mirrors each ASCII letter in its alphabet (a↔z, B↔Y) and each
// digit (0↔9).
func atbash(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z':
			b[i] = 'z' - (c - 'a')
		case 'A' <= c && c <= 'Z':
			b[i] = 'Z' - (c - 'A')
		case '0' <= c && c <= '9':
			b[i] = '9' - (c - '0')
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
