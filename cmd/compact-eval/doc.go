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
//	init       write a commented compact-eval.yaml and a GitHub Actions workflow, or Claude Code's guard hooks
//	run        run scenarios through summarizers and diff the agent's decisions
//	validate   check scenario files
//	compare    compare two results, paired, and fail on a regression; or two summarizers of one run
//	gate       apply the gates to a saved result, such as merged shards
//	report     render a saved result in another format
//	merge      join the results of sharded runs into one
//	import     turn a recorded agent session into a scenario skeleton
//	guard      check a live compaction at its boundary: kept, lost or uncertain
//	audit      watch real sessions: compactions, compression, invariants lost, repeated calls, reopened questions
//	selftest   prove each scenario can tell a faithful summary from a broken one
//	schema     print the JSON Schema of a scenario, a summary, a result, a selftest or the config file
//	cache      show or clear the model response cache
//	version    print the version and the contract versions
//	view       browse every run: runs, trends across commits, diffs, reports (local web server)
//
// 'compact-eval help <command>' describes each command and its flags, and
// 'compact-eval help config' every key of compact-eval.yaml.
//
// # A session
//
// Check the built-in suite, run it offline through the four built-in
// summarizers, render the result for a pull request and as a page, compare
// two runs and two summarizers of one run, and gate a saved result
// ('compact-eval validate --show FILE' prints a scenario's timeline, cuts and
// anchors). Under each command is what it prints, or its first lines: a line
// … stands for lines left out, (stderr) for where standard error's lines
// start (a run's progress: here, not a terminal, a plain line every 10 s and
// its last line), (no
// output) for a command that prints nothing, (exit N) for an exit code other than 0, and <version> for the
// version you have. A test runs the examples in this order and compares
// their output with these lines:
//
//	$ compact-eval version
//	compact-eval <version> (scenario v1, summary v1.3, protocol v1, result v1)
//
//	$ compact-eval validate
//	25 scenarios OK
//
//	$ compact-eval run --out base
//	verdict: finished 100 units (25 scenarios × 4 summarizers × 1 trial); most invariants kept: builtin:mask, 74% (70/95, 3 uncertain, 6 skipped); 58 compaction regressions; 3 uncertain checks; decided: 51 typed, 216 by statement, 3 for a judge
//
//	          summarizer  units                      invariants kept            structural passed  regressions  compression (median)  summary tokens (mean)
//	        builtin:mask     25  74% (70/95, 3 uncertain, 6 skipped)   94% (159/170, 204 skipped)            3                  0.45                   3628
//	  builtin:extractive     25               52% (45/86, 6 skipped)   100% (289/289, 52 skipped)           22                  0.38                   1082
//	    builtin:truncate     25               25% (23/92, 6 skipped)  100% (165/165, 198 skipped)           33                  0.42                   3074
//	        builtin:none     25                       — (68 skipped)              — (275 skipped)            0                     —                      —
//
//	worst failures (scenario · summarizer · generation · check · seq · message):
//	  approval-stale-after-rebuild · builtin:truncate · probe · decisions canary-rollout · - · full context chose "reapprove", compacted chose "roll" (expected "reapprove")
//	…
//	result: base/result.json
//	(stderr)
//	…
//	progress: 100/100 units, 0 errored, 0 requests (0 retries, 0 from the cache), 3s elapsed
//
//	$ compact-eval run --summarizer builtin:extractive --min-pass secret=1 --out pr
//	PASS: min-pass secret=1 holds; not gated: baseline (none given)
//	verdict: finished 25 units (25 scenarios × 1 summarizer × 1 trial); most invariants kept: builtin:extractive, 52% (45/86, 6 skipped); 22 compaction regressions; decided: 51 typed, 34 by statement, 0 for a judge
//	…
//	result: pr/result.json
//
//	gates:
//	  ok   min-pass secret=1: 1 summarizer × check type rates hold
//	(stderr)
//	…
//	progress: 25/25 units, 0 errored, 0 requests (0 retries, 0 from the cache), 1s elapsed
//
//	$ compact-eval report base/result.json --format md -o base.md
//	(no output)
//
//	$ compact-eval report base/result.json --format html -o base.html
//	(no output)
//
//	$ compact-eval report pr/result.json --format junit -o junit.xml
//	(no output)
//
//	$ compact-eval compare pr/result.json pr/result.json
//	summarizer          check               base            new             delta  95% interval      p        scenarios
//	builtin:extractive  constraint          100.0% (14/14)  100.0% (14/14)  ~      [-23.2%, +23.2%]  p=1.000  9
//	…
//	builtin:extractive  decisions           54.2% (26/48)   54.2% (26/48)   ~      [-7.4%, +7.4%]    p=1.000  25
//
//	new against the baseline: 0 regressions, 0 fixes, 0 no longer judged, 0 newly judged
//
//	no regression: no pass→fail over 481 pairs (0 fail→pass, 0 no longer judged, 0 newly judged)
//
//	$ compact-eval compare --a builtin:truncate --b builtin:extractive base/result.json
//	head-to-head builtin:truncate vs builtin:extractive over 272 paired outcomes in 25 scenarios: builtin:extractive better on constraint (p=0.004), pending_operation (p=0.031), quantity (p=0.016), decisions (p=0.024)
//
//	                        A: builtin:truncate  B: builtin:extractive
//	invariants kept         25.0% (23/92)        52.3% (45/86)
//	structural passed       100.0% (165/165)     100.0% (289/289)
//	compaction regressions  33 of 48 probes      22 of 48 probes
//	…
//
//	$ compact-eval gate --min-pass decisions=0.5 --baseline pr/result.json pr/result.json
//	PASS: every gate holds (min-pass decisions=0.5, baseline)
//	  ok   min-pass decisions=0.5: 1 summarizer × check type rates hold
//	  ok   baseline: no regression: no pass→fail over 481 pairs (0 fail→pass, 0 no longer judged, 0 newly judged)
//	  note baseline: new against the baseline: 0 regressions, 0 fixes, 0 no longer judged, 0 newly judged
//
//	$ compact-eval gate --min-pass decisions=0.6 pr/result.json
//	FAIL: min-pass: builtin:extractive decisions 54.2% (26/48) < 60%
//	  FAIL min-pass: builtin:extractive decisions 54.2% (26/48) < 60%
//	…
//	(exit 1)
//
//	$ compact-eval schema summary
//	{
//	  "$schema": "https://json-schema.org/draft/2020-12/schema",
//	  "$id": "https://compact-eval.dev/schema/summary-v1.json",
//	…
//	}
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
// interrupt would (for tests of resume). COMPACT_EVAL_PROGRESS_EVERY=50ms
// prints a plain progress line that often instead of every 10 s (for tests
// of progress). Exec summarizers and agents see
// COMPACT_EVAL_PROTOCOL=1.
package main
