package providers_test

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/providers"
)

func TestCheckAgentReads(t *testing.T) {
	spec := func(s string) providers.Spec {
		sp, err := providers.ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		return sp
	}
	for _, tc := range []struct {
		sum, agent string
		ok         bool
	}{
		{"openai-responses:m", "openai-responses:m", true},
		{"openai-responses:m", "openai:gpt-4o", false},
		{"openai-responses:m", "anthropic:claude", false},
		{"openai-responses:m", "builtin:reference", false},
		{"openai-responses:m", "exec:./agent", false},
		{"anthropic:m", "openai:gpt-4o", true}, // readable text
		{"anthropic:m", "builtin:reference", true},
		{"builtin:extractive", "openai-responses:m", true},
	} {
		err := providers.CheckAgentReads(spec(tc.sum), spec(tc.agent))
		if (err == nil) != tc.ok {
			t.Errorf("%s with %s: %v", tc.sum, tc.agent, err)
		}
		if err != nil && strings.Count(err.Error(), ". ") > 0 {
			t.Errorf("%q: want one sentence", err)
		}
	}
}
