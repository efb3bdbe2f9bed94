package redact

// Shuffled forms: the characters of a secret in another order or among
// filler, inside one token. A key-like token (at least 2·MinRun letters and
// digits in a row, with letters of both cases or with letters and digits,
// as a key or its shuffle has) is read with each pair of characters
// swapped back (from its first character or its second), and as every
// second or every third character (each phase): a key written with its
// pairs swapped, or interleaved with one or two filler characters after
// each of its own, reads as the key again. Filler that is not a letter or
// a digit ("Q.x.7.m") needs none of this: the skeleton drops it.

// shuffled decodes the key-like tokens of st: runs of letters, digits and
// - _ . holding at least 2·MinRun letters and digits, not all small
// letters (keyClasses).
func (sr *searcher) shuffled(st *stream) {
	s := st.b
	for i := 0; i < len(s); {
		if !keyByte(s[i]) {
			i++
			continue
		}
		j, n, digits := i, 0, 0
		var cls uint16
		for j < len(s) && keyByte(s[j]) {
			if isAlnumByte(s[j]) {
				n++
				cls |= classes[s[j]]
				if isDigit(s[j]) {
					digits++
				}
			}
			j++
		}
		if n >= 2*MinRun && keyClasses(cls, n, digits) {
			sr.unshuffle(st, i, j)
		}
		i = j
	}
}

func keyByte(c byte) bool { return isAlnumByte(c) || c == '-' || c == '_' || c == '.' }

// keyClasses reports whether the letters and digits of a token, of byte
// classes cls, digits of its n letters and digits being digits, may be a
// key's: capitals among them, or a fifth of digits or more among small
// letters ("orders_499_created_at_idx" is a name).
func keyClasses(cls uint16, n, digits int) bool {
	return cls&cUpper != 0 || cls&cLower != 0 && 5*digits >= n
}

// unshuffle emits the pair swaps and strides of the token s[i:j].
func (sr *searcher) unshuffle(st *stream, i, j int) {
	s := st.b
	for a := range 2 {
		bd := newBuilder(st, j-i)
		for k := i + a; k+1 < j; k += 2 {
			bd.add(s[k+1], k+1, k+2)
			bd.add(s[k], k, k+1)
		}
		sr.child(bd.stream("pairs swapped"), 0)
	}
	for _, stride := range []int{2, 3} {
		for a := range stride {
			bd := newBuilder(st, (j-i)/stride+1)
			for k := i + a; k < j; k += stride {
				bd.add(s[k], k, k+1)
			}
			sr.child(bd.stream("interleaved"), 0)
		}
	}
}
