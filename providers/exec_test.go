package providers_test

import (
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
