package providers_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/providers"
	"github.com/google/go-cmp/cmp"
)

func TestExecSpecRoundTrip(t *testing.T) {
	tests := []struct {
		name    string
		command []string
		want    string
	}{
		{"plain", []string{"python3", "summarize.py", "--fast"}, "exec:python3 summarize.py --fast"},
		{"spaces", []string{"/opt/my tools/sum", "a b"}, "exec:'/opt/my tools/sum' 'a b'"},
		{"quotes", []string{"sh", "-c", `echo "it's"`}, `exec:sh -c 'echo "it'\''s"'`},
		{"empty word", []string{"prog", ""}, "exec:prog ''"},
		{"backslash", []string{`C:\x`}, `exec:'C:\x'`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := providers.ExecSpec(tc.command)
			if got != tc.want {
				t.Errorf("ExecSpec = %q, want %q", got, tc.want)
			}
			spec, err := providers.ParseSpec(got)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.command, spec.Command); diff != "" {
				t.Errorf("ParseSpec(ExecSpec(c)).Command (-want +got):\n%s", diff)
			}
		})
	}
}

// A URL's password and a key-named query value on an exec command line
// are hidden in the spec recorded and in the errors that quote it, and
// the command keeps them, to run; a key the harness knows, written with
// spaces between its characters, is refused as written plainly is.
func TestExecSpecCredentials(t *testing.T) {
	const pass, short = "Hunt3rPw2", "k3y9"
	raw := "exec:./s --url https://bob:" + pass + "@llm.example/v1?api_key=" + short + "&m=1"
	spec, err := providers.ParseSpec(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := "exec:./s --url https://bob:[redacted:command-line-key]@llm.example/v1?api_key=[redacted:command-line-key]&m=1"
	if spec.Raw != want {
		t.Errorf("Raw = %q, want %q", spec.Raw, want)
	}
	if got := spec.Command[2]; got != "https://bob:"+pass+"@llm.example/v1?api_key="+short+"&m=1" {
		t.Errorf("the command lost its credentials: %q", got)
	}
	if _, err := providers.ParseSpec(raw + ` "unterminated`); err == nil || strings.Contains(err.Error(), pass) || strings.Contains(err.Error(), short) {
		t.Errorf("the error quotes a credential (or none): %v", err)
	}

	const key = "sk-test-Q7xmPz4KvR9wAb3CdE5f"
	t.Setenv("OPENAI_API_KEY", key)
	spaced := strings.Join(strings.Split(key, ""), " ")
	_, err = providers.ParseSpec("exec:./s --key '" + spaced + "'")
	var keyErr *providers.KeyInCommandError
	if !errors.As(err, &keyErr) || keyErr.Var != "OPENAI_API_KEY" {
		t.Errorf("the key with spaces between its characters: err %v, want it refused naming OPENAI_API_KEY", err)
	}
}
