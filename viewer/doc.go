// Package viewer serves folders of run folders (what `compact-eval run`
// writes under compact-eval-out/) as a local, read-only web site: every run
// in a table, each figure's trend across runs, the paired comparison of two
// runs or of two summarizers of one run (reports.CompareMapped and
// reports.CompareSummarizers, as `compact-eval compare` computes them, the
// rows where nothing changed hidden until asked for, and the two runs'
// grids side by side), each run's scenario × summarizer grid, each unit's
// page (every generation's summary beside the events it replaced, the
// evidence of its checks marked in both), the per-unit CSV, and each run's
// HTML report.
//
// It never writes into a run folder. A folder it cannot read (a result
// that does not decode, a run still being written, a permission error) is
// listed with the reason and never breaks a page. Runs are read again when
// their files change, so a run written while the viewer is open appears
// without a restart; only each run's headline figures stay in memory, the
// last few results opened in full, and for the last few runs whose units
// were shown the place of each unit's line in result.json and the figures
// of the units shown so far (index.go): the grid and the unit pages of a
// run of 20,000 units read only the lines they show.
package viewer
