package reports_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/otlp"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// The export's shape is OTLP JSON's: it decodes with no unknown field into
// the trace data types the importer reads; one trace, ids of 16 and 8
// bytes in hex, every span's parent in the trace, every attribute value of
// exactly one type, 64-bit integers as strings; a span per unit and per
// generation, an event per check and per probe; failing units are ERROR.
func TestOTelExportShape(t *testing.T) {
	r := small(t)
	var buf bytes.Buffer
	if err := reports.Write(&buf, r, "otel", reports.Options{}); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
	dec.DisallowUnknownFields()
	var td otlp.TracesData
	if err := dec.Decode(&td); err != nil {
		t.Fatalf("the export is not OTLP JSON: %v\n%s", err, buf.String())
	}
	if strings.Contains(buf.String(), `"intValue":1`) || strings.Contains(buf.String(), `"startTimeUnixNano":1`) {
		t.Error("a 64-bit integer is written as a number; the JSON mapping writes a string")
	}
	if len(td.ResourceSpans) != 1 || len(td.ResourceSpans[0].ScopeSpans) != 1 {
		t.Fatalf("want one resource and scope, got %+v", td)
	}
	spans := td.ResourceSpans[0].ScopeSpans[0].Spans
	ids := map[string]bool{}
	gens, checks, probes, failing := 0, 0, 0, 0
	for _, u := range r.Units {
		gens += len(u.Generations)
		probes += len(u.Probes)
		for _, g := range u.Generations {
			checks += len(g.Checks)
		}
	}
	trace := spans[0].TraceID
	for _, sp := range spans {
		if b, err := hex.DecodeString(sp.TraceID); err != nil || len(b) != 16 || sp.TraceID != trace {
			t.Errorf("span %q: trace id %q", sp.Name, sp.TraceID)
		}
		if b, err := hex.DecodeString(sp.SpanID); err != nil || len(b) != 8 || ids[sp.SpanID] {
			t.Errorf("span %q: span id %q (or repeated)", sp.Name, sp.SpanID)
		}
		ids[sp.SpanID] = true
		if sp.EndTimeUnixNano < sp.StartTimeUnixNano {
			t.Errorf("span %q ends before it starts", sp.Name)
		}
		for _, kv := range sp.Attributes {
			if n := oneOf(kv.Value); n != 1 {
				t.Errorf("span %q: attribute %s has %d values set", sp.Name, kv.Key, n)
			}
		}
		for _, e := range sp.Events {
			switch e.Name {
			case "compact_eval.check":
				checks--
			case "compact_eval.probe":
				probes--
			}
		}
		if sp.Status != nil && sp.Status.Code == otlp.StatusError && strings.HasPrefix(sp.Name, "unit ") {
			failing++
		}
	}
	for _, sp := range spans[1:] {
		if !ids[sp.ParentSpanID] {
			t.Errorf("span %q: parent %q is not in the trace", sp.Name, sp.ParentSpanID)
		}
	}
	if len(spans) != 1+len(r.Units)+gens || checks != 0 || probes != 0 {
		t.Errorf("%d spans for %d units and %d generations; %d check and %d probe events unaccounted", len(spans), len(r.Units), gens, checks, probes)
	}
	bad := 0
	for _, u := range r.Units {
		if unitBad(u) {
			bad++
		}
	}
	if failing != bad || bad == 0 {
		t.Errorf("%d unit spans are ERROR, want %d (the fixture must have some)", failing, bad)
	}
	// The reader the importer uses reads it back, span for span.
	n := 0
	if err := otlp.Read(bytes.NewReader(buf.Bytes()), func(_ *otlp.ResourceSpans, _ *otlp.ScopeSpans, _ *otlp.Span) error { n++; return nil }); err != nil || n != len(spans) {
		t.Errorf("otlp.Read: %d spans, %v", n, err)
	}
	// The same result writes the same trace.
	var again bytes.Buffer
	reports.Write(&again, r, "otel", reports.Options{})
	if again.String() != buf.String() {
		t.Error("two exports of one result differ")
	}
}

func unitBad(u result.Unit) bool {
	if u.Status != "" && u.Status != "ok" {
		return true
	}
	for _, g := range u.Generations {
		if g.Error != "" {
			return true
		}
		for _, c := range g.Checks {
			if c.Status == result.Fail || c.Status == result.Error {
				return true
			}
		}
	}
	for _, p := range u.Probes {
		if p.Class == result.CompactionRegression {
			return true
		}
	}
	return false
}

func oneOf(v otlp.AnyValue) int {
	n := 0
	for _, set := range []bool{v.StringValue != nil, v.BoolValue != nil, v.IntValue != nil, v.DoubleValue != nil, v.ArrayValue != nil, v.KvlistValue != nil} {
		if set {
			n++
		}
	}
	return n
}
