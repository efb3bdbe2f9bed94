// Package selftest tests scenarios themselves: can each one tell a faithful
// summary from a broken one? It is what `compact-eval selftest` runs, and
// its data (the oracle and the planted variants, labelled) is what a judge
// can be scored against.
//
// For every generation of a scenario, BuildOracle writes the summary a
// perfect summarizer would write, from the scenario alone, in a structured
// and a text-only form. Run puts both through the runner (install, every
// check, every probe, with the reference agent): a failure means no summary
// can pass the scenario, a defect reported at the invariant's or probe's
// position. Then, from the oracle of the last generation, NewPlan plants
// single-defect variants, one per class (omit, invert, move-to-text,
// move-to-supersedes, move-to-extensions, over-list, fabricate-citation,
// remove-citation, relation-swap, leak-whole, leak-part) for each invariant
// and probe, and Run evaluates each one: caught when a check fails or a
// probe regresses that held on the oracle (or, for remove-citation, when
// the recall figures lose the evidence's citation), survived otherwise,
// with why. Strength is caught / planted.
//
// docs/selftest.md describes the oracle, the classes, the output and the
// JSON document (SchemaJSON) for users.
package selftest
