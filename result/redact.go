package result

import (
	"encoding/json"
	"reflect"
)

// Redactor hides secrets in text: String replaces every leak in a string by
// its tag, JSON does the same inside each JSON string of a document and
// re-encodes it. internal/redact's *Redactor is one; a nil *Redactor
// changes nothing.
type Redactor interface {
	String(s string) string
	JSON(doc []byte) []byte
}

// RedactUnit hides, everywhere in u, every leak r finds (a secret of the
// scenario, an API key; see internal/redact) behind "[redacted:ID]": in
// every string of the unit, whatever field holds it (the summary, each
// JSON string decoded, redacted and re-encoded, so escapes hide nothing;
// check messages and evidence, decisions, diffs, errors, stderr, call
// extras, warnings, its scenario's file). What identifies the unit (the
// scenario's id and digest, the summarizer's name; fields tagged
// redact:"keep") is left: a name is redacted where it is made, when a spec
// is parsed (providers.ParseSpec), so that it stays the same everywhere. The
// runner calls it before a
// unit is journaled, so no writer ever sees a secret; the findings keep
// their pointers and seqs, so a reader still sees where a secret leaked. A
// nil r changes nothing.
func RedactUnit(u *Unit, r Redactor) {
	if r == nil || u == nil {
		return
	}
	redactValue(reflect.ValueOf(u).Elem(), r)
}

// RedactHeader hides what r finds in every string of a result that is not
// in its units: the configuration recorded (specs, paths, the resume
// command), warnings. A nil r changes nothing.
func RedactHeader(res *Result, r Redactor) {
	if r == nil || res == nil {
		return
	}
	v := reflect.ValueOf(res).Elem()
	for i := 0; i < v.NumField(); i++ {
		if v.Type().Field(i).Name != "Units" && v.Type().Field(i).IsExported() {
			redactValue(v.Field(i), r)
		}
	}
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// redactValue redacts every string reachable from v (exported fields,
// elements, map keys and values); json.RawMessage is redacted as JSON.
func redactValue(v reflect.Value, r Redactor) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			if red := r.String(v.String()); red != v.String() {
				v.SetString(red)
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			redactValue(v.Elem(), r)
		}
	case reflect.Interface:
		if !v.IsNil() && v.CanSet() {
			c := reflect.New(v.Elem().Type()).Elem()
			c.Set(v.Elem())
			redactValue(c, r)
			v.Set(c)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).IsExported() && t.Field(i).Tag.Get("redact") != "keep" {
				redactValue(v.Field(i), r)
			}
		}
	case reflect.Slice:
		if v.Type() == rawMessage {
			if v.Len() > 0 && v.CanSet() {
				v.SetBytes(r.JSON(v.Bytes()))
			}
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			redactValue(v.Index(i), r)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			redactValue(v.Index(i), r)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			val := v.MapIndex(k)
			nk := reflect.New(k.Type()).Elem()
			nk.Set(k)
			redactValue(nk, r)
			nv := reflect.New(val.Type()).Elem()
			nv.Set(val)
			redactValue(nv, r)
			if !nk.Equal(k) {
				v.SetMapIndex(k, reflect.Value{})
			}
			v.SetMapIndex(nk, nv)
		}
	}
}

// redactCall redacts what a called program wrote: its stderr and the
// extras recorded from its reply.
func redactCall(c *Call, r Redactor) {
	c.Stderr = r.String(c.Stderr)
	for k, v := range c.Extra {
		c.Extra[k] = r.String(v)
	}
}

// redactJudgement redacts what a judge wrote (nil is fine).
func redactJudgement(j *Judgement, r Redactor) {
	if j == nil {
		return
	}
	j.Quote, j.Reason, j.Error = r.String(j.Quote), r.String(j.Reason), r.String(j.Error)
	redactCall(&j.Call, r)
}

func redactStrings(ss []string, r Redactor) {
	for i := range ss {
		ss[i] = r.String(ss[i])
	}
}
