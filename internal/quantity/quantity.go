// Package quantity finds numbers with units in free text and compares them
// by value and unit, whatever the usual spelling: "50,000 tokens",
// "50 000 tokens", "50000 tokens" and "50k tokens" are one quantity; so are
// "30 s", "30 sec", "30 segundos" and "30 seconds", and "80 %", "80%",
// "80 percent" and "80 por ciento".
//
// Units of one dimension convert (30 s = 30000 ms = 0.5 min) because they
// state the same fact; units of different dimensions never compare equal
// (30 ms is not 30 s). A unit the package does not know is compared by its
// lower-cased word, with a plural "s" removed, except from an acronym
// (CVSS, IOPS, TPS, RPS are never de-pluralised).
package quantity

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// Quantity is a number with its unit, as found in text.
type Quantity struct {
	// Value is the number as written (50k → 50000), before unit conversion.
	Value float64
	// Unit is the canonical unit name ("s", "ms", "%", "tokens", …); "" for a
	// bare number.
	Unit string
	// Text is the span of text the quantity was read from.
	Text string
	// Start and End are byte offsets of Text in the parsed string.
	Start, End int
}

// unitInfo is a canonical unit: its dimension and its size in the
// dimension's base unit.
type unitInfo struct {
	canon  string
	dim    string
	factor float64
}

var units = map[string]unitInfo{}

func def(canon, dim string, factor float64, aliases ...string) {
	for _, a := range append(aliases, canon) {
		units[a] = unitInfo{canon, dim, factor}
	}
}

func init() {
	def("s", "time", 1, "sec", "secs", "second", "seconds", "segundo", "segundos", "seg", "segs")
	def("ms", "time", 1e-3, "msec", "msecs", "millisecond", "milliseconds", "milisegundo", "milisegundos")
	def("us", "time", 1e-6, "µs", "μs", "usec", "microsecond", "microseconds", "microsegundo", "microsegundos")
	def("ns", "time", 1e-9, "nanosecond", "nanoseconds", "nanosegundo", "nanosegundos")
	def("min", "time", 60, "m", "mins", "minute", "minutes", "minuto", "minutos")
	def("h", "time", 3600, "hr", "hrs", "hour", "hours", "hora", "horas")
	def("d", "time", 86400, "day", "days", "dia", "dias", "día", "días")
	def("%", "percent", 1, "percent", "per cent", "pct", "por ciento", "porciento")
	def("tokens", "tokens", 1, "token", "tok", "toks")
	def("B", "bytes", 1, "b", "byte", "bytes")
	def("KB", "bytes", 1e3, "kb", "kilobyte", "kilobytes")
	def("MB", "bytes", 1e6, "mb", "megabyte", "megabytes")
	def("GB", "bytes", 1e9, "gb", "gigabyte", "gigabytes")
	def("TB", "bytes", 1e12, "tb", "terabyte", "terabytes")
	def("KiB", "bytes", 1024, "kib")
	def("MiB", "bytes", 1<<20, "mib")
	def("GiB", "bytes", 1<<30, "gib")
}

// multiword units, tried before single words.
var multi = []string{"per cent", "por ciento"}

// Canon returns the canonical name of a unit spelling ("segundos" → "s").
// Unknown units are lower-cased and lose a plural "s" ("Replicas" →
// "replica"); "" stays "".
func Canon(unit string) string {
	return info(unit).canon
}

// infos remembers info by unit spelling (the spelling itself is the key):
// the checks compare the same few units again and again. It is bounded by
// maxInfos, then dropped and refilled.
var (
	infos     sync.Map // string → unitInfo
	infoCount atomic.Int64
)

const maxInfos = 4096

func info(unit string) unitInfo {
	if v, ok := infos.Load(unit); ok {
		return v.(unitInfo)
	}
	i := infoOf(unit)
	if infoCount.Add(1) > maxInfos {
		infos.Clear()
		infoCount.Store(1)
	}
	infos.Store(strings.Clone(unit), i)
	return i
}

