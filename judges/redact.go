package judges

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// Redactor removes a scenario's secret values, and their first 8
// characters, from everything sent to a judge: the quoted events and the
// summary (where a value may be spelled JSON-escaped). A judge then never
// receives a secret, even one a summarizer leaked; the secret check, which
// is exact, is what reports the leak.
type Redactor struct {
	plain, json *strings.Replacer
}

// NewRedactor builds a Redactor for secrets (id → value); nil when there is
// no non-empty value. A nil *Redactor changes nothing.
func NewRedactor(secrets map[string]string) *Redactor {
	var plain, enc []string
	type pair struct{ needle, repl string }
	var ps, es []pair
	for _, id := range slices.Sorted(maps.Keys(secrets)) {
		v := secrets[id]
		if v == "" {
			continue
		}
		repl := "[redacted:" + id + "]"
		needles := []string{v}
		if r := []rune(v); len(r) > 8 {
			needles = append(needles, string(r[:8]))
		}
		for _, n := range needles {
			ps = append(ps, pair{n, repl})
			b, _ := json.Marshal(n)
			es = append(es, pair{string(b[1 : len(b)-1]), repl}, pair{n, repl})
		}
	}
	if len(ps) == 0 {
		return nil
	}
	// Longer needles first, so that a value wins over its own prefix.
	byLen := func(a, b pair) int { return len(b.needle) - len(a.needle) }
	slices.SortStableFunc(ps, byLen)
	slices.SortStableFunc(es, byLen)
	for _, p := range ps {
		plain = append(plain, p.needle, p.repl)
	}
	for _, p := range es {
		enc = append(enc, p.needle, p.repl)
	}
	return &Redactor{plain: strings.NewReplacer(plain...), json: strings.NewReplacer(enc...)}
}

// Request redacts req in place: the fact's statement and quoted events, the
// summary, the probe and the answer.
func (r *Redactor) Request(req *Request) {
	if r == nil || req == nil {
		return
	}
	if f := req.Invariant; f != nil {
		f.Statement = r.plain.Replace(f.Statement)
		for i := range f.Events {
			f.Events[i].Text = r.plain.Replace(f.Events[i].Text)
		}
	}
	if len(req.Summary) > 0 {
		req.Summary = json.RawMessage(r.json.Replace(string(req.Summary)))
	}
	if p := req.Probe; p != nil {
		p.Question, p.Expected = r.plain.Replace(p.Question), r.plain.Replace(p.Expected)
		for i := range p.Rubric {
			p.Rubric[i] = r.plain.Replace(p.Rubric[i])
		}
	}
	if req.Answer != nil {
		a := r.plain.Replace(*req.Answer)
		req.Answer = &a
	}
}

// String redacts s.
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	return r.plain.Replace(s)
}
