module github.com/compact-eval/compact-eval

go 1.26.8

require (
	github.com/dlclark/regexp2/v2 v2.5.1
	github.com/google/go-cmp v0.7.0
	github.com/rogpeppe/go-internal v1.16.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/sashabaranov/go-openai v1.43.0
	github.com/tiktoken-go/tokenizer v0.10.0
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
	golang.org/x/text v0.14.0
	golang.org/x/time v0.16.0
	gopkg.in/yaml.v3 v3.0.1
)

require golang.org/x/tools v0.26.0 // indirect
