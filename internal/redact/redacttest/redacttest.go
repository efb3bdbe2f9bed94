// Package redacttest checks written bytes for a secret in every form a
// leak can take, independently of the redactor it tests: plain substrings,
// JSON strings decoded (twice, for JSON inside JSON), \u, \x, URL and HTML
// escapes spelled out, base64 and hex. It looks for any run of
// redact.MinRun characters of the secret, ASCII case ignored.
package redacttest

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/internal/redact"
)

// Windows returns every run of redact.MinRun characters of secret (the
// secret itself when it is shorter), lower-cased.
func Windows(secret string) []string {
	rs := []rune(strings.ToLower(secret))
	n := min(redact.MinRun, len(rs))
	var out []string
	for i := 0; i+n <= len(rs); i++ {
		out = append(out, string(rs[i:i+n]))
	}
	return out
}

// Forms returns spellings of secret that are not plain text: each
// character \u-escaped (as JSON with ensure_ascii writes it), UTF-8 bytes
// as \x and % escapes, HTML references, base64 (standard and URL
// alphabets) and hex.
func Forms(secret string) []string {
	var u, x, pct, ent strings.Builder
	for _, r := range secret {
		fmt.Fprintf(&u, `\u%04x`, r)
		fmt.Fprintf(&ent, "&#%d;", r)
	}
	for i := 0; i < len(secret); i++ {
		fmt.Fprintf(&x, `\x%02x`, secret[i])
		fmt.Fprintf(&pct, "%%%02X", secret[i])
	}
	return []string{u.String(), x.String(), pct.String(), ent.String(), url.QueryEscape(secret),
		base64.StdEncoding.EncodeToString([]byte(secret)), base64.RawURLEncoding.EncodeToString([]byte(secret)),
		hex.EncodeToString([]byte(secret))}
}

// Leaks returns where data shows secret: a run of it in the bytes or in
// any JSON string they hold (decoded once or twice), or one of its Forms.
// Empty means no leak found.
func Leaks(data []byte, secret string) []string {
	var found []string
	texts := []string{string(data)}
	texts = append(texts, jsonStrings(data, 2)...)
	for _, t := range texts {
		lt := strings.ToLower(t)
		for _, w := range Windows(secret) {
			if i := strings.Index(lt, w); i >= 0 {
				found = append(found, fmt.Sprintf("run %q at %q", w, around(lt, i)))
				break
			}
		}
	}
	ld := strings.ToLower(string(data))
	for _, f := range Forms(secret) {
		if i := strings.Index(ld, strings.ToLower(f)); i >= 0 {
			found = append(found, fmt.Sprintf("form %q at %q", f, around(ld, i)))
		}
	}
	return found
}

// AssertNone fails t for every leak of secret in data, naming what.
func AssertNone(t testing.TB, what string, data []byte, secret string) {
	t.Helper()
	for _, l := range Leaks(data, secret) {
		t.Errorf("%s leaks the secret: %s", what, l)
	}
}

func around(s string, i int) string {
	a, b := max(0, i-30), min(len(s), i+60)
	for a > 0 && !utf8.RuneStart(s[a]) {
		a--
	}
	for b < len(s) && !utf8.RuneStart(s[b]) {
		b++
	}
	return s[a:b]
}

// jsonStrings decodes data as JSON (a document, or one document a line)
// and returns every string in it, and, depth times over, the strings of
// strings that are JSON themselves.
func jsonStrings(data []byte, depth int) []string {
	if depth == 0 {
		return nil
	}
	var docs [][]byte
	if json.Valid(data) {
		docs = [][]byte{data}
	} else {
		for _, l := range bytes.Split(data, []byte("\n")) {
			if json.Valid(l) {
				docs = append(docs, l)
			}
		}
	}
	var out []string
	for _, d := range docs {
		var v any
		if json.Unmarshal(d, &v) != nil {
			continue
		}
		walk(v, func(s string) {
			out = append(out, s)
			out = append(out, jsonStrings([]byte(s), depth-1)...)
		})
	}
	return out
}

func walk(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case []any:
		for _, e := range x {
			walk(e, f)
		}
	case map[string]any:
		for k, e := range x {
			f(k)
			walk(e, f)
		}
	}
}
