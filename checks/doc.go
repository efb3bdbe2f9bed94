// Package checks judges a summary: given a scenario, a generation (its cut,
// the previous summary, the tail the runtime kept) and a summary document,
// it decides precisely what survived compaction and what did not, with
// evidence a person can verify in ten seconds (docs/formats.md §2).
//
// There is one check per invariant type (constraint, refuted_hypothesis,
// artifact, pending_operation, correction, quantity, secret) and one per
// always-on structural check (schema, coverage, references, evidence, tail,
// compression, provenance, paths, unresolved, stale_pending, grounding),
// each a small value with one
// method and its exact rule in its doc comment. Run runs them all in a
// stable order; Structural and ForInvariant let a library user run a subset
// or add a check of their own.
//
// Every result is pass, fail, error or skip with a one-line message and
// evidence (a JSON pointer into the summary, the seq of the event involved,
// the text that matched or the pattern that found nothing). On a text-only
// summary, field-level invariant checks read the text field; checks that
// need a field say skip.
//
// Patterns are RE2, case-insensitive, on whitespace- and accent-folded text
// (internal/textmatch), and a match counts only where its clause affirms it
// (internal/meaning, docs/reader.md): a check that decides from text
// fails, naming the pointer and the cue, when the summary negates, cancels,
// permits away, retracts or calls a mistake what it must keep. Quantities compare value and unit
// (internal/quantity). Paths, op ids and secrets compare exactly, as whole
// tokens. Token counts use internal/tokens (o200k_base unless
// Input.Tokens says otherwise).
//
// Per-scenario data (event texts, call results, replaced-token counts) is
// computed once per *scenarios.Scenario and cached for the life of the
// process; a scenario must not be modified after it was first checked.
package checks
