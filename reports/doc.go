// Package reports renders and compares results: the Markdown, JUnit XML,
// HTML and JSON writers, the paired comparison of two runs (compare) and of
// two summarizers of one run (head-to-head), the gates of `compact-eval
// run` and GitHub Actions output.
//
// The canonical result itself (the types of result.json, their aggregation
// with Wilson intervals, WriteJSON, Decode, the result schema, the merge of
// sharded runs, shard selection and the redaction of a unit) is package
// result, which imports nothing of compact-eval. Read reads a result file
// (a regular file only) with result.Decode. The statistics of compare are
// internal/stats.
//
// Every format is rendered from a Result alone, so a saved result file can be
// re-rendered at any time:
//
//	r, err := reports.Read("result.json") // aggregates recomputed
//	err = reports.Write(os.Stdout, r, "md", reports.Options{})
//
// The package runs nothing: it never calls a summarizer, an agent or a model.
package reports
