// Package importer turns a recorded agent session into a scenario skeleton
// (FORMATS.md §2) that passes validation, with suggested invariants written as
// YAML comments for the author to confirm.
//
// Four formats are read, each from a stream:
//
//   - FormatOpenAI: Chat Completions messages (assistant tool_calls, role
//     "tool" replies with tool_call_id) as a JSON array, a {"messages": [...]}
//     object, JSONL with one conversation a line (Options.Index picks one) or
//     JSONL with one message a line.
//   - FormatAnthropic: Messages API content blocks (text, tool_use,
//     tool_result with is_error) in the same containers.
//   - FormatClaudeCode: Claude Code session logs (JSONL; user/assistant lines
//     carry an Anthropic message; summary lines, compact boundaries and
//     compact summaries become notes).
//   - FormatCodex: OpenAI Codex CLI rollout files (JSONL of session items;
//     response_item messages, function and custom tool calls and their
//     outputs; compacted items become notes).
//
// # Mapping decisions
//
// Each tool call becomes one assistant event; text the assistant wrote in the
// same message rides on its first call event. A result is paired with its call
// by id, wherever it arrives (parallel calls may interleave). A call with no
// result stays an unresolved operation and is suggested as a pending_operation
// invariant. Results flagged as errors (is_error, a non-zero exit code, or
// success=false) get status "error". A result whose id names no earlier call is
// dropped with a warning, as is a second result for the same call.
//
// Timestamps are not written into event text: a "[12:03:04]" prefix would
// pollute what summarizers and probes read. The session's time span goes into
// the scenario title instead, and the number of dropped timestamps is a
// warning. Items with no place in §2 (reasoning and thinking blocks, token
// counts, turn contexts, file snapshots, unknown types) are dropped and
// counted per kind in a warning. A compaction already present in the log
// becomes a system event "[earlier compaction summary] …".
//
// Text is kept whole unless Options.MaxEventChars is set; then each event
// text and tool result longer than that many characters is cut and ends with
// the visible marker "…[trimmed N chars]".
//
// # Streaming and memory
//
// Input is read as a stream: JSONL line by line through a bufio.Reader with a
// large maximum line (Options.MaxLineBytes), JSON documents with json.Decoder
// tokens so that a huge array is decoded one message at a time. Parsed events
// are spilled in a compact binary form to a temporary file once they pass a
// few megabytes, and read back while the YAML is written; what stays in memory
// is a few dozen bytes of metadata per event (role, kind, pairing), the call id
// index, and the bounded suggestion state. So memory is dominated by the
// largest single line (or array element) and by the per-event metadata, not by
// the size of the log.
package importer
