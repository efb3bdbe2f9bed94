// Package scenarios reads compact-eval scenario files (FORMATS.md §2): YAML
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
// Limits, chosen so that bad input fails fast and clearly: a file is at most
// MaxFileSize (8 MiB) and is refused before it is read; YAML aliases are
// refused (no "billion laughs"); binary (NUL bytes) and non-UTF-8 files are
// refused at the offending byte; a file holds one YAML document; a filler
// entry makes at most MaxFillerCount events.
//
// SchemaJSON is the JSON Schema (draft 2020-12) of the file format, for
// editors.
package scenarios
