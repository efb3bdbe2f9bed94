package agents

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/compact-eval/compact-eval/internal/quantity"
)

// The reference agent reads a figure in any unit, scale or locale: a
// pattern written for "50 rows/s" finds "3000 rows/min" and "50 filas/s",
// one written for "128,?000 tokens" finds "128.000 tokens". When a pattern
// finds nothing its clause affirms in the context as written, it is tried
// on renderings of each unit of the context whose figures are respelled
// (package internal/quantity): once with every figure as a plain number
// (no thousands marks, a decimal point) in its unit's usual spelling, and
// once per unit of each dimension the unit's figures have (s, ms, min, h;
// B, KB, MB, GB, KiB, MiB, GiB; a rate per s, min and h), where the figure
// converts to a number of at most three decimals. The words around a
// figure stay, so a match is judged in its clause as before.

// figureTargets are the units a figure of each dimension is rendered in.
var figureTargets = map[string][]string{
	"time":    {"s", "ms", "min", "h"},
	"bytes":   {"B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB"},
	"percent": {"%"},
	"tokens":  {"tokens"},
}

// rateTargets are the denominators a rate is rendered with.
var rateTargets = []string{"s", "min", "h"}

// figureView is a view's respelled renderings, built on the first pattern
// that needs them.
type figureView struct {
	once sync.Once
	v    *view
}

// figures returns the view of v's respelled units (nil when none of its
// units holds a figure to respell).
func (v *view) figures() *view {
	v.figs.once.Do(func() {
		var units []string
		for _, u := range v.units {
			units = append(units, respellings(u)...)
		}
		if len(units) == 0 {
			return
		}
		f := &view{units: units}
		var b strings.Builder
		for i, u := range units {
			if i > 0 {
				b.WriteByte('\n')
			}
			f.starts = append(f.starts, b.Len())
			b.WriteString(u)
		}
		f.joined = b.String()
		f.texts = make([]lazyText, len(units))
		f.ascii = false // MayMatch is not worth its while here
		f.noFigures = true
		v.figs.v = f
	})
	return v.figs.v
}

// respellings returns text with its figures respelled (see above); none
// when it holds no figure with a known unit or a number in a locale form.
func respellings(text string) []string {
	qs := quantity.Parse(text)
	var fig []quantity.Quantity
	for _, q := range qs {
		// a figure with a unit (respelled in English), or a number
		// written with marks (41.206.553, 1,5)
		if !math.IsNaN(q.Value) && (q.Unit != "" || strings.ContainsAny(q.Text, ",. '\u00a0\u202f")) {
			fig = append(fig, q)
		}
	}
	if len(fig) == 0 {
		return nil
	}
	render := func(f func(q quantity.Quantity) string) string {
		var b strings.Builder
		last := 0
		for _, q := range fig {
			b.WriteString(text[last:q.Start])
			b.WriteString(f(q))
			last = q.End
		}
		b.WriteString(text[last:])
		return b.String()
	}
	out := []string{render(func(q quantity.Quantity) string { return plainFigure(q.Value, q.Unit) })}
	seen := map[string]bool{out[0]: true, text: true}
	for _, target := range targetsOf(fig) {
		s := render(func(q quantity.Quantity) string {
			if v, ok := convert(q, target); ok {
				return plainFigure(v, target)
			}
			return plainFigure(q.Value, q.Unit)
		})
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// targetsOf lists the units the figures fig may be rendered in.
func targetsOf(fig []quantity.Quantity) []string {
	var out []string
	seen := map[string]bool{}
	for _, q := range fig {
		var ts []string
		if num, den, ok := strings.Cut(q.Unit, "/"); ok {
			for _, d := range rateTargets {
				if den != d {
					ts = append(ts, num+"/"+d)
				}
			}
		} else {
			for _, units := range figureTargets {
				if q.Unit != "" && quantity.SameDimension(q.Unit, units[0]) {
					ts = append(ts, units...)
				}
			}
		}
		for _, t := range ts {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// convert returns q in unit target, when they measure the same thing and
// the value needs at most three decimals.
func convert(q quantity.Quantity, target string) (float64, bool) {
	if q.Unit == "" || !quantity.SameDimension(q.Unit, target) {
		return 0, false
	}
	v := quantity.Base(q.Value, q.Unit) / quantity.Base(1, target)
	r := math.Round(v*1000) / 1000
	if r == 0 || math.Abs(r-v) > 1e-9*math.Abs(v) {
		return 0, false
	}
	return r, true
}

// plainFigure renders v in unit the usual way: a plain number, and the
// unit's usual spelling, counted things in English and plural ("50
// rows/s", "80%", "30 s", "768 MiB").
func plainFigure(v float64, unit string) string {
	n := plain(v)
	if unit == "" {
		return n
	}
	return n + spelledUnit(quantity.Canon(unit), v)
}

func plain(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func spelledUnit(canon string, v float64) string {
	if canon == "%" {
		return "%"
	}
	num, den, rate := strings.Cut(canon, "/")
	if !quantity.Known(num) && v != 1 && !strings.HasSuffix(num, "s") {
		num += "s" // rows, replicas
	}
	if rate {
		return " " + num + "/" + den
	}
	return " " + num
}
