package redact

import (
	"encoding/base64"
	"strings"
	"testing"
)

// The forms TestFindsEveryForm names but could not tell apart: its
// base64url case has no '+' or '/' in the standard alphabet either, its
// secrets hold no '&', and it writes no \U escape. Each case here fails
// if that one form is no longer read.
func TestFindsFormsThatDiffer(t *testing.T) {
	// '>' and '?' encode to '+' and '/' in standard base64: the URL
	// alphabet writes '-' and '_' there.
	const tricky = "k>>?~v>?>~Zq&amp-9"
	std := base64.RawStdEncoding.EncodeToString([]byte(tricky))
	urlForm := base64.RawURLEncoding.EncodeToString([]byte(tricky))
	if std == urlForm || !strings.ContainsAny(std, "+/") {
		t.Fatalf("the test secret does not tell the alphabets apart: %s", std)
	}
	// Runs of six between the '&': its HTML form holds no 8-character run
	// of it as written, only once decoded.
	const amp = "a1b2c3&d4e5f6&g7h8i9"
	r := New([]Secret{{ID: "tricky", Value: tricky}, {ID: "amp", Value: amp}})
	for name, text := range map[string]string{
		"base64url":                   "token=" + urlForm,
		"HTML named reference &amp;":  "pw " + strings.ReplaceAll(amp, "&", "&amp;"),
		`\U00000000 escapes`:          `pw \U0000006b\U0000003e\U0000003e\U0000003f\U0000007e\U00000076\U0000003e\U0000003f`,
		"HTML &gt; and &quot; mixed ": "pw k&gt;&gt;?~v&gt;?&gt;~Zq&amp;amp-9",
	} {
		leaks := r.Find(text)
		if len(leaks) == 0 {
			t.Errorf("%s: no leak found in %q", name, text)
			continue
		}
		if out := r.String(text); strings.Contains(out, "~v") || strings.Contains(out, "e5f6") || r.Contains(out) {
			t.Errorf("%s: String left the secret: %q", name, out)
		}
	}
}
