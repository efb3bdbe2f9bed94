package providers_test

import (
	"fmt"

	"github.com/compact-eval/compact-eval/providers"
)

// ParseSpec reads the specs of --summarizer and --agent; an exec command
// line is split into words with shell-like quoting (no shell runs it).
func ExampleParseSpec() {
	for _, raw := range []string{"builtin:mask", `exec:python3 "my summarizer.py" --v2`, "openai:gpt-4o-mini"} {
		spec, err := providers.ParseSpec(raw)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: name %q, command %q\n", spec.Kind, spec.Name, spec.Command)
	}
	_, err := providers.ParseSpec("gpt-4o")
	fmt.Println(err)
	// Output:
	// builtin: name "mask", command []
	// exec: name "", command ["python3" "my summarizer.py" "--v2"]
	// openai: name "gpt-4o-mini", command []
	// spec "gpt-4o": want builtin:NAME, exec:COMMAND, openai:MODEL, anthropic:MODEL, openai-responses:MODEL or recorded
}
