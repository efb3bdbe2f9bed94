package main

import (
	"flag"
	"fmt"

	"github.com/compact-eval/compact-eval/providers"
)

// The roles of a model target, as the max-tokens flags name them.
const (
	roleSummarizer = "summarizer"
	roleAgent      = "agent"
	roleJudge      = "judge"
)

// roleMaxTokens is each role's default output-token limit.
var roleMaxTokens = map[string]int{
	roleSummarizer: providers.DefaultSummarizerMaxTokens,
	roleAgent:      providers.DefaultAgentMaxTokens,
	roleJudge:      providers.DefaultJudgeMaxTokens,
}

// maxTokensFlags are the output-token limits per role
// (--summarizer-max-tokens, --agent-max-tokens, --judge-max-tokens); 0 is
// not given. --max-tokens (providers.OpenAIOptions) bounds every role.
type maxTokensFlags map[string]*int

// registerMaxTokens declares the flag of each role on fs.
func registerMaxTokens(fs *flag.FlagSet, roles ...string) maxTokensFlags {
	m := maxTokensFlags{}
	for _, r := range roles {
		m[r] = fs.Int(r+"-max-tokens", 0, fmt.Sprintf("bound on each %s reply of a model target, in tokens (max_tokens; max_output_tokens on the Responses API); wins over --max-tokens and the %s's params.max_tokens in the config file (default %d)", r, r, roleMaxTokens[r]))
	}
	return m
}

// validate refuses a negative limit.
func (m maxTokensFlags) validate(all int) error {
	if all < 0 {
		return usagef("--max-tokens %d: want a number of tokens ≥ 1 (0: each role's default)", all)
	}
	for r, v := range m {
		if *v < 0 {
			return usagef("--%s-max-tokens %d: want a number of tokens ≥ 1", r, *v)
		}
	}
	return nil
}

// apply sets the output-token limit of target t of role on o: the role's
// flag, else what o holds (the target's params.max_tokens, else
// --max-tokens), else the role's default; and the hint a truncated reply
// names to raise it.
func (m maxTokensFlags) apply(o *providers.OpenAIOptions, role string) {
	if v := m[role]; v != nil && *v > 0 {
		o.MaxTokens = *v
	}
	if o.MaxTokens <= 0 {
		o.MaxTokens = roleMaxTokens[role]
	}
	// Short: a console line clips a unit's error at 200 characters, and
	// names the target already.
	o.MaxTokensHint = fmt.Sprintf("--%s-max-tokens or its params.max_tokens", role)
}
