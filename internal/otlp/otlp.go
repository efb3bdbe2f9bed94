// Package otlp holds the OpenTelemetry trace data in its OTLP JSON
// encoding (the protobuf JSON mapping of opentelemetry-proto's
// ExportTraceServiceRequest, as the collector's file exporter and OTLP/HTTP
// JSON carry it): resource spans, scope spans, spans, events and typed
// attribute values. It is written from the public schema with
// encoding/json, and imports nothing of compact-eval: the importer reads
// it, reports write it.
//
// Ids are lower-case hex (16 bytes for a trace, 8 for a span), times
// unsigned nanoseconds since the epoch written as decimal strings, as the
// JSON mapping writes 64-bit integers; intValue is a string too.
package otlp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// TracesData is one export request: spans grouped by resource and scope.
type TracesData struct {
	ResourceSpans []ResourceSpans `json:"resourceSpans"`
}

// ResourceSpans are the spans of one resource (a service).
type ResourceSpans struct {
	Resource   Resource     `json:"resource"`
	ScopeSpans []ScopeSpans `json:"scopeSpans"`
}

// Resource describes what produced the spans.
type Resource struct {
	Attributes []KeyValue `json:"attributes,omitempty"`
}

// ScopeSpans are the spans of one instrumentation scope.
type ScopeSpans struct {
	Scope Scope  `json:"scope"`
	Spans []Span `json:"spans"`
}

// Scope names the instrumentation library.
type Scope struct {
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
}

// Span kinds (SpanKind's values).
const (
	KindInternal = 1
	KindClient   = 3
)

// Status codes.
const (
	StatusUnset = 0
	StatusOK    = 1
	StatusError = 2
)

// Span is one span.
type Span struct {
	TraceID           string     `json:"traceId"`
	SpanID            string     `json:"spanId"`
	ParentSpanID      string     `json:"parentSpanId,omitempty"`
	Name              string     `json:"name"`
	Kind              int        `json:"kind,omitempty"`
	StartTimeUnixNano Nanos      `json:"startTimeUnixNano"`
	EndTimeUnixNano   Nanos      `json:"endTimeUnixNano"`
	Attributes        []KeyValue `json:"attributes,omitempty"`
	Events            []Event    `json:"events,omitempty"`
	Status            *Status    `json:"status,omitempty"`
}

// Event is a timed event of a span.
type Event struct {
	TimeUnixNano Nanos      `json:"timeUnixNano"`
	Name         string     `json:"name"`
	Attributes   []KeyValue `json:"attributes,omitempty"`
}

