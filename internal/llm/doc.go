// Package llm is the OpenAI-compatible chat client shared by the openai
// summarizers and agents: retries with backoff that honour Retry-After, rate
// limits (requests and prompt tokens per minute), an adaptive concurrency
// limit shared by a run, a per-attempt timeout, and a content-addressed
// response cache on disk.
//
// The API key is sent to the endpoint and nowhere else: it is not part of a
// cache key, an error message, a log line or provenance.
package llm
