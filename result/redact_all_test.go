package result

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

const planted = "PLANTED-s3cr3t-VALUE"

// plantRedactor hides planted.
type plantRedactor struct{}

func (plantRedactor) String(s string) string { return strings.ReplaceAll(s, planted, "[redacted:p]") }
func (plantRedactor) JSON(b []byte) []byte {
	return []byte(strings.ReplaceAll(string(b), planted, "[redacted:p]"))
}

// fill sets every string reachable from v to planted (maps and slices get
// one element), json.RawMessage to a JSON string holding it.
func fill(v reflect.Value, depth int) {
	if depth > 12 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(planted)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), depth+1)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		if v.Type() == rawMessage {
			v.SetBytes([]byte(`"` + planted + `"`))
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), depth+1)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k := reflect.New(v.Type().Key()).Elem()
		fill(k, depth+1)
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, depth+1)
		v.SetMapIndex(k, e)
	}
}

// Issue 26, finding 1: a spec holding a key, a scenario file named after a
// secret were written as they were, because redaction listed the fields it
// read. Every string of a unit and of a result's header is redacted now,
// but what identifies a unit (tagged redact:"keep").
func TestRedactEveryString(t *testing.T) {
	var u Unit
	fill(reflect.ValueOf(&u).Elem(), 0)
	RedactUnit(&u, plantRedactor{})
	b, _ := json.Marshal(u)
	got := strings.Count(string(b), planted)
	want := 4 // scenario id, digests, summarizer
	if got != want || u.Scenario.ID != planted || u.Summarizer != planted || u.Scenario.File == planted {
		t.Errorf("%d strings keep the secret, want %d (the unit's identity):\n%s", got, want, b)
	}
	var r Result
	fill(reflect.ValueOf(&r).Elem(), 0)
	RedactHeader(&r, plantRedactor{})
	r.Units = nil
	// The planned suite is the run's identity, as a unit's scenario is.
	if b, _ := json.Marshal(r); strings.Count(string(b), planted) != 2 || r.Config.Suite[0].ID != planted {
		t.Errorf("the header keeps the secret beyond the suite's id and digest:\n%s", b)
	}
}
