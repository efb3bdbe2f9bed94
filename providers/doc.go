// Package providers is the plumbing that the summarizers, the agents and
// the judges share to reach a model: the spec that names a system under
// test (Spec, ParseSpec: builtin:NAME, exec:COMMAND, openai:MODEL,
// anthropic:MODEL, openai-responses:MODEL), the options that configure
// them (Options, and OpenAIOptions for an endpoint: base URL, key variable,
// limits, retries, the response cache, and its flags), the shared model
// client built from those options (NewOpenAIClient, NewProviderClient), the
// provenance recorded for each call, and the wire shapes of the provider
// APIs that compaction is evaluated on: Anthropic's Messages API with
// compaction (AnthropicMessages, AnthropicCompactionMessage) and OpenAI's
// Responses API (ResponsesItems, ResponsesInput).
//
// It builds nothing that summarizes or decides: package summarizers builds
// summarizers from a Spec, package agents agents, package judges judges.
package providers
