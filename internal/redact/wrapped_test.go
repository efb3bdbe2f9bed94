package redact

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A tool that prints a long key in a narrow column (a terminal, a wrapped
// log, base64 in a YAML manifest) splits it across lines. That printout is
// the secret itself, not a public part of it: a summary that copies it,
// line break included, leaks the whole key.
func TestWrappedSecretInTheSessionIsNotPublic(t *testing.T) {
	wrapped := stripe[:28] + "\n" + stripe[28:]
	sessionWrapped := []string{
		"401 Unauthorized: Invalid API Key provided: sk_live_****************************7Hq2",
		"$ kubectl get secret stripe -o yaml\ndata:\n  key: " + wrapped,
	}
	r := New([]Secret{{ID: "stripe", Value: stripe}}, sessionWrapped...)
	for name, summary := range map[string]string{
		"wrapped as the tool printed it": "The key is " + wrapped + ".",
		"wrapped elsewhere":              "The key is " + stripe[:20] + "\n  " + stripe[20:] + ".",
		"whole":                          "The key is " + stripe + ".",
		"the wrapped tail alone":         "It ends in " + stripe[28:] + ".",
	} {
		out := r.String(summary)
		for _, part := range []string{stripe[:20], stripe[20:28], stripe[28:40], stripe[40:]} {
			if strings.Contains(out, part) {
				t.Errorf("%s: %q is still there: %q", name, part, out)
			}
		}
	}
	// The masked form the tool printed stays public.
	if masked := "sk_live_****************************7Hq2"; r.Contains("it printed " + masked) {
		t.Errorf("the masked form %q counts as a leak", masked)
	}
}

// A token wrapped across lines may break next to any byte, the brackets,
// quotes and commas where pretty-printed JSON or code breaks included (a
// ROT47 token holds them like any other byte): found wherever the break
// falls, with one line or several, text around it or none, and in a JSON
// string. Each side of the break is shorter than a leaking run, so only
// the joined token leaks.
func TestWrappedAtCodeBreaks(t *testing.T) {
	const left, right = "Ab3dE6g", "hJ9kL2m"
	for _, c := range `,{[("}])` {
		for _, enc := range []struct {
			name string
			f    func(string) string
		}{{"plain", func(s string) string { return s }}, {"ROT47", rot47}} {
			// the planted byte ends the first line, then starts the second
			for _, cut := range []int{7, 6} {
				// the encoded secret, 14 bytes, c at the cut's edge
				token := left[:cut] + string(c) + right[cut-6:]
				secret := enc.f(token) // ROT47 is its own inverse
				r := New([]Secret{{ID: "s", Value: secret}})
				if r.Contains(token[:7]) || r.Contains(token[7:]) {
					t.Fatalf("a side of the break leaks alone: %q", token)
				}
				for name, text := range map[string]string{
					"one break":       "0 " + token[:7] + "\n  " + token[7:] + " 0",
					"two breaks":      "0 " + token[:4] + "\n  " + token[4:10] + "\n  " + token[10:] + " 0",
					"alone, CRLF":     token[:7] + "\r\n" + token[7:],
					"line after text": "the key:\n" + token[:7] + "\n" + token[7:] + "\nend",
				} {
					if !r.Contains(text) {
						t.Errorf("%s, %q at %d, %s: not found in %q", enc.name, c, cut, name, text)
					}
				}
				value, _ := json.Marshal("0 " + token[:7] + "\n  " + token[7:] + " 0")
				if doc := `{"log": ` + string(value) + `}`; !r.ContainsJSON([]byte(doc)) {
					t.Errorf("%s, %q at %d: not found in the JSON document %s", enc.name, c, cut, doc)
				}
			}
		}
	}
}

// The indentation a wrapper adds is the one most continued lines share:
// a line of the text around the block with less of it (the fuzzer's "\n "
// before octal codes wrapped with two spaces) does not hide the codes.
func TestWrappedCodesAfterLessIndentedText(t *testing.T) {
	const secret = "JyFn4n:/1F+QBG+FUKkgi7AK"
	r := New([]Secret{{ID: "s", Value: secret}})
	var codes []string
	for _, b := range []byte(secret) {
		codes = append(codes, fmt.Sprintf("0%o", b))
	}
	for _, around := range []string{"\n", "\n\t", " \n x", ""} {
		text := around + " " + wrapEvery(strings.Join(codes, " "), 8) + " " + around
		if !r.Contains(text) {
			t.Errorf("around %q: not found in %q", around, text)
		}
	}
}
