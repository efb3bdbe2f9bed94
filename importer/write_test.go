package importer

import (
	"bytes"
	"testing"

	"gopkg.in/yaml.v3"
)

// roundTrip renders value under key as appendField does, nested the way
// events nest it, and reads it back with yaml.v3.
func roundTrip(t testing.TB, value string) (string, []byte) {
	t.Helper()
	buf := []byte("- role: tool # seq 1\n  tool_result:\n")
	buf = appendField(buf, 4, "call_id", "c")
	buf = appendField(buf, 4, "text", value)
	buf = appendField(buf, 2, "text", value)
	var got []struct {
		Text       string `yaml:"text"`
		ToolResult struct {
			Text string `yaml:"text"`
		} `yaml:"tool_result"`
	}
	if err := yaml.Unmarshal(buf, &got); err != nil {
		t.Fatalf("unmarshal %q: %v\n%s", value, err, buf)
	}
	if len(got) != 1 || got[0].Text != got[0].ToolResult.Text {
		t.Fatalf("the two copies of %q differ:\n%s", value, buf)
	}
	return got[0].Text, buf
}

func TestAppendFieldRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		value string
	}{
		{"plain id", "call_a1"},
		{"looks like a bool", "yes"},
		{"looks like a number", "5432"},
		{"one trailing newline", "line one of a long enough tool output\nline two\n"},
		{"no trailing newline", "line one of a long enough tool output\nline two"},
		{"several trailing newlines", "line one of a long enough tool output\n\n\n"},
		{"empty lines inside", "a\n\n\nb\n"},
		{"indented lines", "func main() {\n\tif x {\n    y()\n  }\n}\n"},
		{"leading space", "  indented first line that is long enough\nsecond"},
		{"leading newline", "\nstarts with a break"},
		{"yaml look-alikes", "key: value\n- item\n--- \n...\n# not a comment\n&anchor *alias !tag"},
		{"trailing spaces", "trailing spaces here on a long line   \n  \n   "},
		{"carriage returns", "windows line\r\nendings that are long enough\r\n"},
		{"unicode", "ñandú 🚀 — «comillas» and a long enough line\nsegunda línea"},
		{"line separator", "a\u2028b is a long line with a separator in it"},
		{"control characters", "bell \a and escape \x1b[31m red, long enough\n"},
		{"invalid utf-8", "bad \xff byte in a line long enough to be a block\n"},
		{"nel", "next\u0085line with enough characters to be a block"},
		{"bom", "\ufeffbom at the start of a long enough line\n"},
		{"long single line", "0123456789012345678901234567890123456789012345678901234567890123456789"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, buf := roundTrip(t, tc.value)
			want := tc.value
			if !validUTF8(want) {
				want = "" // compared below by re-encoding
			}
			if want != "" && got != want {
				t.Errorf("read back %q, want %q\n%s", got, want, buf)
			}
		})
	}
}

func validUTF8(s string) bool {
	for _, r := range s {
		if r == '\uFFFD' {
			return false
		}
	}
	return true
}

// FuzzAppendField: whatever the text, the rendered YAML reads back as the
// same string (strings that are not valid UTF-8 are left to yaml.v3, which
// may refuse or replace them).
func FuzzAppendField(f *testing.F) {
	for _, s := range []string{"a\nb\n", "x: y", "  lead", "\n\n", "tab\there", "a\u2028b", "\r\n", "- a\n- b\n\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !validUTF8(s) {
			return
		}
		for _, r := range s {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || (r >= 0x80 && r < 0xA0) || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
				return // yaml.v3 escapes these in double quotes; covered by the table test
			}
		}
		got, buf := roundTrip(t, s)
		if got != s {
			t.Fatalf("read back %q, want %q\n%s", got, s, buf)
		}
	})
}

// TestPlainSentence: the plain fast path writes exactly what yaml.v3 would
// (plain, unquoted) and reads back unchanged; near-misses go to yaml.v3.
func TestPlainSentence(t *testing.T) {
	for _, s := range []string{
		"Running check 5.", "I'll look at both the caller and the test in one go.", "No, that's not it.",
		"Yes, go ahead.", "Editing polytools.py only.", "see (seq 3) and src/a_b-c.go", "True story, told twice.",
	} {
		if !plainSentence(s) {
			t.Errorf("plainSentence(%q) = false, want true", s)
			continue
		}
		var b struct{ bytes.Buffer }
		if err := encode(&b.Buffer, mapping("text", str(s))); err != nil {
			t.Fatal(err)
		}
		if want := "text: " + s + "\n"; b.String() != want {
			t.Errorf("yaml.v3 writes %q as %q, the fast path as %q", s, b.String(), want)
		}
		if got, _ := roundTrip(t, s); got != s {
			t.Errorf("round trip of %q gave %q", s, got)
		}
	}
	for _, s := range []string{
		"yes", "No", "null", "key: value", "a # comment", "two  spaces", "trailing space ", "- item", "[x]", "{x}",
		"ends with a colon:", "quote \"x\"", "50 ms", "'quoted'", "tab\there", "ümlaut", "&anchor", "*alias", "!tag", "%x", "@x", "`x`",
		"ends with a comma,", "a?", "a!",
	} {
		if plainSentence(s) {
			t.Errorf("plainSentence(%q) = true, want false", s)
		}
		if got, _ := roundTrip(t, s); got != s {
			t.Errorf("round trip of %q gave %q", s, got)
		}
	}
}

// TestAppendFlatArgsMatchesEncoder: the fast path for flat arguments writes
// byte for byte what yaml.v3 writes, or steps aside.
func TestAppendFlatArgsMatchesEncoder(t *testing.T) {
	vals := []string{`"ls"`, `"go test ./pkg1/..."`, `"grep -n 'x' -A12 /a/b.py"`, `"yes"`, `"No"`, `"null"`, `"~"`, `"key: v"`,
		`"a # b"`, `"50 ms"`, `""`, `" lead"`, `"tail "`, `"line\nbreak"`, `"ümlaut"`, `12`, `-3`, `1.5`, `1e3`, `true`, `false`, `null`,
		`[1, 2]`, `{"a": 1}`, `"True story."`, `"x\ty"`, `"e3"`, `"Inf"`, `"a'b"`, `"(x)"`}
	keys := []string{`"command"`, `"path"`, `"y"`, `"no"`, `"1a"`, `"a b"`, `"view_range"`, `"old_str"`}
	for _, k := range keys {
		for _, v := range vals {
			raw := []byte("{" + k + ": " + v + ", \"b\": \"ok\"}")
			want := appendNode(nil, 4, mapping("args", argsNode(raw)))
			got, ok := appendFlatArgs(nil, 4, raw)
			if ok && string(got) != string(want) {
				t.Errorf("%s: fast path wrote\n%s\nyaml.v3 writes\n%s", raw, got, want)
			}
		}
	}
	if _, ok := appendFlatArgs(nil, 4, []byte(`{"command": "ls", "timeout": 30}`)); !ok {
		t.Errorf("a flat object of plain values should take the fast path")
	}
}
