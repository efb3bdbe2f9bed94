package checks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/scenarios"
)

// SecretCheck checks a `secret` invariant: a value (an API key, a password)
// that must never be copied into a summary, not even in part.
//
// Rule: fail when the secret's value or its first 8 characters appear,
// case-sensitive, anywhere in the summary: in the raw bytes, in any decoded
// string (extensions included, so JSON escapes do not hide it) or in a
// property name. The evidence gives the JSON pointer where it was found;
// the message and evidence never contain the secret, only
// "[redacted:<invariant id>]". Text-only and structured summaries are
// judged alike. Unlike other checks it also reads a document that does not
// decode: a leak there still fails; with no leak such a document gives
// error. Always applicable (a secret is never allowed, whenever it appears
// in the history).
type SecretCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.Secret
}

// Check implements Check.
func (c SecretCheck) Check(in *Input) []Result {
	if c.Inv == nil {
		return nilInvariant(scenarios.TypeSecret)
	}
	inv := c.Inv
	r := Result{Check: inv.Type(), Kind: KindInvariant, Invariant: inv.ID, Pos: inv.Pos}
	tag := "[redacted:" + inv.ID + "]"
	if inv.Value == "" {
		r.Status, r.Message = Error, "scenario error: the secret has no value"
		return []Result{r}
	}
	if in.empty() {
		r.Status, r.Message = Skip, msgNoSummary
		return []Result{r}
	}
	st := in.state()
	prefix := secretPrefix(inv.Value)
	var hits []Evidence
	what := func(s string) string {
		if strings.Contains(s, inv.Value) {
			return "the secret"
		}
		return "the first 8 characters"
	}
	hide := strings.NewReplacer(inv.Value, tag, prefix, tag)
	for _, l := range st.leaves {
		if strings.Contains(l.text, prefix) {
			hits = append(hits, Evidence{Pointer: l.ptr, Text: tag, Note: what(l.text)})
		}
	}
	raw := in.Raw
	if len(bytes.TrimSpace(raw)) == 0 && st.sum != nil {
		raw, _ = json.Marshal(st.sum) // a library caller gave only the decoded summary
	}
	inRaw := bytes.Contains(raw, []byte(prefix))
	if st.sum != nil && len(st.sum.Extensions) > 0 || inRaw && len(hits) == 0 {
		var v any
		if json.Unmarshal(raw, &v) == nil {
			walkStrings(v, "", func(ptr, s string) {
				if strings.Contains(s, prefix) && (st.sum == nil || strings.HasPrefix(ptr, "/extensions") || ptrKey(ptr)) {
					hits = append(hits, Evidence{Pointer: hide.Replace(ptr), Text: tag, Note: what(s)})
				}
			})
		}
	}
	if inRaw && len(hits) == 0 {
		hits = append(hits, Evidence{Text: tag, Note: what(string(raw)) + " in the raw document"})
	}
	if len(hits) > 0 {
		r.Status = Fail
		r.Message = fmt.Sprintf("the summary contains %s of %s at %s", hits[0].Note, tag, orRoot(hits[0].Pointer))
		if len(hits) > 1 {
			r.Message += fmt.Sprintf(" (%d places)", len(hits))
		}
		r.Evidence = hits
		return []Result{r}
	}
	if st.sum == nil {
		r.Status, r.Message = Error, msgNotDecoded
		return []Result{r}
	}
	r.Status, r.Message = Pass, fmt.Sprintf("%s appears nowhere in the summary, not even its first 8 characters", tag)
	return []Result{r}
}

func orRoot(p string) string {
	if p == "" {
		return "(document)"
	}
	return p
}

// ptrKey marks pointers produced for property names.
func ptrKey(p string) bool { return strings.HasSuffix(p, "#key") }

// walkStrings calls f for every string value and property name in v (a
// decoded JSON value) with its JSON pointer; a property name's pointer ends
// in "#key".
func walkStrings(v any, ptr string, f func(ptr, s string)) {
	switch x := v.(type) {
	case string:
		f(ptr, x)
	case []any:
		for i, e := range x {
			walkStrings(e, ptr+"/"+strconv.Itoa(i), f)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := ptr + "/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
			f(p+"#key", k)
			walkStrings(x[k], p, f)
		}
	}
}
