// Package quantity finds numbers with units in free text and compares them
// by value and unit, whatever the usual spelling: "50,000 tokens",
// "50 000 tokens", "50000 tokens" and "50k tokens" are one quantity; so are
// "30 s", "30 sec", "30 segundos" and "30 seconds", and "80 %", "80%",
// "80 percent" and "80 por ciento".
//
// Units of one dimension convert (30 s = 30000 ms = 0.5 min; 1.5 GiB =
// 1536 MiB = 1536Mi) because they state the same fact; units of different
// dimensions never compare equal (30 ms is not 30 s). A unit the package
// does not know is compared by its lower-cased word, with a plural "s"
// removed, except from an acronym (CVSS, IOPS, TPS, RPS are never
// de-pluralised).
//
// Numbers are read in either locale: 41,206,553 = 41.206.553 =
// 41 206 553, and 1,5 s = 1.5 s. A figure that only the locale can decide
// ("1.500", "128,000": one mark followed by three digits) is read in the
// locale its text shows (see Locale); when the text shows none, it keeps
// both readings and Same accepts either.
//
// Same compares two figures as written, with the rounding their precision
// allows across units (1791Mi is "1.8 GiB"); Equal compares two exact
// values. The rules are on Same.
package quantity

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Quantity is a number with its unit, as found in text.
type Quantity struct {
	// Value is the number as written (50k → 50000), before unit conversion.
	// For a figure with two readings (see Alt) it is the English one: a
	// comma groups thousands ("1,500" → 1500), a point marks decimals
	// ("1.500" → 1.5).
	Value float64
	// Unit is the canonical unit name ("s", "ms", "%", "tokens", …); "" for a
	// bare number.
	Unit string
	// Text is the span of text the quantity was read from.
	Text string
	// Start and End are byte offsets of Text in the parsed string.
	Start, End int
	// Ulp is the place of the last digit written, in Value's scale: 0.1 for
	// "1.8 GiB", 1 for "1791Mi", 1000 for "50k". Same lets a figure in
	// another unit round to it. Zero means exact: no rounding is allowed.
	Ulp float64
	// Alt is the other reading of a figure its text leaves ambiguous
	// ("1.500 s" in a text that shows no locale: 1.5 or 1500), with AltUlp
	// its last digit's place; 0 when the figure has one reading.
	Alt, AltUlp float64
}

// unitInfo is a canonical unit: its dimension and its size in the
// dimension's base unit. twin is the size of the unit's binary reading, for
// a decimal byte prefix that many tools and people use for the binary one
// (GB for GiB); 0 when there is none.
type unitInfo struct {
	canon  string
	dim    string
	factor float64
	twin   float64
}

var units = map[string]unitInfo{}

func def(canon, dim string, factor float64, aliases ...string) {
	for _, a := range append(aliases, canon) {
		units[a] = unitInfo{canon: canon, dim: dim, factor: factor}
	}
}

// defBytes defines a decimal byte prefix with its binary twin.
func defBytes(canon string, factor, twin float64, aliases ...string) {
	for _, a := range append(aliases, canon) {
		units[a] = unitInfo{canon: canon, dim: "bytes", factor: factor, twin: twin}
	}
}

func init() {
	def("s", "time", 1, "sec", "secs", "second", "seconds", "segundo", "segundos", "seg", "segs")
	def("ms", "time", 1e-3, "msec", "msecs", "millisecond", "milliseconds", "milisegundo", "milisegundos", "mseg")
	def("us", "time", 1e-6, "µs", "μs", "usec", "microsecond", "microseconds", "microsegundo", "microsegundos")
	def("ns", "time", 1e-9, "nanosecond", "nanoseconds", "nanosegundo", "nanosegundos")
	def("min", "time", 60, "m", "mins", "minute", "minutes", "minuto", "minutos")
	def("h", "time", 3600, "hr", "hrs", "hour", "hours", "hora", "horas")
	def("d", "time", 86400, "day", "days", "dia", "dias", "día", "días")
	def("%", "percent", 1, "percent", "per cent", "pct", "por ciento", "porciento", "por cien")
	def("tokens", "tokens", 1, "token", "tok", "toks")
	def("B", "bytes", 1, "b", "byte", "bytes")
	defBytes("KB", 1e3, 1<<10, "kb", "kB", "kilobyte", "kilobytes")
	defBytes("MB", 1e6, 1<<20, "mb", "megabyte", "megabytes")
	defBytes("GB", 1e9, 1<<30, "gb", "gigabyte", "gigabytes")
	defBytes("TB", 1e12, 1<<40, "tb", "terabyte", "terabytes")
	defBytes("PB", 1e15, 1<<50, "pb", "petabyte", "petabytes")
	// Binary prefixes, with the Kubernetes suffixes (Ki, Mi, Gi, …), which
	// are matched with their case only: "mi" is not a unit.
	def("KiB", "bytes", 1<<10, "kib", "Ki", "kibibyte", "kibibytes")
	def("MiB", "bytes", 1<<20, "mib", "Mi", "mebibyte", "mebibytes")
	def("GiB", "bytes", 1<<30, "gib", "Gi", "gibibyte", "gibibytes")
	def("TiB", "bytes", 1<<40, "tib", "Ti", "tebibyte", "tebibytes")
	def("PiB", "bytes", 1<<50, "pib", "Pi", "pebibyte", "pebibytes")
}

