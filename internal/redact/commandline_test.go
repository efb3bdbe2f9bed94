package redact

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The credentials of a command line are hidden however short, where the
// spec is written: a URL's userinfo password, the value of a query
// parameter named like a key; every other word is kept as written.
func TestCommandLine(t *testing.T) {
	const tag = CommandLineTag
	for _, tc := range []struct{ name, in, want string }{
		{"userinfo", "exec:./s --url https://bob:hunter2@llm.example/v1", "exec:./s --url https://bob:" + tag + "@llm.example/v1"},
		{"userinfo, short", "exec:./s postgres://u:pw@db:5432/x", "exec:./s postgres://u:" + tag + "@db:5432/x"},
		{"userinfo, no user", "exec:./s redis://:s3cr3t@cache/0", "exec:./s redis://:" + tag + "@cache/0"},
		{"userinfo, a colon in the password", "exec:./s https://u:a:b@h/", "exec:./s https://u:" + tag + "@h/"},
		{"two URLs", "exec:./s https://a:one@h1/ https://b:two@h2/", "exec:./s https://a:" + tag + "@h1/ https://b:" + tag + "@h2/"},
		{"quoted", `exec:./s "--url=https://u:p4ss@h/x"`, `exec:./s "--url=https://u:` + tag + `@h/x"`},
		{"api_key", "exec:./s https://h/v1?api_key=k3y9&model=m", "exec:./s https://h/v1?api_key=" + tag + "&model=m"},
		{"access_token after another", "exec:./s https://h/?a=1&access_token=abc", "exec:./s https://h/?a=1&access_token=" + tag},
		{"signature, mixed case", "exec:./s https://b.s3/o?X-Amz-Signature=0f1e2d&X-Amz-Date=2026", "exec:./s https://b.s3/o?X-Amz-Signature=" + tag + "&X-Amz-Date=2026"},
		{"password", "exec:./s 'https://h/login?user=a&password=x y'", "exec:./s 'https://h/login?user=a&password=" + tag + " y'"},
		{"sig", "exec:./s https://h/?sig=abc%2Fdef", "exec:./s https://h/?sig=" + tag},
		// kept: words that merely hold a key's name, a user alone, a mail
		// address, a path
		{"a word ending in key", "exec:./s https://h/?monkey=banana", "exec:./s https://h/?monkey=banana"},
		{"a user without password", "exec:./s ssh://git@github.com/x", "exec:./s ssh://git@github.com/x"},
		{"a mail address", "exec:./s --to ops@example.com", "exec:./s --to ops@example.com"},
		{"a port", "exec:./s http://localhost:8000/v1", "exec:./s http://localhost:8000/v1"},
		{"no credential", "exec:python3 summarize.py --model gpt-4o", "exec:python3 summarize.py --model gpt-4o"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CommandLine(tc.in); got != tc.want {
				t.Errorf("CommandLine(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// A key the harness knows is hidden from a command line however it is
// written there: as is, or with separators between its characters.
func TestCommandLineHidesKnownKeys(t *testing.T) {
	const key = "sk-test-Q7xmPz4KvR9wAb3CdE5f"
	t.Setenv("OPENAI_API_KEY", key)
	for _, w := range []string{key, groups(key, 4, " "), eachRune(key, func(int) string { return " " }), groups(key, 5, "-")} {
		got := CommandLine("exec:./s --flag '" + w + "'")
		if strings.Contains(Skeleton(got), Skeleton(key)[4:]) || !strings.Contains(got, "[redacted:OPENAI_API_KEY]") {
			t.Errorf("CommandLine of %q = %q: the key is not hidden", w, got)
		}
	}
}

// The credentials of a URL and of a key-named query parameter are keys
// of the command line (registered, so hidden in all a run writes) when
// they are MinKeyLen characters or more.
func TestKeysInURLs(t *testing.T) {
	for _, tc := range []struct {
		word string
		want []string
	}{
		{"https://bob:Hunt3rPw2@llm.example/v1", []string{"Hunt3rPw2"}},
		{"--url=https://bob:Hunt3rPw2@llm.example/v1", []string{"Hunt3rPw2"}},
		{"https://h/v1?api_key=k3y9k3y9k3y9&model=m", []string{"k3y9k3y9k3y9"}},
		{"https://h/v1?access_token=abcdefgh1234", []string{"abcdefgh1234"}},
		{"postgres://u:pw@db/x", nil},                       // too short to hide elsewhere (CommandLine hides it in the spec)
		{"https://h/?monkey=bananabanana", nil},             // not a key's name
		{"ssh://git@github.com/compact-eval/x", nil},        // a user, no password
		{"http://localhost:8000/v1?model=gpt-4o-mini", nil}, // no credential
	} {
		if got := KeysInArgument("", tc.word); !cmp.Equal(got, tc.want) {
			t.Errorf("KeysInArgument(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}
