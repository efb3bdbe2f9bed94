package quantity

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// one parses text and returns its only quantity.
func one(t *testing.T, text string) Quantity {
	t.Helper()
	qs := Parse(text)
	if len(qs) != 1 {
		t.Fatalf("Parse(%q) = %+v; want one quantity", text, qs)
	}
	return qs[0]
}

// The same amount in every unit, scale and spelling is one figure.
func TestSameFigureAcrossUnits(t *testing.T) {
	tests := []struct{ a, b string }{
		// bytes: decimal, binary, Kubernetes suffixes
		{"1 KiB", "1024 B"},
		{"1Ki", "1 KiB"},
		{"1 kB", "1000 bytes"},
		{"1 KB", "1 kB"},
		{"1536Mi", "1.5 GiB"},
		{"1.5Gi", "1536 MiB"},
		{"512Mi", "0.5 GiB"},
		{"2 GiB", "2048Mi"},
		{"1 TiB", "1024 GiB"},
		{"1Ti", "1048576Mi"},
		{"1 TB", "1000 GB"},
		{"1 PB", "1000 TB"},
		{"1 PiB", "1024Ti"},
		{"2.5 GB", "2500 MB"},
		{"702 MB", "702000 kB"},
		{"3 gigabytes", "3 GB"},
		// rounded to the precision shown
		{"1791Mi", "1.8 GiB"},
		{"1791Mi", "1.75 GiB"},
		{"1791Mi", "1.7 GiB"},
		{"1.8 GiB", "1843 MiB"},
		{"1.5 GB", "1536 MB"},
		{"1.5 GB", "1536 MiB"}, // GB for GiB
		{"512 MB", "512Mi"},
		{"786420kB", "768Mi"}, // the kernel's kB is KiB
		{"1 GB", "1 GiB"},
		{"1234 ms", "1.2 s"},
		{"2.1 min", "125 s"},
		{"1.8 GB", "1791Mi"},
		{"172 GB", "176128 MiB"},
		// durations, English and Spanish
		{"1500 ms", "1.5 s"},
		{"1,5 segundos", "1500 milliseconds"},
		{"30 s", "0.5 min"},
		{"30 sec", "30000 ms"},
		{"90 minutes", "1.5 hours"},
		{"1,5 horas", "90 minutos"},
		{"1h30m", "90 min"},
		{"2m30s", "150 seconds"},
		{"1m30.5s", "90.5 s"},
		{"2h0m0s", "7200 s"},
		{"3 days", "72 h"},
		{"250 µs", "0.25 ms"},
		// percentages
		{"80 %", "80 percent"},
		{"80%", "80 por ciento"},
		{"12.5 pct", "12,5 %"},
		// rates
		{"50 rows/s", "3000 rows/min"},
		{"50 rows per second", "50 rows/sec"},
		{"3000 filas por minuto", "50 filas/s"},
		{"2 GB/s", "2000 MB/s"},
		{"10 MiB/s", "600 MiB/min"},
		// tokens and counts
		{"128k tokens", "128,000 tokens"},
		{"128.000 tokens", "128000 tokens"},
		{"128 000 tokens", "128k tokens"},
	}
	for _, tc := range tests {
		t.Run(tc.a+" = "+tc.b, func(t *testing.T) {
			a, b := one(t, tc.a), one(t, tc.b)
			if !Same(a, b) || !Same(b, a) {
				t.Errorf("Same(%q, %q) = false; want true (%+v, %+v)", tc.a, tc.b, a, b)
			}
		})
	}
}

