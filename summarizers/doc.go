// Package summarizers holds the systems under test of compact-eval: what
// turns a stretch of an agent's history into a summary document. The
// document itself (its Go types, decoding and schema) is package summary.
//
// A Summarizer has one method, Summarize, which gets a Request (the events
// through a cut, the goal and rules, the previous summary of an iterative
// rebuild) and returns a Response holding the raw summary document
// (docs/formats.md §3) and the provenance of the call (Call: spec, model,
// latency, usage; never an API key). Implementations must be safe for
// concurrent use: the runner calls one summarizer from many units at once.
// Func adapts a function; that is the way to test a summarizer of your own
// from Go, with the runner (runner.Options.Summarizers) or alone.
//
// New builds the summarizer a Spec names, as --summarizer and the config
// file do (ParseSpec reads the spec string):
//
//   - builtin:NAME: the deterministic baselines of Builtins (none, the
//     control arm that does not compact; truncate; mask; extractive), each
//     also available as NewNone, NewTruncate, NewMask, NewExtractive;
//   - exec:COMMAND ARGS…: any program speaking the exec protocol
//     (docs/formats.md §4: one JSON request on standard input, one summary
//     document on standard output), run by NewExec with a time limit and
//     without the harness's API keys in its environment;
//   - openai:MODEL: a model behind an OpenAI-compatible endpoint (NewOpenAI,
//     configured by OpenAIOptions: endpoint, key from the environment,
//     prompt template, limits, retries, the response cache).
//
// The same Spec and Options build agents (package agents).
package summarizers
