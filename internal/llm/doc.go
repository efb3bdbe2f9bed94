// Package llm is the model client shared by the model-backed summarizers and
// agents: OpenAI-compatible chat completions (Chat, ChatStructured) and JSON
// calls to other provider APIs such as Anthropic's Messages API and OpenAI's
// Responses API (Post). Every call gets the same machinery: retries with
// backoff that honour Retry-After, rate limits (requests and prompt tokens per
// minute), an adaptive concurrency limit shared by a run, a per-attempt
// timeout, and a content-addressed response cache on disk.
//
// The API key is sent to the endpoint and nowhere else: it is not part of a
// cache key, an error message, a log line or provenance.
package llm
