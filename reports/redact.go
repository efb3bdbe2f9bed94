package reports

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/checks"
)

// RedactUnit replaces, everywhere in u, each secret value and its first 8
// characters with "[redacted:ID]", where ID is the secret's id in secrets
// (id → value): in the summary bytes, check messages and evidence, decision
// choices and reasons, diffs, errors, stderr, call extras and warnings. Empty
// values are ignored. The runner calls it before a unit is journaled, so no
// writer ever sees a secret; the findings keep their pointers and seqs, so a
// reader still sees where a secret leaked.
func RedactUnit(u *Unit, secrets map[string]string) {
	rp := newRedactor(secrets)
	if rp == nil {
		return
	}
	r := rp.Replace
	u.Error = r(u.Error)
	redactStrings(u.Warnings, r)
	for gi := range u.Generations {
		g := &u.Generations[gi]
		g.Error = r(g.Error)
		g.InstallError = r(g.InstallError)
		g.Call.Stderr = r(g.Call.Stderr)
		redactMap(g.Call.Extra, r)
		if len(g.Summary) > 0 {
			g.Summary = json.RawMessage(rp.jsonReplacer.Replace(string(g.Summary)))
		}
		for ci := range g.Checks {
			c := &g.Checks[ci]
			c.Message = r(c.Message)
			for ei := range c.Evidence {
				e := &c.Evidence[ei]
				e.Text, e.Pattern, e.Note, e.Pointer = r(e.Text), r(e.Pattern), r(e.Note), r(e.Pointer)
			}
			redactJudgement(c.Judge, r)
		}
	}
	for pi := range u.Probes {
		p := &u.Probes[pi]
		p.Diff = r(p.Diff)
		for _, d := range []*Decision{&p.Full, &p.Compacted} {
			d.Choice, d.Reason, d.Error = r(d.Choice), r(d.Reason), r(d.Error)
			d.Call.Stderr = r(d.Call.Stderr)
			redactMap(d.Call.Extra, r)
		}
	}
}

// redactJudgement redacts what a judge wrote (nil is fine).
func redactJudgement(j *checks.Judgement, r func(string) string) {
	if j == nil {
		return
	}
	j.Quote, j.Reason, j.Error = r(j.Quote), r(j.Reason), r(j.Error)
	j.Call.Stderr = r(j.Call.Stderr)
	redactMap(j.Call.Extra, r)
}

type redactor struct {
	*strings.Replacer
	jsonReplacer *strings.Replacer
}

// newRedactor builds replacers for the plain text and for JSON-encoded text
// (a value with a quote or a backslash is spelled differently inside a JSON
// string). Longer needles come first so a value wins over its prefix.
func newRedactor(secrets map[string]string) *redactor {
	type pair struct{ needle, repl string }
	var plain, enc []pair
	for _, id := range slices.Sorted(maps.Keys(secrets)) {
		v := secrets[id]
		if v == "" {
			continue
		}
		repl := "[redacted:" + id + "]"
		needles := []string{v}
		if p := prefix8(v); p != v {
			needles = append(needles, p)
		}
		for _, n := range needles {
			plain = append(plain, pair{n, repl})
			b, _ := json.Marshal(n)
			enc = append(enc, pair{string(b[1 : len(b)-1]), repl})
			if e := string(b[1 : len(b)-1]); e != n {
				enc = append(enc, pair{n, repl})
			}
		}
	}
	if len(plain) == 0 {
		return nil
	}
	build := func(ps []pair) *strings.Replacer {
		slices.SortStableFunc(ps, func(a, b pair) int { return len(b.needle) - len(a.needle) })
		var args []string
		for _, p := range ps {
			args = append(args, p.needle, p.repl)
		}
		return strings.NewReplacer(args...)
	}
	return &redactor{Replacer: build(plain), jsonReplacer: build(enc)}
}

// prefix8 returns the first 8 characters (runes) of s.
func prefix8(s string) string {
	n := 0
	for i := range s {
		if n == 8 {
			return s[:i]
		}
		n++
	}
	return s
}

func redactStrings(ss []string, r func(string) string) {
	for i := range ss {
		ss[i] = r(ss[i])
	}
}

func redactMap(m map[string]string, r func(string) string) {
	for k, v := range m {
		m[k] = r(v)
	}
}
