package quantity

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	type vu struct {
		V float64
		U string
	}
	tests := []struct {
		name string
		in   string
		want []vu
	}{
		{"comma thousands", "budget 50,000 tokens", []vu{{50000, "tokens"}}},
		{"space thousands", "budget 50 000 tokens", []vu{{50000, "tokens"}}},
		{"nbsp thousands", "budget 50\u00a0000 tokens", []vu{{50000, "tokens"}}},
		{"plain", "budget 50000 tokens", []vu{{50000, "tokens"}}},
		{"k suffix", "budget 50k tokens", []vu{{50000, "tokens"}}},
		{"seconds spelled", "30 s, 30 sec, 30 segundos, 30 seconds, 30s", []vu{{30, "s"}, {30, "s"}, {30, "s"}, {30, "s"}, {30, "s"}}},
		{"percent spelled", "80 %, 80%, 80 percent, 80 por ciento", []vu{{80, "%"}, {80, "%"}, {80, "%"}, {80, "%"}}},
		{"millis", "timeout 30 ms", []vu{{30, "ms"}}},
		{"decimal comma", "1,5 s", []vu{{1.5, "s"}}},
		{"decimal dot", "0.75 h", []vu{{0.75, "h"}}},
		{"groups then decimals", "1,234,567.25 s and 12.5 ms and 3,5 s", []vu{{1234567.25, "s"}, {12.5, "ms"}, {3.5, "s"}}},
		{"ids are not numbers", "op c17 and v1.2 at config/v2", nil},
		{"bare number", "port 6432", []vu{{6432, ""}}},
		{"unknown unit word", "3 replicas", []vu{{3, "replica"}}},
		{"rate", "50 rows/s", []vu{{50, "row/s"}}},
		{"hyphenated unit", "a 128,000-token context and a 30-second timeout", []vu{{128000, "tokens"}, {30, "s"}}},
		{"hyphen before a word is not a unit", "3-replicas", []vu{{3, ""}}},
		{"rate spelled", "50 rows per second and 3000 filas por minuto", []vu{{50, "row/s"}, {3000, "row/min"}}},
		{"megabytes", "702 MB, 702MB", []vu{{702, "MB"}, {702, "MB"}}},
		{"million suffix", "2M tokens", []vu{{2e6, "tokens"}}},
		{"a spaced M is a million, not minutes", "1921 M filas", []vu{{1921, "million"}}},
		{"a duration in spaced parts", "1 h 5 min 22 s, then 3 min 28 s and 9 days 13 hours", []vu{{3922, "s"}, {208, "s"}, {229, "h"}}},
		{"a decimal part ends a duration", "1.5 s 200 ms", []vu{{1.5, "s"}, {200, "ms"}}},
		{"amounts in words", "one percent, five minutes, tres minutos y medio, two and a half hours", []vu{{1, "%"}, {5, "min"}, {3.5, "min"}, {2.5, "h"}}},
		{"a number word with no unit it knows stays words", "one file, uno de ellos, twenty replicas", nil},
		{"date is a number and a word", "12 de diciembre", []vu{{12, "de"}}},
		{"ip address is not a quantity", "10.0.3.7", []vu{{10.0, ""}}},
		{"key:value with a unit", "anon-rss:786420kB memory:768Mi timeout:30s", []vu{{786420, "KB"}, {768, "MiB"}, {30, "s"}}},
		{"key:value without a unit, a port, a time", "host:8080 at 12:30 s", []vu{{12, ""}}},
		{"kubernetes suffixes, lower-cased only when glued", "768mi, 2gi, 768Mi and 3 mi", []vu{{768, "MiB"}, {2, "GiB"}, {768, "MiB"}, {3, "mi"}}},
		{"a number after # is an identifier", "[#30 assistant] lag 30 s, issue #42 rows, step #3", []vu{{30, "s"}}},
		{"a transcript marker before a quantity", "[#23 user] cap the rate at 50 rows/s", []vu{{50, "row/s"}}},
		{"four leading digits take no thousands group", "1234 567 rows", []vu{{1234, ""}, {567, "row"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []vu
			for _, q := range Parse(tc.in) {
				got = append(got, vu{q.Value, q.Unit})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		name   string
		a      float64
		ua     string
		b      float64
		ub     string
		wantEq bool
	}{
		{"same", 30, "s", 30, "seconds", true},
		{"converted", 30, "s", 30000, "ms", true},
		{"unit swap", 30, "s", 30, "ms", false},
		{"percent", 80, "%", 80, "por ciento", true},
		{"different value", 80, "%", 8, "%", false},
		{"dimension differs", 30, "s", 30, "%", false},
		{"bare vs unit", 30, "", 30, "s", false},
		{"unknown plural", 3, "replicas", 3, "replica", true},
		{"rate converted", 50, "rows/s", 3000, "rows/min", true},
		{"rate unit swap", 50, "rows/s", 50, "rows/min", false},
		{"close is not equal", 30, "s", 30.1, "s", false},
		{"short word keeps its s", 2, "bus", 2, "bu", false},
		{"count word in Spanish", 50, "filas/s", 50, "rows/s", true},
		{"count word in Spanish, converted", 3000, "peticiones/min", 50, "requests/s", true},
		{"count word abbreviated", 3, "réplicas", 3, "replicas", true},
		{"different count words", 50, "filas/s", 50, "files/s", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Equal(tc.a, tc.ua, tc.b, tc.ub); got != tc.wantEq {
				t.Errorf("Equal(%v %s, %v %s) = %v; want %v", tc.a, tc.ua, tc.b, tc.ub, got, tc.wantEq)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add("50,000 tokens and 30 ms and 1,5 s")
	f.Fuzz(func(t *testing.T, s string) {
		for _, q := range Parse(s) {
			if q.Start < 0 || q.End > len(s) || q.Start >= q.End || s[q.Start:q.End] != q.Text {
				t.Fatalf("bad span %+v in %q", q, s)
			}
		}
	})
}

// Acronym units keep their final s: CVSS 9.0 is not "9.0 cvs", and 3000
// IOPS equals 3000 iops but not 3000 iop.
func TestAcronymUnitsStayWhole(t *testing.T) {
	for _, tc := range []struct{ unit, canon string }{
		{"CVSS", "cvss"}, {"IOPS", "iops"}, {"iops", "iops"}, {"TPS", "tps"}, {"RPS", "rps"}, {"kbps", "kbps"},
		{"Replicas", "replica"}, {"rows", "row"}, {"ops", "ops"},
	} {
		if got := Canon(tc.unit); got != tc.canon {
			t.Errorf("Canon(%q) = %q; want %q", tc.unit, got, tc.canon)
		}
	}
	qs := Parse("severity 9.0 CVSS, 3000 IOPS")
	if len(qs) != 2 || qs[0].Unit != "cvss" || qs[1].Unit != "iops" {
		t.Fatalf("Parse = %+v", qs)
	}
	if !Equal(3000, "IOPS", 3000, "iops") || Equal(9, "CVSS", 9, "cvs") {
		t.Error("acronym units compare by their whole word")
	}
}

// info remembers infoOf; what it remembers is what infoOf says.
func TestInfoCache(t *testing.T) {
	for _, u := range []string{"", " s ", "ms", "MB", "rows/s", "Replicas", "CVSS", "IOPS", "filas/min", "por ciento", "GiB", "x/", "/y", "tokens"} {
		for range 2 {
			if got, want := info(u), infoOf(u); got != want {
				t.Errorf("info(%q) = %+v; infoOf says %+v", u, got, want)
			}
		}
	}
}