// A different figure is never the same, whatever its unit: off by ten,
// digits swapped, a unit swapped, a rounding to the wrong digit.
func TestDifferentFigures(t *testing.T) {
	tests := []struct{ a, b string }{
		{"1.8 GiB", "18 GiB"},
		{"1.8 GiB", "18432 MiB"},
		{"30 s", "30 ms"},
		{"30 s", "300 s"},
		{"30 s", "3000 ms"},
		{"1791Mi", "1719Mi"},
		{"1791Mi", "1719 MiB"},
		{"1791Mi", "1.6 GiB"},
		{"1791Mi", "1.9 GiB"},
		{"1791Mi", "17.5 GiB"},
		{"1.8 GiB", "1.9 GiB"},
		{"1.8 GiB", "1.7 GiB"}, // same unit: exact
		{"30 s", "30.1 s"},
		{"30 s", "29000 ms"},
		{"2 GB", "2.1 GB"},
		{"1000 MB", "1024 MB"},
		{"1551 B", "1.515 kB"},     // a precise figure's prefix is decimal
		{"1.5 GB", "1610612736 B"}, // against bytes, GB is decimal
		{"1.8 GB", "1.8 TiB"},
		{"1 GiB", "1.4 GB"}, // one significant digit: exact only
		{"2 min", "125 s"},
		{"1.5 GB", "15 GB"},
		{"1.5 GB", "1.5 MB"},
		{"1.5 GB", "150 MB"},
		{"50 rows/s", "50 rows/min"},
		{"50 rows/s", "500 rows/s"},
		{"80 %", "8 %"},
		{"80 %", "0.8 %"},
		{"1h30m", "130 min"},
		{"128k tokens", "12,800 tokens"},
		{"41.206.553 rows", "41,260,553 rows"},
		{"41 206 553 rows", "14 206 553 rows"},
		{"30 s", "30 %"},
		{"30", "30 s"},
	}
	for _, tc := range tests {
		t.Run(tc.a+" ≠ "+tc.b, func(t *testing.T) {
			a, b := one(t, tc.a), one(t, tc.b)
			if Same(a, b) || Same(b, a) {
				t.Errorf("Same(%q, %q) = true; want false (%+v, %+v)", tc.a, tc.b, a, b)
			}
		})
	}
}

// Every locale's way of writing a number reads as the number.
func TestLocaleForms(t *testing.T) {
	tests := []struct {
		text string
		v    float64
		unit string
	}{
		{"41.206.553 filas", 41206553, "row"},
		{"41,206,553 rows", 41206553, "row"},
		{"41 206 553 rows", 41206553, "row"},
		{"41\u00a0206\u00a0553 rows", 41206553, "row"},
		{"41\u202f206\u202f553 rows", 41206553, "row"},
		{"41_206_553 rows", 41206553, "row"},
		{"41'206'553 rows", 41206553, "row"},
		{"128.000 tokens", 128000, "tokens"},
		{"128,000 tokens", 128000, "tokens"},
		{"1.500 B", 1500, "B"},
		{"1,5 s", 1.5, "s"},
		{"0,500 s", 0.5, "s"},
		{"0.500 s", 0.5, "s"},
		{"1.234.567,25 ms", 1234567.25, "ms"},
		{"1,234,567.25 ms", 1234567.25, "ms"},
		{"1 234 567,25 ms", 1234567.25, "ms"},
		{"1.500,5 MB", 1500.5, "MB"},
		{"1,500.5 MB", 1500.5, "MB"},
		{"1234,5 ms", 1234.5, "ms"},
		// the text shows its locale: by a figure's marks …
		{"el límite: 41.206.553 filas; espera 1.500 ms", 0, ""},
		// … or by its words
		{"el tiempo de espera es de 1.500 ms", 1500, "ms"},
		{"the timeout is 1.500 ms", 1.5, "ms"},
		{"el tiempo de espera es de 1,500 s", 1.5, "s"},
		{"the timeout is 1,500 s", 1500, "s"},
		{"waited 2.5 s, then 1,500 ms", 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			qs := Parse(tc.text)
			if tc.unit == "" { // several figures: the last is 1500 ms
				q := qs[len(qs)-1]
				if q.Value != 1500 || q.Unit != "ms" || q.Alt != 0 {
					t.Errorf("Parse(%q) last = %+v; want 1500 ms, one reading", tc.text, q)
				}
				return
			}
			if len(qs) != 1 || qs[0].Value != tc.v || qs[0].Unit != tc.unit || qs[0].Alt != 0 {
				t.Errorf("Parse(%q) = %+v; want %v %s with one reading", tc.text, qs, tc.v, tc.unit)
			}
		})
	}
}

