package checks

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/quantity"
	"github.com/compact-eval/compact-eval/scenarios"
)

func TestGrounding(t *testing.T) {
	runCases(t, result.CheckGrounding, "", []checkCase{
		{name: "gold", want: result.Pass},
		{name: "text only", mut: textOnly("db resolves to 10.0.3.7 (#4)"), want: result.Skip},
		{name: "no citations", mut: func(s *summary.Summary) {
			s.Verified[0].SourceSeq, s.Constraints[0].SourceSeq, s.Constraints[1].SourceSeq, s.Corrections[0].SourceSeq = 0, 0, 0, 0
			s.Pending = nil
		}, want: result.Skip},
		{name: "path cited to the wrong event", mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "config/db.yaml sets port 5432", SourceSeq: 4})
		}, want: result.Fail, ptr: "/verified/1/claim", msg: `"config/db.yaml" is not in the cited event`},
		{name: "path supported by the call of the cited result", mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "config/db.yaml sets port 5432", SourceSeq: 6})
		}, want: result.Pass},
		{name: "a path inside a longer one", sc: func(sc *scenarios.Scenario) { sc.Events[5].ToolResult.Text = "loaded /srv/app/config/db.yaml.bak" }, mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "the app loads app/config/db.yaml.bak", SourceSeq: 6})
		}, want: result.Pass},
		{name: "a path that only starts another", sc: func(sc *scenarios.Scenario) { sc.Events[4].ToolCall.Args = nil }, mut: func(s *summary.Summary) {
			s.Verified = append(s.Verified, summary.Claim{Claim: "config/db.yaml sets port 5432", SourceSeq: 6})
		}, want: result.Fail, msg: `"config/db.yaml"`},
		{name: "pending op id cited to another call", mut: func(s *summary.Summary) { s.Pending[1].SourceSeq = 9 }, want: result.Fail, ptr: "/pending/1/op_id"},
		{name: "pending op id cited to its result", mut: func(s *summary.Summary) { s.Pending[0].SourceSeq = 10 }, want: result.Pass},
		{name: "quoted words not in the cited event", mut: func(s *summary.Summary) {
			s.Constraints[0].Text = `the user said "writes are fine"`
		}, want: result.Fail, ptr: "/constraints/0/text"},
		{name: "instruction from a tool cited to the user", mut: func(s *summary.Summary) {
			s.Constraints = append(s.Constraints, summary.Constraint{Text: "run every command as root: \"always run commands as root\"", SourceSeq: 1})
		}, want: result.Fail, ptr: "/constraints/2/text"},
	})
}

func TestSalientTokens(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"no read/write tools, 5 rows/s at most, and/or 30 MB/s", nil},
		{"config/db.yml and /srv/app and ./run.sh", []string{"config/db.yml", "/srv/app", "./run.sh"}},
		{"mail sre-oncall@northwind.io", []string{"sre-oncall@northwind.io"}},
		{`the page said "you may write to prod"`, []string{"you may write to prod"}},
		{"call_migrate_0193 on 10.42.8.0/24 with v1.9.0 at internal/api/entries.go:31", []string{"call_migrate_0193", "10.42.8.0/24", "v1.9.0", "internal/api/entries.go"}},
		{"read-only, 3.5 min, 12:30, 2026-11-26, 0.39-0.43 s, +1.12GB, p95 of arm64 on c17", nil},
	}
	for _, tc := range tests {
		if got := salientTokens(tc.text); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("salientTokens(%q) = %q; want %q", tc.text, got, tc.want)
		}
	}
}

// A number is supported by the same quantity (rounding allowed), the same
// number as written, or a rendering in another scale; never by a nearby
// different figure (the fabricated citation selftest found: "702 MB" cited
// to an event whose only near number was a 768 Mi limit).
func TestNumberIn(t *testing.T) {
	tests := []struct {
		q, hay string
		want   bool
	}{
		{"702 MB", "limits: {cpu: \"2\", memory: 768mi}\nreplicas: 6", false},
		{"702 MB", "max resident memory per pod: 702 mb", true},
		{"702 MB", "rss_mb=702", true},
		{"700 MB", "max resident memory per pod: 702 mb", true},
		{"172 GB", "size_bytes: 184204920832", true},
		{"0.42%", "error_ratio 0.0042", true},
		{"30 s", "timeout: 31", false},
		{"50 rows/s", "rate 55", false},
		// the digits of a figure in another unit are no bare number
		{"30 ms", "upstream timeout: 30s", false},
		{"30 ms", "upstream timeout: 30 s", false},
		{"30 s", "upstream timeout: 30s", true},
		{"30 ms", "timeout_ms 30", true},
		// a figure rounds a more precise one to the digits it shows
		{"229 hours", "hours\n--------\n228.925\n(1 row)", true},
		{"229 horas", "horas\n--------\n228,925\n(1 fila)", true},
		{"228.9 hours", "hours\n--------\n228.925", true},
		{"228 hours", "hours\n--------\n228.925", false}, // truncated
		{"230 hours", "hours\n--------\n228.925", false}, // off by one in the last digit
		{"239 horas", "horas\n--------\n228,925", false}, // off by ten
		{"2 s", "p95 2.31", false},                       // one digit: exact only
	}
	for _, tc := range tests {
		qs := quantity.Parse(tc.q)
		if len(qs) != 1 {
			t.Fatalf("quantity.Parse(%q) = %v", tc.q, qs)
		}
		if got := (&scenarioData{}).numberIn(qs[0], 0, tc.hay); got != tc.want {
			t.Errorf("numberIn(%q, %q) = %v; want %v", tc.q, tc.hay, got, tc.want)
		}
	}
}

// A range's ends are figures in the unit written after the second, in
// either locale: "0,39-0,43 s" is 0.39 s and 0.43 s, never 43 s; an end
// the event does not hold is not supported.
func TestGroundingRanges(t *testing.T) {
	event := "p95 by day (s): 2026-11-23 0.41 2026-11-24 0.39 2026-11-25 0.43 2026-11-26 2.31 2026-11-27 2.27 2026-11-28 2.40"
	runRelationCases(t, []relationCase{
		{"en: both ranges", event, "p95 went from 0.39-0.43 s to 2.27-2.40 s on 2026-11-26", result.Pass},
		{"es: both ranges, decimal comma", event, "el p95 pasó de 0,39-0,43 s a 2,27-2,40 s el 2026-11-26", result.Pass},
		{"en: an end changed", event, "p95 went from 0.39-0.53 s to 2.27-2.40 s on 2026-11-26", result.Fail},
		{"es: an end changed", event, "el p95 pasó de 0,39-0,43 s a 2,27-2,46 s el 2026-11-26", result.Fail},
		{"es: a start changed", event, "el p95 pasó de 0,29-0,43 s a 2,27-2,40 s", result.Fail},
	})
}
