package quantity

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Locale is how a text writes its numbers.
type Locale int8

const (
	// AnyLocale: the text does not say; an ambiguous figure keeps both
	// readings (see Parse).
	AnyLocale Locale = iota
	// DecimalPoint: 1,234,567.5 (English).
	DecimalPoint
	// DecimalComma: 1.234.567,5 (Spanish and most of Europe).
	DecimalComma
)

func (l Locale) String() string {
	switch l {
	case DecimalPoint:
		return "decimal point"
	case DecimalComma:
		return "decimal comma"
	}
	return "any"
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isLetter(r rune) bool { return unicode.IsLetter(r) }

// spaceGroup returns the size of a space-like thousands separator at i
// (space, no-break space, narrow and thin spaces, '_', '\”), 0 if none.
func spaceGroup(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	switch s[i] {
	case ' ', '_', '\'':
		return 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	switch r {
	case '\u00a0', '\u202f', '\u2009':
		return n
	}
	return 0
}

// number is a figure read from text, before its unit.
type number struct {
	v, ulp      float64
	alt, altUlp float64 // the thousands/decimal reading left open; alt 0: none
	// sep is the mark of an ambiguous figure (',' or '.'), 0 when it has
	// one reading.
	sep byte
	// style is the locale the figure's own marks show (1,234.5 or
	// 41,206,553: DecimalPoint; 1.234,5, 41.206.553 or 0,500:
	// DecimalComma); weak is set when only a decimal mark shows it (2.5,
	// 1,5), which a version number or a list can also be.
	style Locale
	weak  bool
}

// readNumber reads the figure whose first digit is s[start].
//
// Thousands groups are a separator and exactly three digits: one kind of
// separator per figure (',', '.', or a space-like one), after a leading
// group of one to three digits that does not start with 0. A decimal part
// is the other mark (or either, after space groups or none) and its
// digits. "1.234.5" and "10.100.200.1" are dotted names, not groups: they
// read as the decimal 1.234 and 10.100, as before this package read dots
// as groups.
func readNumber(s string, start int) (number, int) {
	i := start
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	lead := i - start
	var b []byte // the digits with '.' for the decimal mark, when not s[start:i]
	plain := true
	flush := func() {
		if plain {
			b = append(b, s[start:i]...)
			plain = false
		}
	}
	var sep byte // ',', '.', or ' ' for any space-like separator
	groups := 0
	firstGroupEnd := 0
	if lead <= 3 && s[start] != '0' {
		for i < len(s) {
			n, kind := 0, byte(0)
			switch {
			case s[i] == ',' || s[i] == '.':
				n, kind = 1, s[i]
			default:
				if n = spaceGroup(s, i); n > 0 {
					kind = ' '
				}
			}
			if n == 0 || (sep != 0 && kind != sep) {
				break
			}
			j := i + n
			k := j
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			if k-j != 3 {
				break
			}
			flush()
			b = append(b, s[j:k]...)
			sep = kind
			groups++
			i = k
			if groups == 1 {
				firstGroupEnd = k
			}
		}
	}
	if sep == '.' && i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		// a dotted name (10.100.200.1): the first group is a decimal part
		v, _ := strconv.ParseFloat(s[start:firstGroupEnd], 64)
		return number{v: v, ulp: 1e-3}, firstGroupEnd
	}
	decimals := 0
	var mark byte
	if i+1 < len(s) && (s[i] == '.' || s[i] == ',') && s[i] != sep && isDigit(s[i+1]) {
		mark = s[i]
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		decimals = j - i - 1
		if plain && mark == '.' {
			i = j // s[start:j] is the number as ParseFloat reads it
		} else {
			flush()
			b = append(b, '.')
			b = append(b, s[i+1:j]...)
			i = j
		}
	}
	var digits string
	if plain {
		digits = s[start:i]
	} else {
		digits = string(b)
	}
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil {
		v = math.NaN()
	}
	num := number{v: v, ulp: math.Pow10(-decimals)}
	switch {
	case groups == 1 && mark == 0 && (sep == ',' || sep == '.'):
		// "1,500" or "1.500": thousands or three decimals
		num.sep = sep
		thousands, dec := v, v/1000
		if sep == ',' {
			num.v, num.ulp, num.alt, num.altUlp = thousands, 1, dec, 1e-3
		} else {
			// v was read as 1500: the English reading is 1.5
			num.v, num.ulp, num.alt, num.altUlp = dec, 1e-3, thousands, 1
		}
	case sep == ',' && (groups >= 2 || mark == '.'):
		num.style = DecimalPoint
	case sep == '.' && (groups >= 2 || mark == ','):
		num.style = DecimalComma
	case mark != 0 && (decimals != 3 || s[start] == '0' || lead > 3):
		// 2.5, 1,5, 0,500, 1234,567: only a decimal mark says it
		num.style, num.weak = DecimalPoint, true
		if mark == ',' {
			num.style = DecimalComma
		}
	}
	return num, i
}

// Parse returns every quantity in s, in order. A number glued to a letter
// before it (c17, v1.2) is not a quantity.
//
// A figure whose mark only a locale can decide ("1.500 s", "128,000
// tokens": one ',' or '.' and three digits) is read in the locale s shows
// (DetectLocale); failing that, a count of whole things (tokens, bytes, a
// word such as rows or filas) reads it as thousands, and any other figure
// keeps both readings (Value and Alt).
func Parse(s string) []Quantity { return ParseLocale(s, AnyLocale) }

// ParseLocale is Parse with the locale given: AnyLocale reads it from s,
// as Parse does; a caller that knows a longer text (a whole document) can
// pass DetectLocale of that text for its short fields.
func ParseLocale(s string, loc Locale) []Quantity {
	return withWords(s, mergeSpaced(s, parseDigits(s, loc)))
}

// parseDigits returns the quantities of s written in digits, each read in
// its locale.
func parseDigits(s string, loc Locale) []Quantity {
	out, ambiguous, point, comma := scan(s)
	if !ambiguous {
		return out
	}
	if loc == AnyLocale {
		loc = pick(s, point, comma)
	}
	for k := range out {
		q := &out[k]
		if q.Alt == 0 {
			continue
		}
		// which mark: the English reading (Value) is the larger for ','
		isComma := q.Value > q.Alt
		// a figure that counts whole things groups thousands whatever the
		// locale: "50,000 tokens" in a Spanish text is fifty thousand,
		// never fifty to the thousandth
		thousands := counts(q.Unit) || loc == DecimalPoint && isComma || loc == DecimalComma && !isComma
		if loc == AnyLocale && !thousands {
			continue // both readings stay
		}
		if thousands != isComma {
			q.Value, q.Ulp = q.Alt, q.AltUlp
		}
		q.Alt, q.AltUlp = 0, 0
	}
	return out
}

// DetectLocale returns the locale s writes its numbers in: the one its
// figures show by their marks (41.206.553, 1.234,5 and 1,5 s against
// 41,206,553, 1,234.5 and 1.5 s; a bare decimal such as a version number
// does not count), or, when they show none or both, the language of its
// words (Spanish: decimal comma; English: decimal point); AnyLocale when
// neither says.
func DetectLocale(s string) Locale {
	_, _, point, comma := scan(s)
	return pick(s, point, comma)
}

func pick(s string, point, comma int) Locale {
	switch {
	case point > 0 && comma == 0:
		return DecimalPoint
	case comma > 0 && point == 0:
		return DecimalComma
	}
	return languageLocale(s)
}

// skipRun returns the end of the digit run at i, with its marks: the
// rest of a name's number or of a figure already read.
func skipRun(s string, i int) int {
	for i < len(s) && (isDigit(s[i]) || (s[i] == '.' || s[i] == ',') && i+1 < len(s) && isDigit(s[i+1])) {
		i++
	}
	return i
}

// scan reads every quantity in s; ambiguous says whether one of them has
// two readings, point and comma count the figures whose marks show a
// locale.
func scan(s string) (out []Quantity, ambiguous bool, point, comma int) {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			continue
		}
		keyed := false // key:value, as in anon-rss:786420kB or memory:768Mi
		if i > 0 {
			r, _ := utf8.DecodeLastRuneInString(s[:i])
			keyed = r == ':' && i > 1 && isLetter(lastRune(s[:i-1]))
			// #30 numbers a thing (an event of a transcript, an issue, a
			// step): an identifier, never an amount of the word after it.
			afterDigit := i > 1 && isDigit(s[i-2])
			if !keyed && (isLetter(r) || r == '_' || r == '.' || r == '-' || r == '/' || r == ':' || r == '#' || isDigit(s[i-1]) || r == ',' && afterDigit) {
				// skip the rest of this digit run, its decimal part
				// included: "2026-11-26", "v1.2", the "0,43" of a range
				// whose start was read ("0,39-0,43")
				i = skipRun(s, i)
				continue
			}
		}
		q, num, end := parseAt(s, i)
		if keyed && !Known(q.Unit) {
			// a port (host:8080) or a name's number: not a quantity
			i = skipRun(s, i)
			continue
		}
		if q.Unit == "" && end+1 < len(s) && s[end] == '-' && isDigit(s[end+1]) && num.sep == 0 {
			// a range "0.39-0.43 s", "0,39-0,43 s", "2-3 GiB": both ends
			// are in the unit written after the second; a date
			// (2026-11-26) or a name's parts take no unit and stay bare
			if q2, num2, end2 := parseAt(s, end+1); Known(q2.Unit) && num2.sep == 0 {
				q.Unit = q2.Unit
				for _, n := range []number{num, num2} {
					if n.style == DecimalPoint {
						point++
					} else if n.style == DecimalComma {
						comma++
					}
				}
				out = append(out, q, q2)
				i = end2 - 1
				continue
			}
		}
		if num.sep != 0 {
			ambiguous = true
		}
		if num.style != AnyLocale && (!num.weak || Known(q.Unit)) {
			if num.style == DecimalPoint {
				point++
			} else {
				comma++
			}
		}
		out = append(out, q)
		i = end - 1
	}
	return out, ambiguous, point, comma
}