// An ambiguous figure in a text that shows no locale keeps both readings,
// and Same accepts either; a text that shows its locale decides it, so a
// figure 1000 times off cannot hide behind the other locale there. Both
// directions: the ambiguous figure as the summary's and as the source's.
func TestAmbiguousFigures(t *testing.T) {
	q := one(t, "timeout: 1.500 ms")
	if q.Value != 1.5 || q.Alt != 1500 {
		t.Fatalf("1.500 ms with no locale = %+v; want 1.5 and 1500", q)
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		// no locale shown: either reading, in both directions
		{"timeout: 1.500 ms", "1500 ms", true},
		{"timeout: 1.500 ms", "1.5 ms", true},
		{"timeout: 1,500 s", "1.5 s", true},
		{"timeout: 1,500 s", "1500 s", true},
		{"timeout: 1.500 s", "timeout: 1,500 s", true},
		{"1500 ms", "timeout: 1.500 ms", true},
		// but never a third figure
		{"timeout: 1.500 ms", "15 ms", false},
		{"timeout: 1.500 ms", "150 ms", false},
		{"timeout: 1.500 ms", "1.5 s", true}, // = 1500 ms
		{"timeout: 1.500 ms", "15 s", false},
		// the text's locale decides: an English text's "1.500 ms" is 1.5 ms
		{"the timeout is 1.500 ms", "1500 ms", false},
		{"1500 ms", "the timeout is 1.500 ms", false},
		{"the timeout is 1,500 s", "1500 ms", false},
		{"el tiempo de espera es de 1,500 s", "1500 ms", true},
		{"el tiempo de espera es de 1,500 s", "1500 s", false},
		{"el tiempo de espera es de 1.500 ms", "1.5 ms", false},
		{"waited 2.5 s; the timeout is 1.500 ms", "1500 ms", false},
		{"esperó 2,5 s; el timeout: 1.500 ms", "1500 ms", true},
		// counts are whole: 128.000 tokens is never 128 tokens
		{"limit 128.000 tokens", "128 tokens", false},
		{"limit 128.000 tokens", "128k tokens", true},
		// whatever the text's language or the locale its other figures show
		{"mantener el contexto por debajo de 50,000 tokens", "50000 tokens", true},
		{"mantener el contexto por debajo de 50,000 tokens", "50 tokens", false},
		{"esperó 2,5 s; el límite es 50,000 tokens", "50k tokens", true},
		{"keep the context under 50.000 tokens", "50000 tokens", true},
		{"el lote es de 1,500 filas", "1500 filas", true},
		// a unit that is no count keeps the locale's reading
		{"esperó 2,5 s; el timeout: 1,500 s", "1.5 s", true},
	} {
		t.Run(tc.a+" | "+tc.b, func(t *testing.T) {
			a, b := lastQ(tc.a), lastQ(tc.b)
			if got := Same(a, b); got != tc.same || Same(b, a) != tc.same {
				t.Errorf("Same(%q, %q) = %v; want %v (%+v, %+v)", tc.a, tc.b, got, tc.same, a, b)
			}
		})
	}
}

func lastQ(s string) Quantity {
	qs := Parse(s)
	return qs[len(qs)-1]
}

func TestDetectLocale(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Locale
	}{
		{"41.206.553 rows", DecimalComma},
		{"41,206,553 rows", DecimalPoint},
		{"1.234,5 ms", DecimalComma},
		{"1,234.5 ms", DecimalPoint},
		{"took 1,5 s", DecimalComma},
		{"took 1.5 s", DecimalPoint},
		{"Python 3.12 and 1,2,3", AnyLocale}, // a version and a list say nothing
		{"el despliegue de la versión nueva", DecimalComma},
		{"the rollout of the new version", DecimalPoint},
		{"timeout 1.500 ms", AnyLocale},
		{"the rollout: 1,5 s", DecimalComma}, // a figure outweighs words
	} {
		if got := DetectLocale(tc.text); got != tc.want {
			t.Errorf("DetectLocale(%q) = %v; want %v", tc.text, got, tc.want)
		}
	}
	// a caller that knows the whole document's locale passes it for a field
	if q := ParseLocale("1.500 ms", DecimalComma); q[0].Value != 1500 || q[0].Alt != 0 {
		t.Errorf("ParseLocale(1.500 ms, comma) = %+v", q)
	}
	if q := ParseLocale("1.500 ms", DecimalPoint); q[0].Value != 1.5 || q[0].Alt != 0 {
		t.Errorf("ParseLocale(1.500 ms, point) = %+v", q)
	}
}

// Of and Is compare a scenario's figure (a number and a unit) with one
// found in text.
func TestIs(t *testing.T) {
	for _, tc := range []struct {
		text string
		v    float64
		unit string
		want bool
	}{
		{"limit 1.8 GiB", 1791, "Mi", true},
		{"limit 1791Mi", 1.8, "GiB", true},
		{"limit 18 GiB", 1791, "Mi", false},
		{"tope de 128.000 tokens", 128000, "tokens", true},
		{"tope de 128.000 tokens", 128, "tokens", false},
		{"30 ms", 30, "s", false},
		{"0,5 min", 30, "s", true},
		{"30 s", 30, "%", false},
	} {
		if got := lastQ(tc.text).Is(tc.v, tc.unit); got != tc.want {
			t.Errorf("%q Is(%v %s) = %v; want %v", tc.text, tc.v, tc.unit, got, tc.want)
		}
	}
	if got := Of(1.8, "GiB"); got.Ulp != 0.1 && math.Abs(got.Ulp-0.1) > 1e-12 {
		t.Errorf("Of(1.8).Ulp = %v", got.Ulp)
	}
}

