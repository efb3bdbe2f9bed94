// Package importer turns a recorded agent session into a scenario skeleton
// (docs/formats.md §2) that passes validation, with suggested invariants written as
// YAML comments for the author to confirm.
//
// Seven formats are read, each from a stream (OTLP traces held whole,
// since a trace's spans come in any order):
//
//   - FormatOpenAI: Chat Completions messages (assistant tool_calls, role
//     "tool" replies with tool_call_id) as a JSON array, a {"messages": [...]}
//     object, JSONL with one conversation a line (Options.Index picks one) or
//     JSONL with one message a line.
//   - FormatAnthropic: Messages API content blocks (text, tool_use,
//     tool_result with is_error) in the same containers.
//   - FormatClaudeCode: Claude Code session logs (JSONL; user/assistant lines
//     carry an Anthropic message; summary lines, compact boundaries and
//     compact summaries become notes; a message the user typed while the
//     agent worked, which the running turn absorbed (queue-operation
//     remove), becomes a user event: ccqueue.go).
//   - FormatCodex: OpenAI Codex CLI rollout files (JSONL of session items;
//     response_item messages, function and custom tool calls and their
//     outputs; compacted items become notes).
//   - FormatSWEAgent: SWE-agent .traj files: the "history" messages
//     (function-calling tool_calls and tool_call_ids, or an action whose
//     output is the next observation), else the "trajectory" steps
//     (thought, action, observation); demonstrations are dropped.
//   - FormatOpenHands: OpenHands events: the event stream (actions and
//     observations paired by "cause" or by tool_call_metadata; condensations
//     become notes) and the SDK's typed events ("kind"), as a JSON array,
//     an object with "history" or "events", JSONL, or evaluation output
//     with one instance a line.
//   - FormatOTel: OpenTelemetry GenAI spans in OTLP JSON, one trace a
//     session, rebuilt from each inference span's context and reply
//     (otel.go, over the snapshots of snapshots.go).
//   - FormatLangSmith: LangSmith run exports (the run data format, as a
//     JSON array, JSONL, the runs query's {"runs": [...]} or a run with
//     its child_runs), one thread or trace a session, rebuilt from each
//     llm run's context and reply in the same way (langsmith.go); the
//     SummarizationMiddleware's summary is a recorded compaction.
//
// Files that hold OpenAI or Anthropic messages somewhere else are read with
// Options.MessagesPath, a JSON pointer into each record of a file of records
// (a JSON array or JSONL of objects, such as a benchmark's
// {task_id, reward, traj: [...]}); Options.Index picks a record and
// ImportEach imports them all. Detection (DetectInput) recognises each
// format by the shape of the input's first megabyte and finds such a
// pointer itself when one array of chat messages is there.
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
// Claude Code "summary" lines are kept as notes although the client often
// writes them as session titles (and sometimes copies them from other
// sessions); the author deletes the ones that are not compactions.
//
// # Suggested invariants
//
// Suggestions are written as YAML comments after the header, each with the
// reason it was suggested; none is active until the author uncomments it.
// Terminal escape codes are stripped first, and each kind is deduplicated.
// They are drawn from: imperative rules in user and system text, in either
// polarity ("do not", "never", "always", "only use", "must", "must not",
// "are off limits", "read-only", Spanish "no" before a verb, "nunca",
// "siempre", "solo", "debe", "solo lectura"; a requirement with "should",
// "needs to", "has to", "is required to", "ought to", but not the same
// modal stating an expected outcome: "this should work", "you should
// see"; an imperative with no marker whose verb constrains how the work
// is done: "keep …", "stop after …", "leave … untouched"), never from a description ("only has", "no está"), an answer
// ("No, …"), a question or pasted tool output (constraint); calls with no result before the cut
// (pending_operation); near-twin paths that tool calls touched (read,
// written, edited, run), never from one listing, where one was edited, the
// user named one or separate calls touched them, required being the one
// edited (artifact); user turns that redirect the agent ("actually", "wait,
// … instead", "not X but Y", "Y, not X", "no X sino Y", "en realidad", any
// turn after an interruption) (correction); an assistant guess ("I think",
// "probably", "it's a …") that a later user turn denies with the same key
// words (refuted_hypothesis); known key prefixes and high-entropy tokens,
// never an API's identifier (msg_…, req_…, call_…) (secret); numbers with
// units in prose, never in code spans or commands, and not a value the user
// later corrected (quantity). The skeleton's goal quotes only the opening
// sentences that hold none of that evidence. docs/import.md lists the rules
// and the measured precision. Each list is capped, so the scan's state
// stays small.
//
// The rules live in package importer/suggest, which reads events and knows
// nothing of formats; this package renders what it finds as YAML comments.
//
// # Layout
//
// importer.go holds the API (Import, ImportEach, Options, Report) and
// detect.go, shape.go and records.go find the format and the records; the
// shared pipeline is the session builder (session.go, spill.go), the line
// and JSON streaming (pipeline.go, lines.go, stream.go, jsonstr.go) and the
// writer (write.go, suggestions.go, yaml.go). Each format has its own
// file: openai.go and anthropic.go (over the chat containers of chat.go
// and the content blocks of content.go), claudecode.go, codex.go,
// sweagent.go, openhands.go, and compactbench*.go (the case, matching its
// evidence, its invariants, its probes, writing its scenario).
//
// # Streaming, speed and memory
//
// Input is read as a stream: JSONL through a bufio.Reader with a large
// maximum line (Options.MaxLineBytes), JSON documents with json.Decoder
// tokens so that a huge array is decoded one message at a time. JSONL lines
// are decoded on worker goroutines in batches and applied in order; a
// renderer goroutine scans each event for suggestions and renders its YAML
// beside the parser. Rendered events go to memory up to a few megabytes,
// then to a temporary file (Options.TempDir), and are copied to the output
// after the header, whose cut and suggestions need the whole session.
//
// So memory does not grow with the log's text: what stays is a few dozen
// bytes per event (role, kind, pairing), the call-id index, Claude Code's
// parent-uuid counts (for the branch warning), the bounded suggestion state,
// and the batches in flight (a few times 2 MiB, or the longest line). A
// generated 100 MB log imports with about 50 MB of resident memory.
//
// The scenario loader reads files of at most scenarios.MaxFileSize with at
// most scenarios.MaxEvents events; a larger import still completes, with a
// warning that says how to make it fit (--max-event-chars).
package importer
