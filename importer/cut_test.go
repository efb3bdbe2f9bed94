package importer_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/internal/testkit/suggestions"
	"github.com/compact-eval/compact-eval/scenarios"
)

func TestParseCut(t *testing.T) {
	tests := []struct {
		in   string
		want importer.Cut
		err  string
	}{
		{in: "45", want: importer.Cut{Seq: 45}},
		{in: " 7 ", want: importer.Cut{Seq: 7}},
		{in: "0.9", want: importer.Cut{Fraction: 0.9}},
		{in: "1.0", want: importer.Cut{Fraction: 1}},
		{in: "90%", want: importer.Cut{Fraction: 0.9}},
		{in: "100%", want: importer.Cut{Fraction: 1}},
		{in: "12.5%", want: importer.Cut{Fraction: 0.125}},
		{in: "", want: importer.Cut{}},
		{in: "0", err: "a seq is 1 or more"},
		{in: "-3", err: "a seq is 1 or more"},
		{in: "1.5", err: "at most 1"},
		{in: "0.0", err: "above 0"},
		{in: "150%", err: "at most 100%"},
		{in: "0%", err: "above 0%"},
		{in: "two thirds", err: "neither an event's seq"},
		{in: "NaN", err: "neither an event's seq"},
		{in: "1e3", err: "at most 1"},
	}
	for _, tc := range tests {
		got, err := importer.ParseCut(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseCut(%q) = %v, %v; want an error with %q", tc.in, got, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("ParseCut(%q): %v", tc.in, err)
		case tc.err == "" && got != tc.want:
			t.Errorf("ParseCut(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
		if tc.err == "" && !got.IsZero() {
			back, err := importer.ParseCut(got.String())
			if err != nil || back != got {
				t.Errorf("ParseCut(%q).String() = %q reads back as %+v, %v", tc.in, got.String(), back, err)
			}
		}
	}
}

// cutSession is nine events: a user turn, then four calls each followed
// by its result. A cut after a call (seq 2, 4, 6, 8) splits it from its
// result.
const cutSession = `[
 {"role": "user", "content": "Rename the config keys."},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{\"path\": \"a.toml\"}"}}]},
 {"role": "tool", "tool_call_id": "c1", "content": "x = 1"},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "read", "arguments": "{\"path\": \"b.toml\"}"}}]},
 {"role": "tool", "tool_call_id": "c2", "content": "y = 2"},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "c3", "type": "function", "function": {"name": "write", "arguments": "{\"path\": \"a.toml\"}"}}]},
 {"role": "tool", "tool_call_id": "c3", "content": "ok"},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "c4", "type": "function", "function": {"name": "write", "arguments": "{\"path\": \"b.toml\"}"}}]},
 {"role": "tool", "tool_call_id": "c4", "content": "ok"}
]`

func TestCutOption(t *testing.T) {
	cases := []struct {
		cut  importer.Cut
		want int
	}{
		{importer.Cut{}, 5},               // the default: near two thirds (6), moved before the call at 6
		{importer.Cut{Seq: 3}, 3},         // a seq is taken as asked
		{importer.Cut{Seq: 9}, 9},         // the whole session
		{importer.Cut{Fraction: 0.5}, 5},  // 4.5 rounds to 5, which splits nothing
		{importer.Cut{Fraction: 0.9}, 7},  // 8 splits the call at 8: moved earlier
		{importer.Cut{Fraction: 1}, 9},    // the whole session, tail and all
		{importer.Cut{Fraction: 0.05}, 1}, // at least one event
	}
	for _, tc := range cases {
		_, rep := importString(t, cutSession, importer.Options{Format: importer.FormatOpenAI, Cut: tc.cut})
		if rep.Cut != tc.want {
			t.Errorf("--cut %q: cut at %d, want %d", tc.cut, rep.Cut, tc.want)
		}
	}
	var out bytes.Buffer
	if _, err := importer.Import(strings.NewReader(cutSession), &out, importer.Options{Format: importer.FormatOpenAI, Cut: importer.Cut{Seq: 3}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "# The cut is after seq 3, as --cut asked.\ncompaction: {at: [3]}") {
		t.Errorf("the scenario does not say where --cut placed the cut:\n%s", out.String())
	}

	refused := []struct {
		name, input string
		opts        importer.Options
		err         string
	}{
		{"a seq that splits a call from its result", cutSession, importer.Options{Format: importer.FormatOpenAI, Cut: importer.Cut{Seq: 6}},
			"--cut 6 splits the call at seq 6 from its result at seq 7: cut at 5 or 7 instead"},
		{"a seq past the events", cutSession, importer.Options{Format: importer.FormatOpenAI, Cut: importer.Cut{Seq: 10}},
			"--cut 10: the session has 9 events"},
		{"a fraction out of range", cutSession, importer.Options{Format: importer.FormatOpenAI, Cut: importer.Cut{Fraction: 1.5}},
			"at most 1"},
		{"a log that records its compactions", readFixture(t, "claude-code_compactions.jsonl"), importer.Options{Cut: importer.Cut{Fraction: 0.5}},
			"the log records its compactions"},
		{"a CompactBench case", readFixture(t, "compactbench/buried_constraint.json"), importer.Options{Cut: importer.Cut{Seq: 2}},
			"a CompactBench case is cut before its final question"},
	}
	for _, tc := range refused {
		var out bytes.Buffer
		_, err := importer.Import(strings.NewReader(tc.input), &out, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.err)
		}
		if out.Len() > 0 {
			t.Errorf("%s: refused, yet wrote %d bytes", tc.name, out.Len())
		}
	}
}

func readFixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("../testdata/import/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A structured call's retry corrects a value at a call, an assistant
// event; the suggestion's source_seq must be a tool's event, as a
// correction's may be, so that the accepted suggestion lints. Seen first
// with --cut past the retries of a tau-bench session, which the default
// cut had kept in the tail.
func TestStructuredCorrectionSourceIsATool(t *testing.T) {
	call := func(id, cabin string) string {
		return `{"role": "assistant", "content": null, "tool_calls": [{"id": "` + id + `", "type": "function", "function": {"name": "update_reservation_flights", "arguments": "{\"reservation_id\": \"K2ZQ7P\", \"cabin\": \"` + cabin + `\", \"payment_id\": \"credit_card_5521\"}"}}]}`
	}
	session := `[
 {"role": "user", "content": "Move reservation K2ZQ7P to the Friday flight, please."},
 ` + call("c1", "economy") + `,
 {"role": "tool", "tool_call_id": "c1", "content": "Error: no seats left in economy on flight HAT310"},
 ` + call("c2", "business") + `,
 {"role": "tool", "tool_call_id": "c2", "content": "{\"reservation_id\": \"K2ZQ7P\", \"cabin\": \"business\"}"},
 {"role": "assistant", "content": "Done: K2ZQ7P is on the Friday flight, in business."}
]`
	var out bytes.Buffer
	if _, err := importer.Import(strings.NewReader(session), &out, importer.Options{Format: importer.FormatOpenAI, Cut: importer.Cut{Fraction: 1}}); err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.LoadBytes("retry.yaml", suggestions.Accept(out.Bytes()))
	if err != nil {
		t.Fatalf("load with every suggestion: %v\n%s", err, out.String())
	}
	if errs := scenarios.LintScenario(s); len(errs) > 0 {
		t.Fatalf("an accepted suggestion does not lint: %v\n%s", errs, out.String())
	}
	var found bool
	for _, inv := range s.Invariants {
		if c, ok := inv.(*scenarios.Correction); ok {
			found = true
			if c.Old != "economy" || c.New != "business" || c.SourceSeq != 5 {
				t.Errorf("correction %s → %s at seq %d, want economy → business at seq 5 (the result of the call that tried business)", c.Old, c.New, c.SourceSeq)
			}
		}
	}
	if !found {
		t.Errorf("no correction suggested:\n%s", out.String())
	}
}
