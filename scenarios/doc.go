// Package scenarios reads compact-eval scenario files (docs/formats.md §2): YAML
// agent sessions with typed invariants and decision probes.
//
// Loading (LoadFile, LoadBytes, LoadPaths, Builtin) is strict: unknown fields
// are refused and every problem in a file is reported, each as an *Error
// "file:line:col: message", collected in an ErrorList sorted by position.
// Loading checks each part on its own (types, event payloads, seq numbering)
// and expands `filler` entries into deterministic noise events. Lint checks
// how the parts refer to each other (tool results to calls, invariant seqs to
// events of the right role, probe keys to options, cuts to protocol units,
// patterns compile) and ids across a suite.
//
// Numbering: `seq` is given on every event of a file or on none. Without
// it, events are numbered 1, 2, … in file order, filler included. With it,
// a filler entry's events take the seqs right after the event before it (1
// when it comes first), and the next explicit seq must be greater than the
// last of them; arrivals follow the last event the same way.
//
// Filler: `- filler: {count, seed, topic}` expands into count events about
// topic (network, code, web or data): user and assistant prose mixed with
// complete tool call/result pairs (call ids f<seed>-<n>, status ok), 20 to
// about 450 tokens each. The same seed gives the same events. Filler never
// leaves an operation unresolved, never names a path, value or op id that an
// invariant names, never matches an invariant's or a probe's pattern (it
// re-rolls; a pattern so broad that nothing avoids it is an error), and never
// repeats the text of another event. Two fillers of one file need different
// seeds.
//
// Limits, chosen so that bad input fails fast and clearly: a file is at most
// MaxFileSize (8 MiB) and is refused before it is read; YAML aliases are
// refused (no "billion laughs"); binary (NUL bytes) and non-UTF-8 files are
// refused at the offending byte; a file holds one YAML document; a filler
// entry makes at most MaxFillerCount events and a scenario has at most
// MaxEvents events, explicit, filler and arrivals together; a file holds at
// most MaxNodes YAML nodes, bounded from its bytes before it is parsed (the
// parser's tree is what costs memory); tags other than the core ones
// (!!binary, local tags) are refused with a position.
//
// SchemaJSON is the JSON Schema (draft 2020-12) of the file format, for
// editors.
package scenarios
