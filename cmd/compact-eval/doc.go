// Compact-eval evaluates context compaction for long-running LLM agents.
//
// When an agent's history grows too long, a summarizer replaces older events
// with a summary. Compact-eval runs scenarios (agent sessions with typed
// invariants and decision probes) through summarizers under test, checks
// every summary against a JSON Schema and the invariants, asks an agent the
// same probes on the full and on the compacted context, and reports what was
// lost. The contract (scenario file, summary document, exec protocol, result
// file, exit codes) is docs/formats.md, version 1, which the binary prints
// with 'compact-eval help formats'.
//
// Usage:
//
//	compact-eval <command> [arguments]
//
// The commands are:
//
//	run        run scenarios through summarizers and diff the agent's decisions
//	validate   check scenario files
//	compare    compare two results, paired, and fail on a regression; or two summarizers of one run
//	gate       apply the gates to a saved result, such as merged shards
//	report     render a saved result in another format
//	merge      join the results of sharded runs into one
//	import     turn a recorded agent session into a scenario skeleton
//	selftest   prove each scenario can tell a faithful summary from a broken one
//	schema     print the JSON Schema of a scenario, a summary, a result or a selftest
//	cache      show or clear the model response cache
//	version    print the version and the contract versions
//
// 'compact-eval help <command>' describes each command and its flags.
//
// # A session
//
// Check the built-in suite, run it offline through the four built-in
// summarizers, render the result for a pull request and as a page, compare
// two runs, and two summarizers of one run head to head (the examples are
// run by a test, in this order; 'compact-eval validate --show FILE' prints a
// scenario's timeline, cuts and anchors):
//
//	$ compact-eval validate
//	$ compact-eval run --out base
//	$ compact-eval run --summarizer builtin:extractive --min-pass secret=1 --out pr
//	$ compact-eval report base/result.json --format md -o base.md
//	$ compact-eval report base/result.json --format html -o base.html
//	$ compact-eval report pr/result.json --format junit -o junit.xml
//	$ compact-eval compare pr/result.json pr/result.json
//	$ compact-eval compare --a builtin:truncate --b builtin:extractive base/result.json
//	$ compact-eval gate --min-pass decisions=0.5 --baseline pr/result.json pr/result.json
//	$ compact-eval schema summary
//
// # Exit codes
//
// 0 the run finished and every gate asked for holds; 1 a gate failed; 2 bad
// usage or invalid input files (and compare of two runs with nothing to
// pair); 3 the run could not finish (infrastructure; an interrupt, after
// which the run folder can be resumed with --resume; or every unit errored,
// so that nothing was evaluated). Gates fail closed: an errored unit counts
// as failed, a gate with nothing to judge fails unless --allow-empty, and a
// baseline summarizer without a counterpart fails.
//
// # Environment
//
// OPENAI_BASE_URL and OPENAI_API_KEY configure openai: specs. GITHUB_ACTIONS
// and GITHUB_STEP_SUMMARY turn on the step summary and annotations.
// COMPACT_EVAL_FAILPOINT=stop-after:N stops a run after N units, as an
// interrupt would (for tests of resume). Exec summarizers and agents see
// COMPACT_EVAL_PROTOCOL=1.
package main
