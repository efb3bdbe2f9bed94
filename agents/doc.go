// Package agents holds the agents that answer a scenario's decision probes,
// once on the full context and once on the compacted one; a probe whose
// answer is right on the full context and wrong on the compacted one is a
// compaction regression.
//
// An Agent has one method, Decide, which gets a Request (the arm, the
// probe's question and options, never its expected answer, and the arm's
// Context: rules, goal, the active summary as ForAgent shows it, the events
// after its coverage) and returns a Decision: the option key chosen and a
// reason. Implementations must be safe for concurrent use. Func adapts a
// function, for an agent of your own in Go. Two markers tell the runner
// what it may do with an agent: a Memoizable one is asked once per distinct
// context, and a Local one (it decides in the process, calling nothing) has
// its units evaluated off the job slots that model calls hold.
//
// New builds the agent a spec names (parsed by providers.ParseSpec, with
// providers.Options shared with the summarizers):
//
//   - builtin:reference: Reference, offline and deterministic. It reads the
//     probe's requires (Request.Requires, never sent to any other agent) and
//     picks the first option whose patterns the context affirms, so that a
//     regression it reports is the summary's doing and not a model's mood;
//   - exec:COMMAND ARGS…: a program speaking the exec protocol's decide
//     request (docs/formats.md §4), run by NewExec;
//   - openai:MODEL: a model behind an OpenAI-compatible endpoint (NewOpenAI),
//     asked for the option key as structured output.
//
// CheckProbes lints a scenario's probes against the reference agent: each
// probe must be answerable as expected on the scenario's own full history.
package agents
