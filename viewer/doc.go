// Package viewer serves folders of run folders (what `compact-eval run`
// writes under compact-eval-out/) as a local, read-only web site: every run
// in a table, each figure's trend across runs, the paired comparison of two
// runs or of two summarizers of one run (reports.CompareMapped and
// reports.CompareSummarizers, as `compact-eval compare` computes them), and
// each run's HTML report.
//
// It never writes into a run folder. A folder it cannot read (a result
// that does not decode, a run still being written, a permission error) is
// listed with the reason and never breaks a page. Runs are read again when
// their files change, so a run written while the viewer is open appears
// without a restart; only each run's headline figures stay in memory, and
// the last few results opened in full.
package viewer