// What FuzzFigure renders: a dimension, its units (every spelling), and a
// sentence in each language.
var fuzzDims = []struct {
	units []string // spellings, each followed by its size in the base unit
	sizes []float64
}{
	{[]string{"ms", "milliseconds", "s", "sec", "seconds", "segundos", "min", "minutes", "minutos", "h", "hours", "horas"},
		[]float64{1e-3, 1e-3, 1, 1, 1, 1, 60, 60, 60, 3600, 3600, 3600}},
	{[]string{"B", "bytes", "kB", "KB", "KiB", "Ki", "MB", "MiB", "Mi", "GB", "GiB", "Gi", "TB", "TiB", "Ti"},
		[]float64{1, 1, 1e3, 1e3, 1 << 10, 1 << 10, 1e6, 1 << 20, 1 << 20, 1e9, 1 << 30, 1 << 30, 1e12, 1 << 40, 1 << 40}},
	{[]string{"%", "percent", "por ciento", "pct"}, []float64{1, 1, 1, 1}},
	{[]string{"rows/s", "rows per second", "rows/sec", "rows/min", "rows per minute", "rows/h"},
		[]float64{1, 1, 1, 1.0 / 60, 1.0 / 60, 1.0 / 3600}},
}

// render writes v with decimals digits after its mark (-1: as many as it
// takes) in a locale's format, inside a sentence of that locale's language.
func render(v float64, decimals int, unit string, style int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	group := func(sep string) string {
		var b strings.Builder
		for i, r := range intPart {
			if i > 0 && (len(intPart)-i)%3 == 0 {
				b.WriteString(sep)
			}
			b.WriteRune(r)
		}
		return b.String()
	}
	var n, sentence string
	switch style % 5 {
	case 0: // plain, English
		n, sentence = s, "the limit is %s and it was set by the team"
	case 1: // English groups
		n, sentence = group(","), "the limit is %s and it was set by the team"
		if frac != "" {
			n += "." + frac
		}
	case 2: // Spanish groups, decimal comma
		n, sentence = group("."), "el límite es de %s y lo fijó el equipo"
		if frac != "" {
			n += "," + frac
		}
	case 3: // space groups, decimal comma
		n, sentence = group("\u00a0"), "el límite es de %s y lo fijó el equipo"
		if frac != "" {
			n += "," + frac
		}
	case 4: // plain, decimal comma
		n, sentence = strings.Replace(s, ".", ",", 1), "el límite es de %s y lo fijó el equipo"
	}
	return fmt.Sprintf(sentence, n+" "+unit)
}

// twins reports whether one unit is a decimal byte prefix and the other a
// binary one, where Same reads a coarse decimal figure either way.
func twins(a, b string) bool {
	ia, ib := info(a), info(b)
	return ia.twin != 0 && binary(ib) || ib.twin != 0 && binary(ia)
}