// ToolUnits are the units a tool's bare figure is often written in (a
// column "ttft_ms", a header "dur=31"): a check may read a bare number as
// an amount in one of them of a quantity's dimension.
var ToolUnits = []string{"ms", "s", "min", "h", "B", "KB", "MB", "GB", "KiB", "MiB", "GiB"}

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
		r := unitInfo{canon: a.canon + "/" + b.canon, dim: a.dim + "/" + b.dim, factor: a.factor / b.factor}
		if a.twin != 0 {
			r.twin = a.twin / b.factor
		}
		return r
	}
	if i, ok := units[u]; ok {
		return i
	}
	l := strings.ToLower(u)
	if u == "M" {
		// a million (1921 M rows), never a minute
		return unitInfo{canon: "million", dim: "word:million", factor: 1}
	}
	if i, ok := units[l]; ok {
		return i
	}
	if w, ok := countWords[l]; ok {
		return unitInfo{canon: w, dim: "word:" + w, factor: 1}
	}
	if plural(u, l) {
		l = strings.TrimSuffix(l, "s")
	}
	if w, ok := countWords[l]; ok {
		l = w
	}
	return unitInfo{canon: l, dim: "word:" + l, factor: 1}
}

// countWords names, in English, the things a figure counts that an agent's
// session often counts, in each spelling of both languages: "50 filas/s"
// is "50 rows/s", "3 réplicas" is "3 replicas". Any other word is compared
// as itself.
var countWords = map[string]string{}

func init() {
	for _, row := range [][]string{
		{"row", "rows", "fila", "filas", "registro", "registros"},
		{"request", "requests", "req", "reqs", "peticion", "petición", "peticiones", "solicitud", "solicitudes"},
		{"file", "files", "archivo", "archivos", "fichero", "ficheros"},
		{"user", "users", "usuario", "usuarios"},
		{"connection", "connections", "conn", "conns", "conexion", "conexión", "conexiones"},
		{"replica", "replicas", "réplica", "réplicas"},
		{"node", "nodes", "nodo", "nodos"},
		{"error", "errors", "errores"},
		{"retry", "retries", "reintento", "reintentos"},
		{"message", "messages", "msg", "msgs", "mensaje", "mensajes"},
		{"event", "events", "evento", "eventos"},
		{"query", "queries", "consulta", "consultas"},
		{"call", "calls", "llamada", "llamadas"},
		{"job", "jobs", "trabajo", "trabajos", "tarea", "tareas"},
		{"item", "items", "elemento", "elementos"},
		{"line", "lines", "linea", "línea", "lineas", "líneas"},
		{"core", "cores", "nucleo", "núcleo", "nucleos", "núcleos"},
		{"worker", "workers"},
		{"pod", "pods"},
		{"shard", "shards", "fragmento", "fragmentos"},
		{"batch", "batches", "lote", "lotes"},
		{"chunk", "chunks", "bloque", "bloques"},
	} {
		for _, w := range row {
			countWords[w] = row[0]
		}
	}
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
	if j == i && len(unit) == 2 && unit[1] == 'i' && strings.IndexByte("kmgtp", unit[0]) >= 0 {
		// a Kubernetes suffix in lower case, glued to its number: 768mi is
		// 768Mi (text folded to lower case, as the checks read it)
		unit = strings.ToUpper(unit[:1]) + "i"
	}
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
