package result_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

const self = "github.com/compact-eval/compact-eval/result"

// allowedDep reports whether a non-standard package may be a dependency of
// the result model: the JSON Schema library and what it needs, nothing of
// compact-eval.
func allowedDep(path string) bool {
	return path == self ||
		path == "github.com/santhosh-tekuri/jsonschema/v6" ||
		strings.HasPrefix(path, "github.com/santhosh-tekuri/jsonschema/v6/") ||
		strings.HasPrefix(path, "golang.org/x/text/")
}

// The point of the package: reading a result must not pull in the model
// clients, the tokenizer, YAML or the packages that make results.
func TestResultDeps(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH:", err)
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", self)
	cmd.Env = append(os.Environ(), "GOPROXY=off") // never the network
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list -deps %s: %v\n%s", self, err, stderr)
	}
	deps := strings.Fields(string(out))
	found := false
	for _, d := range deps {
		if d == self {
			found = true
		}
		if !allowedDep(d) {
			t.Errorf("%s depends on %s: the result model may import only the standard library and github.com/santhosh-tekuri/jsonschema/v6", self, d)
		}
	}
	if !found {
		t.Errorf("go list -deps %s does not list the package itself; it printed %q", self, deps)
	}
}

// allowedDep must refuse what the package exists to keep out.
func TestAllowedDepRefusesTheHeavyPackages(t *testing.T) {
	for _, d := range []string{
		"github.com/compact-eval/compact-eval/checks",
		"github.com/compact-eval/compact-eval/summarizers",
		"github.com/compact-eval/compact-eval/scenarios",
		"github.com/compact-eval/compact-eval/reports",
		"github.com/compact-eval/compact-eval/internal/inputfile",
		"github.com/compact-eval/compact-eval/internal/llm",
		"github.com/sashabaranov/go-openai",
		"github.com/anthropics/anthropic-sdk-go/v2",
		"github.com/tiktoken-go/tokenizer",
		"gopkg.in/yaml.v3",
	} {
		if allowedDep(d) {
			t.Errorf("allowedDep(%q) = true, want false", d)
		}
	}
	for _, d := range []string{self, "github.com/santhosh-tekuri/jsonschema/v6", "golang.org/x/text/unicode/norm"} {
		if !allowedDep(d) {
			t.Errorf("allowedDep(%q) = false, want true", d)
		}
	}
}