func infoOf(unit string) unitInfo {
	u := strings.TrimSpace(unit)
	if u == "" {
		return unitInfo{}
	}
	if i := strings.Index(u, "/"); i > 0 && i < len(u)-1 {
		a, b := infoOf(u[:i]), infoOf(u[i+1:])
		return unitInfo{canon: a.canon + "/" + b.canon, dim: a.dim + "/" + b.dim, factor: a.factor / b.factor}
	}
	if i, ok := units[u]; ok {
		return i
	}
	l := strings.ToLower(u)
	if i, ok := units[l]; ok {
		return i
	}
	if plural(u, l) {
		l = strings.TrimSuffix(l, "s")
	}
	return unitInfo{canon: l, dim: "word:" + l, factor: 1}
}

// plural reports whether the unknown unit u (l lower-cased) ends in a
// plural s to drop ("replicas" → "replica"). An acronym never does: all
// capitals (CVSS, IOPS), or a lower-case "…ss" or "…ps" (cvss, iops, tps,
// rps, kbps), so "CVSS 9.0" is not "9.0 cvs".
func plural(u, l string) bool {
	if len(l) <= 3 || !strings.HasSuffix(l, "s") || strings.HasSuffix(l, "ss") || strings.HasSuffix(l, "ps") {
		return false
	}
	return strings.ToUpper(u) != u
}

// Equal reports whether value a in unit ua states the same quantity as value
// b in unit ub: same dimension and the same value once converted (relative
// tolerance 1e-9).
func Equal(a float64, ua string, b float64, ub string) bool {
	ia, ib := info(ua), info(ub)
	if ia.dim != ib.dim {
		return false
	}
	x, y := a*ia.factor, b*ib.factor
	if x == y {
		return true
	}
	return math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y))
}

// Known reports whether unit (or, for a rate, one of its parts) is a unit
// the package knows, rather than any word that followed a number.
func Known(unit string) bool {
	for _, part := range strings.Split(unit, "/") {
		if d := info(part).dim; d != "" && !strings.HasPrefix(d, "word:") {
			return true
		}
	}
	return false
}

// SameDimension reports whether two units measure the same thing.
func SameDimension(ua, ub string) bool { return info(ua).dim == info(ub).dim }

// Format renders a value and unit the usual way ("30 s", "80 %",
// "50000 tokens").
func Format(v float64, unit string) string {
	n := strconv.FormatFloat(v, 'f', -1, 64)
	if unit == "" {
		return n
	}
	return n + " " + Canon(unit)
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isGroupSep(s string, i int) (size int, ok bool) {
	if i >= len(s) {
		return 0, false
	}
	switch s[i] {
	case ',', ' ', '_', '\'':
		return 1, true
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	switch r {
	case '\u00a0', '\u202f', '\u2009':
		return n, true
	}
	return 0, false
}

func isLetter(r rune) bool { return unicode.IsLetter(r) }

// Parse returns every quantity in s, in order. A number glued to a letter
// before it (c17, v1.2) is not a quantity.
func Parse(s string) []Quantity {
	var out []Quantity
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			continue
		}
		if i > 0 {
			r, _ := utf8.DecodeLastRuneInString(s[:i])
			if isLetter(r) || r == '_' || r == '.' || r == '-' || r == '/' || r == ':' || isDigit(s[i-1]) {
				// skip the rest of this digit run
				for i < len(s) && (isDigit(s[i]) || s[i] == '.') {
					i++
				}
				continue
			}
		}
		q, end := parseAt(s, i)
		out = append(out, q)
		i = end - 1
	}
	return out
}