// Function words of each language: a text with at least two of one and
// more than twice as many as of the other is in that language.
var (
	spanishWords = wordSet("el la los las del que es son está están una un para con por se y pero más como al lo de en su sus fue era")
	englishWords = wordSet("the of and to is are was were for with that this it on at by from be in its has have")
)

func wordSet(ws string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(ws) {
		m[w] = true
	}
	return m
}

// languageLocale returns the locale of the language s is written in, by
// its function words; AnyLocale when they do not say.
func languageLocale(s string) Locale {
	es, en := 0, 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isLetter(r) {
			i += n
			continue
		}
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !isLetter(r) {
				break
			}
			j += n
		}
		if j-i <= 6 {
			w := strings.ToLower(s[i:j])
			if spanishWords[w] {
				es++
			}
			if englishWords[w] {
				en++
			}
		}
		i = j
	}
	switch {
	case es >= 2 && es > 2*en:
		return DecimalComma
	case en >= 2 && en > 2*es:
		return DecimalPoint
	}
	return AnyLocale
}

// counts reports whether unit counts whole things, so a figure in it is
// never a fraction: tokens, bytes, or a word that is no known unit (rows,
// filas, files).
func counts(unit string) bool {
	i := info(unit)
	return i.dim == "tokens" || i.canon == "B" || strings.HasPrefix(i.dim, "word:") && !strings.Contains(i.dim, "/")
}

