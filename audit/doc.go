// Package audit watches real sessions: over a folder of agent logs (any
// format package importer reads), it measures what production should
// watch of compaction (docs/guard.md, "Watching real sessions"): how
// often the agent compacts, per session and per 100,000 tokens of
// history; how much each summary compresses, against the log's own
// count of the context before the compaction where the log records one;
// the invariants each compaction lost, as package guard checks them; the
// tool calls repeated after a compaction (Repeat); the questions
// reopened (Reopen); and the tool errors after each boundary against
// before it (Window).
//
// Dir reads the folder and returns the Report; Write renders it as a
// table, JSON or an HTML page, and Verdict is its first line.
package audit