// FuzzFigure converts a random amount through random units and locale
// formats: every rendering, exact or rounded to two or more significant
// digits, is the same figure; the amount off by ten, or with two of its
// digits swapped, is not.
func FuzzFigure(f *testing.F) {
	f.Add(uint64(1791), uint8(1), uint8(8), uint8(10), uint8(0), uint8(2), uint8(3))
	f.Add(uint64(1500), uint8(0), uint8(0), uint8(2), uint8(1), uint8(2), uint8(0))
	f.Add(uint64(128000), uint8(1), uint8(0), uint8(3), uint8(2), uint8(1), uint8(5))
	f.Add(uint64(30), uint8(0), uint8(2), uint8(0), uint8(4), uint8(3), uint8(1))
	f.Fuzz(func(t *testing.T, n uint64, dim, ua, ub, sa, sb, seed uint8) {
		d := fuzzDims[int(dim)%len(fuzzDims)]
		n = n%1_000_000_000 + 1
		ia, ib := int(ua)%len(d.units), int(ub)%len(d.units)
		// the amount: n of unit a
		va := float64(n)
		base := va * d.sizes[ia]
		vb := base / d.sizes[ib]
		if vb < 1e-6 || vb > 1e15 || va > 1e15 {
			t.Skip()
		}
		textA := render(va, -1, d.units[ia], int(sa))
		a := lastQ(textA)
		exactB := lastQ(render(vb, -1, d.units[ib], int(sb)))
		if !Same(a, exactB) {
			t.Fatalf("%q and %q state one amount; Same says no (%+v, %+v)", textA, render(vb, -1, d.units[ib], int(sb)), a, exactB)
		}
		// rounded to two or more significant digits, in another format
		if dec := 1 + int(seed)%3 - int(math.Floor(math.Log10(vb))); dec >= 0 && dec <= 12 {
			textB := render(vb, dec, d.units[ib], int(sb)+int(seed))
			if b := lastQ(textB); !Same(a, b) {
				t.Fatalf("%q rounds %q; Same says no (%+v, %+v)", textB, textA, b, a)
			}
		}
		// off by ten
		for _, k := range []float64{10, 0.1} {
			wrong := render(va*k, -1, d.units[ia], int(sa))
			if w := lastQ(wrong); Same(w, exactB) {
				t.Fatalf("%q is ten times off %q; Same says yes (%+v, %+v)", wrong, textA, w, exactB)
			}
		}
		// two adjacent different digits swapped
		digits := strconv.FormatUint(n, 10)
		r := rand.New(rand.NewPCG(n, uint64(seed)))
		for range 3 {
			if len(digits) < 2 {
				break
			}
			i := r.IntN(len(digits) - 1)
			if digits[i] == digits[i+1] || (i == 0 && digits[1] == '0') {
				continue
			}
			sw := []byte(digits)
			sw[i], sw[i+1] = sw[i+1], sw[i]
			m, _ := strconv.ParseFloat(string(sw), 64)
			if math.Abs(m-va)*d.sizes[ia] <= 0.6*ulpOf(vb)*d.sizes[ib] {
				continue // b is written too coarse to tell them apart (27 min for 1602 s)
			}
			wrong := render(m, -1, d.units[ia], int(sa))
			against := exactB
			if twins(d.units[ia], d.units[ib]) {
				// "178 MB" may be 178 MiB, which 187 MB is: compare in bytes
				against = lastQ(render(base, -1, d.units[0], int(sb)))
			}
			if w := lastQ(wrong); Same(w, against) {
				t.Fatalf("%q has two digits of %q swapped; Same says yes (%+v, %+v)", wrong, textA, w, exactB)
			}
		}
	})
}

// A figure that reports a more precise one rounds it to the digits it
// shows; truncation, an off-by-one last digit or a figure ten away does
// not, nor does a one-digit figure. English and Spanish forms.
func TestRounds(t *testing.T) {
	for _, tc := range []struct {
		text string
		v    float64
		unit string
		want bool
	}{
		{"229 hours", 228.925, "h", true},
		{"229 horas", 228.925, "h", true},
		{"228,9 horas", 228.925, "h", true},
		{"228.93 hours", 228.925, "h", true},
		{"228 hours", 228.925, "h", false},  // truncated
		{"230 hours", 228.925, "h", false},  // off by one in the last digit
		{"239 horas", 228.925, "h", false},  // off by ten
		{"219 hours", 228.925, "h", false},  // off by ten
		{"228.9 hours", 228.925, "", false}, // a unit against a bare figure's dimension
		{"9.5 days", 228.925, "h", true},
		{"9.6 days", 228.925, "h", false},
		{"2 s", 2.31, "s", false}, // one digit: exact only
		{"2.3 s", 2.31, "s", true},
		{"2,3 s", 2.31, "s", true},
		{"2.4 s", 2.31, "s", false},
		{"30 ms", 30, "s", false},
		{"1.8 GiB", 1791, "Mi", true},
	} {
		if got := lastQ(tc.text).Rounds(tc.v, tc.unit); got != tc.want {
			t.Errorf("%q Rounds(%v %s) = %v; want %v", tc.text, tc.v, tc.unit, got, tc.want)
		}
	}
}

// A range gives both its ends the unit written after the second, in
// either locale; a decimal comma inside a range is no figure of its own
// ("0,39-0,43 s" is not 43 s); a date takes no unit.
func TestRanges(t *testing.T) {
	type vu struct {
		V float64
		U string
	}
	for _, tc := range []struct {
		in   string
		want []vu
	}{
		{"0.39-0.43 s", []vu{{0.39, "s"}, {0.43, "s"}}},
		{"0,39-0,43 s", []vu{{0.39, "s"}, {0.43, "s"}}},
		{"de 2,27-2,40 s", []vu{{2.27, "s"}, {2.4, "s"}}},
		{"2-3 GiB", []vu{{2, "GiB"}, {3, "GiB"}}},
		{"since 2026-11-26", []vu{{2026, ""}}},
		{"3-5 replicas", []vu{{3, ""}}},
		{"host-1,5 s", nil},
	} {
		var got []vu
		for _, q := range Parse(tc.in) {
			got = append(got, vu{q.Value, q.Unit})
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}
