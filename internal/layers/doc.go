// Package layers holds the import layering of compact-eval as a table, and
// the test that keeps it: every package sits on a floor, and a package may
// import only packages on a lower floor (the ground floor's packages may
// also import each other). The test reads the module's packages with
// go/build, so it needs no module cache, and fails on an arrow that points
// up or sideways, and on a package the table does not place.
//
// The floors, from the ground up:
//
//  0. the ground: result (the result model), summary (the summary
//     document), docs, and internal/* (token counting, pattern matching,
//     the prose reader, quantities, redaction, the model client, exec processes,
//     statistics…), each with nothing of compact-eval above it;
//  1. scenarios (the scenario model and its loader);
//  2. scenarios/transcript (the one renderer of events as text);
//  3. providers (specs, options, the shared model client, wire shapes);
//  4. the systems under test and their judges: summarizers, agents, judges,
//     checks; reports (renderers and comparisons);
//  5. runner;
//  6. selftest;
//  7. the importer (it asks selftest whether a summary can pass each
//     suggestion), and the command's console
//     (cmd/compact-eval/internal/console);
//  8. the guard (guard: a live compaction checked at its boundary, over
//     the importer and the checks), and the command's other packages
//     (config, verdict);
//  9. the audit of a folder of logs (audit, over the guard);
//  10. the command.
//
// internal/testkit/* (fakes, simulated endpoints, load generators) stand
// beside the building: they may import any floor but the command, and only
// tests and other test kits may import them.
package layers
