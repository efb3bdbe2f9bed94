package quantity

import (
	"math"
	"strconv"
	"strings"
)

// Of returns the figure v in unit as a scenario states it: its last digit
// is the last one of v's shortest decimal form (1.8 → 0.1, 1791 → 1).
func Of(v float64, unit string) Quantity {
	return Quantity{Value: v, Unit: Canon(unit), Ulp: ulpOf(v)}
}

func ulpOf(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return math.Pow10(-(len(s) - i - 1))
	}
	return 1
}

// Is reports whether q states the figure v in unit (Same(q, Of(v, unit))).
func (q Quantity) Is(v float64, unit string) bool {
	if info(q.Unit).dim != info(unit).dim {
		return false
	}
	return Same(q, Of(v, unit))
}

// Rounds reports whether q, as written, states the amount v in unit
// rounded to q's last digit: the same figure (Is), or, when q is written
// with at least two significant digits, an amount within 0.55 of q's last
// digit's place (rounding to the nearest, or twice through one more
// digit). "229 hours" rounds 228.925 hours and "1.8 GiB" rounds 1.84 GiB;
// "228 hours" (truncated), "230 hours" (off by one in the last digit) and
// "239 hours" do not, and a one-digit figure ("2 s") rounds nothing: it
// must be exact. It is the reading of a figure that reports a more
// precise one (a claim citing the output it rounds), not a comparison of
// two stated values, which is Same.
func (q Quantity) Rounds(v float64, unit string) bool {
	iq, iu := info(q.Unit), info(unit)
	if iq.dim != iu.dim {
		return false
	}
	if q.Is(v, unit) {
		return true
	}
	for _, r := range readings(q) {
		if rounds(r, iq.factor, v*iu.factor) {
			return true
		}
	}
	return false
}

// Same reports whether a and b state the same figure, as written. The rule:
//
//   - The units measure the same thing (30 s is never 30 %, nor 30 ms).
//   - In the same unit, the values are equal: 30 s is not 30.1 s, 1.8 GiB
//     is not 1.9 GiB, whatever their precision.
//   - In different units, the values are equal once converted (30 s =
//     30000 ms = 0.5 min; 1.5 GiB = 1536Mi), or one of them, written with
//     at least two significant digits, is the other rounded to its last
//     digit: within 0.55 of that digit's place, which admits rounding to
//     the nearest and rounding twice through one more digit (1791Mi is
//     1.749 GiB: "1.75 GiB", "1.7 GiB" and "1.8 GiB" state it; "1.6 GiB"
//     and "18 GiB" do not). A figure of one significant digit ("2 GB",
//     "30 s" is two) must be exact.
//   - Against a figure in a binary prefix (KiB, MiB, Mi, Gi, …), a figure
//     in a decimal prefix (kB, MB, GB, TB, PB) may also mean its binary
//     twin, as many tools and people write it: the Linux kernel's
//     "anon-rss:786420kB" is 768Mi, "1 GB" may be 1 GiB, "1.8 GB" may be
//     1791Mi. Against bytes or another decimal prefix the prefix is
//     decimal: 1551 B is not "1.515 kB", 1000 MB is not 1024 MB.
//   - A figure with two readings (Alt: "1.500 s" where the text shows no
//     locale) is the same as the other when either reading is.
//
// Ulp 0 (a Quantity built by hand) makes a figure exact: no rounding.
func Same(a, b Quantity) bool {
	ia, ib := info(a.Unit), info(b.Unit)
	if ia.dim != ib.dim {
		return false
	}
	sameUnit := ia.canon == ib.canon
	for _, x := range readings(a) {
		for _, y := range readings(b) {
			if sameUnit {
				if equalish(x.v, y.v) {
					return true
				}
				continue
			}
			if sameFigure(x, ia.factor, y, ib.factor) {
				return true
			}
			// GB for GiB: a decimal prefix read as binary, against a figure
			// in a binary prefix
			if ia.twin != 0 && binary(ib) && sameFigure(x, ia.twin, y, ib.factor) ||
				ib.twin != 0 && binary(ia) && sameFigure(x, ia.factor, y, ib.twin) {
				return true
			}
		}
	}
	return false
}

type reading struct{ v, ulp float64 }

func readings(q Quantity) []reading {
	if q.Alt == 0 {
		return []reading{{q.Value, q.Ulp}}
	}
	return []reading{{q.Value, q.Ulp}, {q.Alt, q.AltUlp}}
}

// binary reports whether i is a binary byte prefix (KiB, Mi, …), alone or
// over a time (MiB/s).
func binary(i unitInfo) bool {
	c, _, _ := strings.Cut(i.canon, "/")
	return i.dim != "" && strings.HasPrefix(i.dim, "bytes") && len(c) == 3 && c[1] == 'i' && c[2] == 'B'
}

// sameFigure compares x in a unit of size fx with y in a unit of size fy.
func sameFigure(x reading, fx float64, y reading, fy float64) bool {
	X, Y := x.v*fx, y.v*fy
	if equalish(X, Y) {
		return true
	}
	return rounds(x, fx, Y) || rounds(y, fy, X)
}

// rounds reports whether r (in a unit of size f) is the base amount v
// rounded to r's last digit; see Same.
func rounds(r reading, f, v float64) bool {
	if r.ulp <= 0 || sigDigits(r) < 2 {
		return false
	}
	return math.Abs(r.v*f-v) <= 0.55*r.ulp*f*(1+1e-9)
}

// sigDigits is the number of significant digits r is written with: 2 for
// 1.8 or 30, 4 for 1791, 1 for 2 or 0.05.
func sigDigits(r reading) int {
	n := math.Round(math.Abs(r.v) / r.ulp)
	d := 0
	for n >= 1 {
		n = math.Floor(n / 10)
		d++
	}
	return d
}

func equalish(x, y float64) bool {
	if x == y {
		return true
	}
	return math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y))
}
