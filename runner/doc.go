// Package runner runs scenarios through summarizers and an agent: it is the
// compaction runtime of compact-eval (docs/formats.md §1).
//
// One unit is scenario × summarizer × trial. For each unit the runner walks
// the scenario's history as an agent runtime would, decides where to cut
// (the timeline), asks the summarizer for a summary at each cut, installs it
// with the rules of a real runtime (coverage, compare-and-swap), checks every
// summary, and finally asks every probe on the full and on the compacted
// context through an agents.Agent and diffs the answers.
//
// # Timeline
//
// Token counts. Every event is rendered once with scenarios/transcript (the
// message order of transcript.EventMessages over the whole history) and
// counted once with internal/tokens; the count of a message is attributed to
// the first event it renders (a synthetic "no result" reply counts with its
// call). The size of a context is the count of its header (rules, goal and
// active summary, transcript.Header) plus the sum of the counts of its tail
// events, so growing the context by one event costs O(1). Sums may differ
// from counting the concatenated text by a token or so per message boundary.
//
// Safe boundaries. A cut at seq c is safe when no tool call at or before c
// has its result after c (a protocol unit is never split). A call with no
// result at all does not block a cut: it is an unresolved operation that the
// summary must carry.
//
// Placing a cut. Given a wanted cut w while the history ends at event i, the
// cut is the largest safe seq c ≤ w that leaves at least keep_recent events
// after it up to i. If that c is not greater than the active coverage,
// nothing can be compacted and no generation happens (a warning says so).
//
// Explicit cuts (compaction.at). For each value a, in order, the runtime
// compacts when the history has reached keep_recent events past a (or its
// end), wanting the cut a. The trigger is recorded as "at:a"; a moved cut
// also gets a warning.
//
// Token cuts (no at). The threshold T is threshold_tokens; else
// threshold_fraction × context_window; else 0.8 × context_window; else
// 50,000. After each event i is appended, the context size S is measured
// (header with the active summary + events after the coverage up to i); when
// S + reserve_tokens ≥ T the runtime compacts, wanting the cut i. The
// trigger is recorded as "tokens:S+R>=T". A generation that leaves more
// than MinFreed (90%) of the tokens it started from freed too little: the
// runtime stops compacting after it, with a warning, rather than thrash
// (compact again at nearly every event).
//
// Rebuild. Iterative: the request holds the active summary and the events
// (coverage, cut]. From source: every event [1, cut] and no previous
// summary.
//
// Install (see Active). A candidate is installed with compare-and-swap on
// the id of the summary it was built on; its coverage must be the cut the
// runtime chose, must extend the active coverage and must be a safe
// boundary. The durable history is never cut: the compacted context is the
// active summary plus every event after its coverage. A refused candidate
// leaves the active summary as it was, and the unit stops compacting (a
// runtime would retry; a harness records the refusal). When the summarizer
// declines to compact (Response.NoCompaction, the `none` arm), the
// generation is recorded with every check skipped and the unit stops
// compacting: its compacted context is the full context.
//
// Arrivals (scenario.Arrivals) arrive while the last generation's
// summarizer runs: they are recorded on that generation and join the tail
// after its install. With no generation they simply follow the history.
//
// # Decisions
//
// After the timeline, each probe is asked on the full context (rules, goal,
// every event, arrivals) and on the compacted context (rules, goal, active
// summary, events after its coverage, arrivals), and classified against the
// probe's expect: kept, compaction_regression, agent_error,
// compacted_only, or error when an agent call failed.
//
// # Orchestration
//
// Units run in a bounded worker pool; results come out in a deterministic
// order (scenario id, summarizer in the order given, trial) whatever the
// concurrency. A worker holds its job slot while the unit waits on a model;
// when the agent is agents.Local (the reference agent) and there is no
// judge, the unit's checks and decisions run on evaluators of their own,
// one per CPU, so that the worker's next request goes out at once instead of
// waiting behind CPU work. Once a scenario's units start, the next
// scenario is loaded and prepared in the background. Each finished unit is
// redacted (every leak of a secret invariant, a run of 8 or more of its
// characters not public in the session, and every known API key become
// [redacted:ID]; see checks.SecretRedactor and internal/redact), appended
// as one JSON
// line to OUT/journal.jsonl and synced (units finishing together share one
// sync); a resumed run skips every unit the journal holds as finished (ok
// or error) and runs abandoned ones again. The result file OUT/result.json
// is built by re-reading the journal, so finished units are not kept in
// memory; a Suite from LoadSuite loads each scenario file when its first
// unit starts and drops it after its last, so memory holds only the
// scenarios in flight. Shards split the scenarios by an FNV-1a hash of
// their id, so a scenario's units always land in the same shard.
//
// Failures never stop the run: a summarizer's error or panic, an agent's
// error or panic, a panicking check, or a scenario file that cannot be
// loaded again become a unit with status error and the reason. Only the
// run folder failing (journal, result file) stops it.
package runner
