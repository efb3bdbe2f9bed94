// Package guard checks a live compaction at its boundary: given the
// history before the boundary (an agent's log in any format package
// importer reads, or events in the scenario syntax), the summary that
// replaced it and the project's invariants, it runs the checks `compact-
// eval run` runs on a generation (checks.Run) and says whether the
// summary kept each invariant, lost it (with the check's reason and the
// source event) or cannot be told, so that an agent does not go on
// silently from a summary that dropped a rule (docs/guard.md).
//
// A pass must be earned: an invariant is Kept only where its check
// passes, on a typed record of the summary or a plain statement bound to
// its subject; a clause the checks cannot read plainly makes it
// Uncertain, and a verdict with no invariant that applies is Uncertain
// too, never Kept.
//
// The pieces:
//
//   - Read and ReadFile read a history into a Session, as a stream: the
//     log's events, the compactions it records (Compactions, Latest, At)
//     and the invariants the import suggests (Session.Suggestions, each
//     with its class's measured Confidence).
//   - LoadInvariants, ParseInvariants and FindInvariants read a project's
//     invariants file (DefaultInvariantsFile): invariants in the scenario
//     syntax whose seq fields may be left out, found in each session's
//     history by the rules of anchors.tsv (Anchors), so that one file
//     serves every session.
//   - Session.NewBoundary takes a summary given apart from the log (a
//     summary document or text).
//   - Check returns the Verdict; WriteText and WriteJSON render it, and
//     Restatement is the text an agent reads back: each lost or
//     uncertain invariant said again from its source event.
//   - ReadHookInput and Hook answer Claude Code's hooks (SessionStart
//     after a compaction, PreCompact, PostCompact) in their output
//     format.
//
// The guard knows the invariant types only where it restates one in
// words (restate.go) and where anchors.tsv finds a left-out seq; a type
// added to the scenario syntax is checked, reported and restated (by
// quoting its evidence events) with no change here.
package guard