// parseAt reads the quantity whose first digit is s[start].
func parseAt(s string, start int) (Quantity, number, int) {
	num, i := readNumber(s, start)
	end := i
	// multiplier suffix glued to the number: 50k, 2M.
	if i < len(s) && (s[i] == 'k' || s[i] == 'K' || s[i] == 'M') {
		if i+1 >= len(s) || !isWordByte(s, i+1) {
			m := 1e3
			if s[i] == 'M' {
				m = 1e6
			}
			num.v, num.ulp, num.alt, num.altUlp = num.v*m, num.ulp*m, num.alt*m, num.altUlp*m
			i++
			end = i
		}
	}
	unit, uend := unitAt(s, i)
	if unit != "" {
		end = uend
	} else if v, ulp, u, cend, ok := compound(s, i, num.v); ok {
		// 1h30m, 2m30s, 1m30.5s: a duration in parts, in its last unit
		num = number{v: v, ulp: ulp}
		unit, end = u, cend
	}
	q := Quantity{Value: num.v, Unit: Canon(unit), Text: s[start:end], Start: start, End: end, Ulp: num.ulp, Alt: num.alt, AltUlp: num.altUlp}
	return q, num, end
}

// compound reads a duration written in parts glued together (1h30m,
// 2m30s, 1h0m0s, 1m30.5s) whose first part's number v ends at i. It
// returns the total in the last part's unit, each part's unit smaller than
// the one before.
func compound(s string, i int, v float64) (total, ulp float64, unit string, end int, ok bool) {
	w, k := word(s, i)
	u, known := units[w]
	if !known || u.dim != "time" || k >= len(s) || !isDigit(s[k]) {
		return 0, 0, "", 0, false
	}
	base, prev := v*u.factor, u.factor
	for {
		num, j := readNumber(s, k)
		w, k = word(s, j)
		u, known = units[w]
		if num.alt != 0 || !known || u.dim != "time" || u.factor >= prev {
			return 0, 0, "", 0, false
		}
		base += num.v * u.factor
		prev = u.factor
		if k >= len(s) || !isDigit(s[k]) {
			if k < len(s) && isWordByte(s, k) {
				return 0, 0, "", 0, false
			}
			return base / u.factor, num.ulp, u.canon, k, true
		}
	}
}

func isWordByte(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isLetter(r) || isDigit(s[i])
}