func parseAt(s string, start int) (Quantity, int) {
	i := start
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	// num is the number's digits, a '.' for its decimal mark: s[start:i]
	// itself (no copy) until a group separator or a decimal comma is read.
	var num strings.Builder
	plain := true
	text := func() {
		if plain {
			num.WriteString(s[start:i])
			plain = false
		}
	}
	// thousands groups: a separator followed by exactly three digits.
	if i-start <= 3 {
		for {
			n, ok := isGroupSep(s, i)
			if !ok {
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
			text()
			num.WriteString(s[j:k])
			i = k
		}
	}
	// decimals: '.' or ',' followed by digits.
	if i+1 < len(s) && (s[i] == '.' || s[i] == ',') && isDigit(s[i+1]) {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if plain && s[i] == '.' {
			i = j // s[start:j] is the number as ParseFloat reads it
		} else {
			text()
			num.WriteByte('.')
			num.WriteString(s[i+1 : j])
			i = j
		}
	}
	digits := num.String()
	if plain {
		digits = s[start:i]
	}
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil {
		v = math.NaN()
	}
	end := i
	// multiplier suffix glued to the number: 50k, 2M.
	if i < len(s) && (s[i] == 'k' || s[i] == 'K' || s[i] == 'M') {
		if i+1 >= len(s) || !isWordByte(s, i+1) {
			if s[i] == 'M' {
				v *= 1e6
			} else {
				v *= 1e3
			}
			i++
			end = i
		}
	}
	unit, uend := unitAt(s, i)
	if unit != "" {
		end = uend
	}
	return Quantity{Value: v, Unit: Canon(unit), Text: s[start:end], Start: start, End: end}, end
}

func isWordByte(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isLetter(r) || isDigit(s[i])
}

// unitAt reads a unit starting at i, after at most one space.
func unitAt(s string, i int) (string, int) {
	j := i
	if j < len(s) {
		if n, ok := isSpace(s, j); ok {
			j += n
		}
	}
	if j >= len(s) {
		return "", i
	}
	// "a 30-second timeout", "a 128,000-token context": a hyphen before a
	// unit the package knows.
	if j == i && s[j] == '-' {
		if w, end := word(s, j+1); w != "" && Known(w) {
			return w, end
		}
		return "", i
	}
	if s[j] == '%' {
		return "%", j + 1
	}
	rest := strings.ToLower(s[j:min(len(s), j+16)])
	for _, m := range multi {
		if strings.HasPrefix(rest, m) && (j+len(m) == len(s) || !isWordByte(s, j+len(m))) {
			return m, j + len(m)
		}
	}
	k := j
	for k < len(s) {
		r, n := utf8.DecodeRuneInString(s[k:])
		if !isLetter(r) && r != 'µ' {
			break
		}
		k += n
	}
	if k == j || (k < len(s) && isDigit(s[k])) {
		return "", i
	}
	unit := s[j:k]
	// a rate: rows/s, MB/s, "rows per second", "filas por segundo".
	den, end := "", k
	switch {
	case k+1 < len(s) && s[k] == '/':
		den, end = word(s, k+1)
	case strings.HasPrefix(s[k:], " per "):
		den, end = word(s, k+5)
	case strings.HasPrefix(s[k:], " por ") && !strings.HasPrefix(s[k:], " por ciento"):
		den, end = word(s, k+5)
	}
	if den != "" && (Known(den)) {
		return unit + "/" + den, end
	}
	return unit, k
}

// word reads a run of letters at i.
func word(s string, i int) (string, int) {
	k := i
	for k < len(s) {
		r, n := utf8.DecodeRuneInString(s[k:])
		if !isLetter(r) && r != 'µ' {
			break
		}
		k += n
	}
	return s[i:k], k
}

func isSpace(s string, i int) (int, bool) {
	if s[i] == ' ' {
		return 1, true
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == '\u00a0' || r == '\u202f' || r == '\u2009' {
		return n, true
	}
	return 0, false
}

// Base returns v in unit converted to its dimension's base unit (30 ms →
// 0.03 s; 2 GB → 2e9 B); an unknown unit leaves v as it is.
func Base(v float64, unit string) float64 {
	if f := info(unit).factor; f != 0 {
		return v * f
	}
	return v
}
