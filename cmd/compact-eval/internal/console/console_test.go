package console

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// commandLine reports the first line of out that a GitHub Actions runner
// would read as a workflow command: "::" first after blanks, a line being
// ended by '\n' or '\r'.
func commandLine(out string) string {
	for _, l := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") {
			return l
		}
	}
	return ""
}

var hostile = []string{
	"a\n::error::pwned",
	"::error file=x::pwned",
	"  ::add-mask::secret",
	"ok\r::stop-commands::tok",
	"\t\t::warning::x",
	"\x1b]0;title\x07\x1b[2J",
}

// No line written through a Guard starts a workflow command, however the
// text is cut into writes, and control characters reach no terminal.
func TestGuard(t *testing.T) {
	for _, h := range hostile {
		for cut := 0; cut <= len(h); cut++ {
			var b bytes.Buffer
			g := NewGuard(&b)
			g.Write([]byte(h[:cut]))
			g.Write([]byte(h[cut:]))
			if l := commandLine(b.String()); l != "" {
				t.Errorf("%q cut at %d: line %q starts a workflow command", h, cut, l)
			}
			if strings.ContainsAny(b.String(), "\x1b\x07") {
				t.Errorf("%q: an escape sequence reached the output: %q", h, b.String())
			}
		}
	}
	var b bytes.Buffer
	g := NewGuard(&b)
	g.Write([]byte("file.yaml:3:5: events[0]: a: b\nverdict: ok\n"))
	if b.String() != "file.yaml:3:5: events[0]: a: b\nverdict: ok\n" {
		t.Errorf("an ordinary text was changed: %q", b.String())
	}
}

func TestGuardConcurrent(t *testing.T) {
	var b bytes.Buffer
	g := NewGuard(&b)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				g.Write([]byte("line\n::error::x\n"))
			}
		})
	}
	wg.Wait()
	if l := commandLine(b.String()); l != "" {
		t.Errorf("line %q starts a workflow command", l)
	}
}

func TestText(t *testing.T) {
	tests := map[string]string{
		"plain name.yaml":       "plain name.yaml",
		"a\n::error::x.yaml":    `a\n::error::x.yaml`,
		"tab\there\r":           `tab\there\r`,
		"esc\x1b[31mred":        `esc\x1b[31mred`,
		"bad \xff byte":         `bad \xff byte`,
		"rtl \u202egnp.exe":     `rtl \u202egnp.exe`,
		"line\u2028sep":         `line\u2028sep`,
		"contraseña-Ñandú ✓ 日本": "contraseña-Ñandú ✓ 日本",
	}
	for in, want := range tests {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Lines("one\ntwo\x1b"); got != "one\ntwo\\x1b" {
		t.Errorf("Lines = %q", got)
	}
}

// The GitHub Actions runner also reads the legacy form "##[command]data"
// anywhere in a line (ActionCommand.TryParse looks for "##[" with IndexOf),
// and it trims every Unicode blank (String.TrimStart) before looking for a
// "::" command: a no-break space or an ideographic space in front is no
// guard.
func TestGuardLegacyCommandsAndUnicodeBlanks(t *testing.T) {
	for _, h := range []string{
		"name ##[add-mask]hunter2",
		"scenario x: ##[stop-commands]tok",
		"##[error]pwned",
		"a #\n##[warning]x",
		"\u00a0::error::pwned",
		"\u3000\u2003::add-mask::secret",
		"\u0085::error::nel",
		"ok\n\u202f::warning::x",
	} {
		for cut := 0; cut <= len(h); cut++ {
			var b bytes.Buffer
			g := NewGuard(&b)
			g.Write([]byte(h[:cut]))
			g.Write([]byte(h[cut:]))
			out := b.String()
			if strings.Contains(out, "##[") {
				t.Errorf("%q cut at %d: a legacy workflow command reached the output: %q", h, cut, out)
			}
			for _, l := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
				if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") {
					t.Errorf("%q cut at %d: line %q starts a workflow command after Unicode blanks", h, cut, l)
				}
			}
		}
	}
	var b bytes.Buffer
	g := NewGuard(&b)
	g.Write([]byte("# heading\n## section: ok\ncolour #[x] and ##x\n"))
	if b.String() != "# heading\n## section: ok\ncolour #[x] and ##x\n" {
		t.Errorf("an ordinary text was changed: %q", b.String())
	}
}
