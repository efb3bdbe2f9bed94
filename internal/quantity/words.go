package quantity

import (
	"strings"
	"unicode/utf8"
)

// Amounts written in words: "one percent", "five minutes", "tres minutos
// y medio", "two and a half hours". Only a number word followed by a unit
// the package knows is a quantity: "one file" stays words.

// numberWords are the number words read, in English and Spanish.
var numberWords = map[string]float64{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90,
	"uno": 1, "una": 1, "un": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8, "nueve": 9, "diez": 10,
	"once": 11, "doce": 12, "quince": 15, "veinte": 20, "treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "noventa": 90,
}

// halves after a number or its unit add a half: "two and a half hours",
// "tres minutos y medio".
var halves = []string{" and a half", " y medio", " y media"}

// wordQuantities returns the quantities of s written with a number word.
// It allocates nothing for a text that holds none.
func wordQuantities(s string) []Quantity {
	var out []Quantity
	var buf [8]byte
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isLetter(r) {
			i += n
			continue
		}
		w, end := word(s, i)
		if i > 0 && isWordByte(s, prevStart(s, i)) || len(w) > len(buf) {
			i = end
			continue
		}
		for k := 0; k < len(w); k++ {
			buf[k] = w[k] | 0x20 // ASCII lower case; accented words are no number word
		}
		v, ok := numberWords[string(buf[:len(w)])]
		if !ok {
			i = end
			continue
		}
		low := strings.ToLower(s[end:min(len(s), end+32)])
		j := 0
		if h := halves[0]; strings.HasPrefix(low, h) {
			v, j = v+0.5, len(h)
		}
		unit, uend := unitAt(s, end+j)
		if unit == "" || !Known(unit) || uend == end+j {
			i = end
			continue
		}
		rest := strings.ToLower(s[uend:min(len(s), uend+12)])
		for _, h := range halves[1:] {
			if strings.HasPrefix(rest, h) && (uend+len(h) == len(s) || !isWordByte(s, uend+len(h))) {
				v, uend = v+0.5, uend+len(h)
			}
		}
		out = append(out, Quantity{Value: v, Unit: Canon(unit), Text: s[i:uend], Start: i, End: uend, Ulp: ulpOfWords(v)})
		i = uend
	}
	return out
}

// ulpOfWords is the precision of an amount in words: a half when it has
// one, else a unit.
func ulpOfWords(v float64) float64 {
	if v != float64(int(v)) {
		return 0.5
	}
	return 1
}

// prevStart returns the byte offset of the rune before offset i.
func prevStart(s string, i int) int {
	_, n := utf8.DecodeLastRuneInString(s[:i])
	return i - n
}

// mergeSpaced joins a duration written in spaced parts ("1 h 5 min 22 s",
// "3 min 28 s", "9 days 13 hours"): figures of time, each unit smaller than
// the one before, every part but the last a whole number, with nothing but
// spaces between, become one quantity in the last part's unit ("1 s and
// 12.5 ms" stays two).
func mergeSpaced(s string, qs []Quantity) []Quantity {
	merge := false
	for k := 0; k+1 < len(qs) && !merge; k++ {
		merge = info(qs[k].Unit).dim == "time" && info(qs[k+1].Unit).dim == "time"
	}
	if !merge {
		return qs
	}
	out := qs[:0:0]
	for k := 0; k < len(qs); k++ {
		q := qs[k]
		base, prev := 0.0, 0.0
		if i := info(q.Unit); i.dim == "time" && q.Alt == 0 {
			base, prev = q.Value*i.factor, i.factor
		}
		j := k
		for prev > 0 && j+1 < len(qs) {
			n := qs[j+1]
			ni := info(n.Unit)
			whole := qs[j].Value == float64(int64(qs[j].Value))
			if ni.dim != "time" || ni.factor >= prev || n.Alt != 0 || !whole || strings.TrimSpace(s[qs[j].End:n.Start]) != "" {
				break
			}
			base += n.Value * ni.factor
			prev = ni.factor
			j++
		}
		if j == k {
			out = append(out, q)
			continue
		}
		last := qs[j]
		out = append(out, Quantity{Value: base / info(last.Unit).factor, Unit: last.Unit, Text: s[q.Start:last.End], Start: q.Start, End: last.End, Ulp: last.Ulp})
		k = j
	}
	return out
}

// withWords adds to qs, the quantities of s in digits, those written with
// a number word, in order.
func withWords(s string, qs []Quantity) []Quantity {
	ws := wordQuantities(s)
	if len(ws) == 0 {
		return qs
	}
	out := make([]Quantity, 0, len(qs)+len(ws))
	i, j := 0, 0
	for i < len(qs) || j < len(ws) {
		if j == len(ws) || i < len(qs) && qs[i].Start < ws[j].Start {
			out = append(out, qs[i])
			i++
		} else {
			out = append(out, ws[j])
			j++
		}
	}
	return out
}