// Status is a span's outcome.
type Status struct {
	Code    int    `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

// KeyValue is one attribute.
type KeyValue struct {
	Key   string   `json:"key"`
	Value AnyValue `json:"value"`
}

// AnyValue is a typed attribute value: exactly one field is set.
type AnyValue struct {
	StringValue *string      `json:"stringValue,omitempty"`
	BoolValue   *bool        `json:"boolValue,omitempty"`
	IntValue    *Int         `json:"intValue,omitempty"`
	DoubleValue *float64     `json:"doubleValue,omitempty"`
	ArrayValue  *ArrayValue  `json:"arrayValue,omitempty"`
	KvlistValue *KvlistValue `json:"kvlistValue,omitempty"`
}

// ArrayValue is a list of values.
type ArrayValue struct {
	Values []AnyValue `json:"values"`
}

// KvlistValue is a map of values, in order.
type KvlistValue struct {
	Values []KeyValue `json:"values"`
}

// Int is a 64-bit integer, written as a decimal string and read from a
// string or a number.
type Int int64

// MarshalJSON writes the integer as a string.
func (i Int) MarshalJSON() ([]byte, error) { return json.Marshal(strconv.FormatInt(int64(i), 10)) }

// UnmarshalJSON reads a string or a number.
func (i *Int) UnmarshalJSON(b []byte) error {
	n, err := parseUint(b, true)
	*i = Int(n)
	return err
}

// Nanos is a time in nanoseconds since the epoch, written as a decimal
// string and read from a string or a number.
type Nanos uint64

// MarshalJSON writes the time as a string.
func (n Nanos) MarshalJSON() ([]byte, error) { return json.Marshal(strconv.FormatUint(uint64(n), 10)) }

// UnmarshalJSON reads a string or a number.
func (n *Nanos) UnmarshalJSON(b []byte) error {
	v, err := parseUint(b, false)
	*n = Nanos(v)
	return err
}

func parseUint(b []byte, signed bool) (int64, error) {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return 0, err
		}
		b = []byte(s)
	}
	if len(b) == 0 || string(b) == "null" {
		return 0, nil
	}
	if signed {
		return strconv.ParseInt(string(b), 10, 64)
	}
	u, err := strconv.ParseUint(string(b), 10, 64)
	return int64(u), err
}

// String returns a string value, "" for any other.
func (v AnyValue) String() string {
	if v.StringValue != nil {
		return *v.StringValue
	}
	return ""
}

// Int64 returns an integer value (a double is truncated), 0 for any other.
func (v AnyValue) Int64() int64 {
	switch {
	case v.IntValue != nil:
		return int64(*v.IntValue)
	case v.DoubleValue != nil:
		return int64(*v.DoubleValue)
	}
	return 0
}

// Go returns the value as encoding/json decodes JSON: a string, a bool, an
// int64, a float64, a []any or a map[string]any; nil when none is set.
func (v AnyValue) Go() any {
	switch {
	case v.StringValue != nil:
		return *v.StringValue
	case v.BoolValue != nil:
		return *v.BoolValue
	case v.IntValue != nil:
		return int64(*v.IntValue)
	case v.DoubleValue != nil:
		return *v.DoubleValue
	case v.ArrayValue != nil:
		out := make([]any, len(v.ArrayValue.Values))
		for i, x := range v.ArrayValue.Values {
			out[i] = x.Go()
		}
		return out
	case v.KvlistValue != nil:
		out := make(map[string]any, len(v.KvlistValue.Values))
		for _, kv := range v.KvlistValue.Values {
			out[kv.Key] = kv.Value.Go()
		}
		return out
	}
	return nil
}

// Str, IntVal, Float and Bool build values.
func Str(s string) AnyValue            { return AnyValue{StringValue: &s} }
func IntVal(n int64) AnyValue          { i := Int(n); return AnyValue{IntValue: &i} }
func Float(f float64) AnyValue         { return AnyValue{DoubleValue: &f} }
func Bool(b bool) AnyValue             { return AnyValue{BoolValue: &b} }
func KV(k string, v AnyValue) KeyValue { return KeyValue{Key: k, Value: v} }

// Attr returns the value of key in attrs, and whether it is there.
func Attr(attrs []KeyValue, key string) (AnyValue, bool) {
	for _, kv := range attrs {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return AnyValue{}, false
}

// MaxLine bounds one line of a JSONL file of export requests.
const MaxLine = 256 << 20

// Read decodes r: one TracesData document, or JSONL of them (the
// collector's file exporter writes one a line), calling each with each
// document's spans in order. A line that is not JSON is an error naming
// it.
func Read(r io.Reader, each func(rs *ResourceSpans, ss *ScopeSpans, sp *Span) error) error {
	br := bufio.NewReaderSize(r, 1<<20)
	dec := json.NewDecoder(br)
	doc := 0
	for {
		var td TracesData
		err := dec.Decode(&td)
		if errors.Is(err, io.EOF) {
			if doc == 0 {
				return errors.New("no OTLP trace data in the input")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("OTLP document %d: %w", doc+1, err)
		}
		doc++
		for i := range td.ResourceSpans {
			rs := &td.ResourceSpans[i]
			for j := range rs.ScopeSpans {
				ss := &rs.ScopeSpans[j]
				for k := range ss.Spans {
					if err := each(rs, ss, &ss.Spans[k]); err != nil {
						return err
					}
				}
			}
		}
	}
}
