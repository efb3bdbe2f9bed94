package redact

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

const (
	stripe = "sk_live_51QxT9mKq2RwZ8vN4bLc7HyPd3eFgA6sJ0tUi1oVzX5nMkE7Hq2"
	dbpass = "contraseña-Ñandú-7x9Q2mZ"
)

// session is what a tool printed around the Stripe key: a masked form of it
// (public) and the key itself once (not public).
var session = []string{
	"401 Unauthorized: Invalid API Key provided: sk_live_****************************7Hq2",
	"headers={\"Authorization: Bearer " + stripe + "\"}",
	"the database password is " + dbpass,
}

func newTest() *Redactor {
	return New([]Secret{{ID: "stripe", Value: stripe}, {ID: "dbpass", Value: dbpass}}, session...)
}

// jsonEscapeAll spells every character of s as \uXXXX (surrogate pairs
// above the BMP), as a summarizer with ensure_ascii or a hostile one writes.
func jsonEscapeAll(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r > 0xffff {
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// pythonJSON is what json.dumps writes by default: non-ASCII as \uXXXX.
func pythonJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// percentAll URL-encodes every byte of s.
func percentAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

// Every form of a secret a summarizer may write is found, and String leaves
// no trace of it.
func TestFindsEveryForm(t *testing.T) {
	r := newTest()
	tests := []struct {
		name, text string
		id         string
		whole      bool
		encoding   string
	}{
		{"plain", "key " + stripe + " end", "stripe", true, ""},
		{"upper case", "key " + strings.ToUpper(stripe), "stripe", true, ""},
		{"without its first character", "key " + stripe[1:], "stripe", false, ""},
		{"without its last character", stripe[:len(stripe)-1] + " end", "stripe", false, ""},
		{"8 characters from the middle", "fragment: " + stripe[20:28] + ".", "stripe", false, ""},
		{"accents dropped", "pw contrasena-Nandu-7x9Q2mZ", "dbpass", true, ""},
		{"decomposed accents", "pw contrasen\u0303a-N\u0303andu\u0301-7x9Q2mZ", "dbpass", true, ""},
		{"fullwidth letters", "pw ｃｏｎｔｒａｓｅñａ", "dbpass", false, ""},
		{"zero-width spaces between characters", strings.Join(strings.Split(stripe[:20], ""), "\u200b"), "stripe", false, ""},
		{"python json.dumps of the non-ASCII secret", pythonJSON(dbpass), "dbpass", true, "escaped"},
		{"every character \\u-escaped", jsonEscapeAll(stripe), "stripe", true, "escaped"},
		{"\\u{..} escapes", `\u{73}\u{6b}\u{5f}\u{6c}\u{69}\u{76}\u{65}\u{5f}\u{35}\u{31}`, "stripe", false, "escaped"},
		{"\\x escapes of UTF-8 bytes", `contrase\xc3\xb1a-\xc3\x91and\xc3\xba-7x9Q2mZ`, "dbpass", true, "escaped"},
		{"URL-encoded", url.QueryEscape(dbpass), "dbpass", true, "escaped"},
		{"URL-encoded, every byte", percentAll(stripe), "stripe", true, "escaped"},
		{"HTML character references", "&#115;&#107;&#95;&#108;&#105;&#118;&#101;&#95;&#x35;&#x31;", "stripe", false, "escaped"},
		{"base64", base64.StdEncoding.EncodeToString([]byte(stripe)), "stripe", true, "base64"},
		{"base64 inside a longer payload", base64.StdEncoding.EncodeToString([]byte(`{"auth":"` + stripe + `"}`)), "stripe", true, "base64"},
		{"base64url, offset by one byte", base64.RawURLEncoding.EncodeToString([]byte("x" + dbpass)), "dbpass", true, "base64"},
		{"hex", hex.EncodeToString([]byte(stripe)), "stripe", true, "hex"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			leaks := r.Find(tc.text)
			if len(leaks) == 0 {
				t.Fatalf("no leak found in %q", tc.text)
			}
			l := leaks[0]
			if l.ID != tc.id {
				t.Errorf("leak of %q, want %q", l.ID, tc.id)
			}
			if l.Whole != tc.whole {
				t.Errorf("whole = %v, want %v (%+v)", l.Whole, tc.whole, l)
			}
			if tc.encoding != "" && l.Encoding != tc.encoding {
				t.Errorf("encoding %q, want %q", l.Encoding, tc.encoding)
			}
			out := r.String(tc.text)
			if !strings.Contains(out, Tag(tc.id)) {
				t.Errorf("String(%q) = %q: no %s", tc.text, out, Tag(tc.id))
			}
			if again := r.Find(out); len(again) > 0 {
				t.Errorf("String left a leak: %q (%+v)", out, again)
			}
		})
	}
}

// The first finding: JSON written by Python (ensure_ascii), whose
// \u escapes hid the rest of the secret from a byte-level redaction.
func TestJSONDecodesEscapes(t *testing.T) {
	r := newTest()
	for _, doc := range []string{
		`{"text": "the db password is ` + pythonJSON(dbpass) + `"}`,
		`{"text": "key ` + jsonEscapeAll(stripe) + `"}`,
		`{"extensions": {"` + jsonEscapeAll(stripe) + `": 1}}`,
		`{"text": "double-encoded: {\"k\": \"` + strings.ReplaceAll(jsonEscapeAll(stripe), `\`, `\\`) + `\"}"}`,
		`{"text": "` + stripe[1:] + `"}`,
	} {
		out := r.JSON([]byte(doc))
		if !json.Valid(out) {
			t.Errorf("JSON(%s) = %s: not valid JSON", doc, out)
		}
		var v any
		json.Unmarshal(out, &v)
		dec, _ := json.Marshal(v)
		for _, s := range []string{string(out), string(dec)} {
			if r.Contains(s) {
				t.Errorf("JSON(%s) = %s: still leaks", doc, out)
			}
		}
		if !strings.Contains(string(out), "[redacted:") {
			t.Errorf("JSON(%s) = %s: no tag", doc, out)
		}
		if !r.ContainsJSON([]byte(doc)) {
			t.Errorf("ContainsJSON(%s) = false", doc)
		}
	}
}

func TestJSONKeepsWhatDoesNotLeak(t *testing.T) {
	r := newTest()
	doc := []byte(`{"text":"pinned to v6; rotated \u00e0 v7 <b>","n":[1,2.5e3,-4],"ok":true,"none":null}`)
	out := r.JSON(doc)
	if &out[0] != &doc[0] {
		t.Errorf("JSON copied a document without leaks: %s", out)
	}
	if r.ContainsJSON(doc) {
		t.Error("ContainsJSON: true for a document without leaks")
	}
}

func TestJSONNumberLeak(t *testing.T) {
	r := New([]Secret{{ID: "pin", Value: "4821337719"}})
	out := r.JSON([]byte(`{"pin":4821337719,"text":"x"}`))
	if want := `{"pin":"[redacted:pin]","text":"x"}`; string(out) != want {
		t.Errorf("got %s, want %s", out, want)
	}
}

func TestJSONNotJSON(t *testing.T) {
	r := newTest()
	out := r.JSON([]byte("not json " + stripe))
	if string(out) != "not json [redacted:stripe]" {
		t.Errorf("got %s", out)
	}
}

// The third finding, the other way: a faithful summary that quotes
// the masked form a tool printed passes; one more character of the secret
// does not.
func TestPublicRuns(t *testing.T) {
	r := newTest()
	tests := []struct {
		text string
		leak bool
	}{
		{"Stripe rejected sk_live_****************************7Hq2 with a 401", false},
		{"Stripe rejected sk_live_****7Hq2", false},
		{"the key starts sk_live_ and ends 7Hq2", false},
		{"the key starts sk_live_5", true},
		{"the key ends E7Hq2 (kE7Hq2)", false}, // 6 characters: below MinRun
		{"the key ends nMkE7Hq2", true},
		{"the database password is [redacted]", false},
		{"contrase", true}, // 8 characters of the password, public nowhere
	}
	for _, tc := range tests {
		got := r.Find(tc.text)
		if (len(got) > 0) != tc.leak {
			t.Errorf("Find(%q) = %+v, want leak %v", tc.text, got, tc.leak)
		}
	}
}

// A run is public only outside the secret's own occurrences: the session
// holding the whole secret does not make every part of it public.
func TestSecretItselfIsNotPublic(t *testing.T) {
	r := New([]Secret{{ID: "k", Value: stripe}}, "Bearer "+stripe+" and "+strings.ToUpper(stripe))
	if !r.Contains(stripe[10:30]) {
		t.Error("a run of the secret counted as public because the secret is in the session")
	}
}

// Faithful text: nothing is redacted in a summary that does not quote the
// secret, however close its words come.
func TestNoFalseLeaks(t *testing.T) {
	r := newTest()
	for _, s := range []string{
		"The worker sends a revoked Stripe key (sk_live_…7Hq2); rotate to vault v7.",
		"Purge /var/log/billing/billing-worker.log.1: it holds the live key.",
		"rotated; Ñandú is the db host",
		"",
		strings.Repeat("a", 10000),
	} {
		if got := r.Find(s); len(got) > 0 {
			t.Errorf("Find(%q) = %+v, want none", s, got)
		}
		if got := r.String(s); got != s {
			t.Errorf("String(%q) = %q", s, got)
		}
	}
}

// A secret that starts with a word: the word alone is a leak (8 characters
// of the secret) unless the session uses it elsewhere.
func TestPublicWord(t *testing.T) {
	r := New([]Secret{{ID: "dbpass", Value: dbpass}}, "la contraseña nueva: "+dbpass)
	if got := r.Find("contraseña rotada"); len(got) > 0 {
		t.Errorf("a public word is a leak: %+v", got)
	}
	if got := r.Find("contraseña-Ñ"); len(got) == 0 {
		t.Error("the word and one more character of the secret is no leak")
	}
	if got := New([]Secret{{ID: "dbpass", Value: dbpass}}).Find("contraseña rotada"); len(got) == 0 {
		t.Error("with no public text, 10 characters of the secret are no leak")
	}
}

func TestShortSecret(t *testing.T) {
	r := New([]Secret{{ID: "pin", Value: "7x9Q2"}})
	if got := r.String("pin is 7X9Q2, not 7x9q"); got != "pin is [redacted:pin], not 7x9q" {
		t.Errorf("got %q", got)
	}
}

func TestNilAndEmpty(t *testing.T) {
	var r *Redactor
	if r.String("x") != "x" || r.Contains("x") || string(r.JSON([]byte(`{}`))) != "{}" {
		t.Error("a nil Redactor changed something")
	}
	if New([]Secret{{ID: "a", Value: ""}}) != nil {
		t.Error("New with only empty values is not nil")
	}
	if got := Join(nil, New([]Secret{{ID: "a", Value: "abcdefghij"}}), nil).IDs(); !cmp.Equal(got, []string{"a"}) {
		t.Errorf("Join ids %v", got)
	}
}

func TestMergedLeaks(t *testing.T) {
	r := newTest()
	// The whole secret twice, with text between: two tags.
	got := r.String(stripe + " and " + stripe)
	if got != "[redacted:stripe] and [redacted:stripe]" {
		t.Errorf("got %q", got)
	}
	// A leak that ends inside a multi-byte character's escape keeps the
	// text valid.
	got = r.String(`pass: contrase\u00f1a-x`)
	if !utf8.ValidString(got) || strings.Contains(got, "contrase") {
		t.Errorf("got %q", got)
	}
}

func TestKeys(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-DONOTLEAK-0123456789")
	t.Setenv("REDACT_TEST_KEY", "rk-abcdefghijklmnop")
	RegisterKeyVar("REDACT_TEST_KEY")
	RegisterKey("injected", "ik-0987654321zyxw")
	RegisterKey("short", "EMPTY")
	k := Keys()
	got := k.String("a sk-test-DONOTLEAK-0123456789 b rk-abcdefghijklmnop c ik-0987654321zyxw d EMPTY")
	want := "a [redacted:OPENAI_API_KEY] b [redacted:REDACT_TEST_KEY] c [redacted:injected] d EMPTY"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if !IsKeyVar("REDACT_TEST_KEY") || !IsKeyVar("ANTHROPIC_API_KEY") {
		t.Error("IsKeyVar: a registered or default variable is not a key variable")
	}
	known := KeyValues()
	for _, tc := range []struct {
		entry string
		want  bool
	}{
		{"OPENAI_API_KEY=anything", true},
		{"REDACT_TEST_KEY=x", true},
		{"COPY=prefix-sk-test-DONOTLEAK-0123456789", true},
		// other writings of a known key: a program reads them back
		{"SPACED=s k - t e s t - D O N O T L E A K - 0 1 2 3 4 5 6 7 8 9", true},
		{"GROUPED=rk-ab cdef ghij klmn op", true},
		{"UPPER=IK-0987654321ZYXW", true},
		{"LOOKALIKE=rk-аbcdefghijklmnоp", true}, // Cyrillic а and о
		// a piece of a key, or its letters with others between them, is not
		{"PIECE=DONOTLEAK", false},
		{"INTERLEAVED=r1k2-a3b4c5d6e7f8g9h0ijklmnop", false},
		{"HOME=/root", false},
		{"PATH=/usr/local/bin:/usr/bin:/bin", false},
	} {
		if got := HoldsKey(tc.entry, known); got != tc.want {
			t.Errorf("HoldsKey(%q) = %v, want %v", tc.entry, got, tc.want)
		}
	}
}

func BenchmarkFind(b *testing.B) {
	r := newTest()
	text := strings.Repeat("The worker sends a revoked key; rotate vault to v7 and purge billing-worker.log.1. ", 100)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if r.Contains(text) {
			b.Fatal("leak")
		}
	}
}

// BenchmarkFindHostile is the worst case: a document made of the secret
// repeated.
func BenchmarkFindHostile(b *testing.B) {
	r := newTest()
	text := strings.Repeat(stripe+" ", 1<<14)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if len(r.Find(text)) != 1<<14 {
			b.Fatal("leaks missed")
		}
	}
}

// Words of a command line that look like keys, and words that do not.
func TestKeysInArgument(t *testing.T) {
	for _, tc := range []struct {
		prev, word string
		want       []string
	}{
		{"--key", "sk-proj-Qw3rTy7UiOp9AsDfGh", []string{"sk-proj-Qw3rTy7UiOp9AsDfGh"}},
		{"", "--api-key=abcdefgh12345678", []string{"abcdefgh12345678"}},
		{"--token", "short", nil},
		{"-H", "Authorization: Bearer ghp_16C7e42F292c6912E7710c8", []string{"ghp_16C7e42F292c6912E7710c8"}},
		{"", "wJalrXUtnFEMI_K7MDENG_bPxRfiCYEXAMPLE9", []string{"wJalrXUtnFEMI_K7MDENG_bPxRfiCYEXAMPLE9"}},
		{"Bearer", "abcdefgh-ijklmnop", []string{"abcdefgh-ijklmnop"}},
		{"", "/opt/summarizers/GptSummarizerV2Final2024.py", nil},
		{"--model", "gpt-4o-mini-2024-07-18", nil},
		{"", "summarize.py", nil},
		{"--max-tokens", "40960000", nil},
		{"", "--max-tokens=40960000", nil},
		{"", "OPENAI_API_KEY=abcdefgh12345678", []string{"abcdefgh12345678"}},
		{"--auth-token", "abcdefgh12345678", []string{"abcdefgh12345678"}},
	} {
		if got := KeysInArgument(tc.prev, tc.word); !cmp.Equal(got, tc.want) {
			t.Errorf("KeysInArgument(%q, %q) = %q, want %q", tc.prev, tc.word, got, tc.want)
		}
	}
}

// A run of another form of the value over a leak the text shows plainly
// adds nothing but the coincidence of its ends: "0123456789" is its own
// reversed Atbash, and a letter after it, read shifted, continued that
// form's run, so the word after the secret lost its first letter.
func TestVariantRunsDoNotWidenAPlainLeak(t *testing.T) {
	r := New([]Secret{{ID: "k", Value: `tok"en\with-quote-0123456789`}})
	for _, tc := range []struct{ in, want string }{
		{`see tok"en\with-quote-0123456789 and more`, "see [redacted:k] and more"},
		{`see tok"en\with-quote-0123456789 a`, "see [redacted:k] a"},
		{`tok"en\with-quote-0123456789 and tok"en\w`, "[redacted:k] and [redacted:k]"},
	} {
		if got := r.String(tc.in); got != tc.want {
			t.Errorf("String(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
