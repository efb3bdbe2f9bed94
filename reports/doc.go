// Package reports holds the canonical result of a run and turns it into
// decisions: aggregates with confidence intervals, the Markdown, JUnit XML,
// HTML and JSON writers, paired comparison of two runs (compare), the gates
// of `compact-eval run`, GitHub Actions output, the merge of sharded runs and
// the redaction of secrets.
//
// Every format is rendered from a Result alone, so a saved result file can be
// re-rendered at any time:
//
//	r, err := reports.Read("result.json")
//	reports.Aggregate(r)
//	err = reports.Write(os.Stdout, r, "md", reports.Options{})
//
// The package runs nothing: it never calls a summarizer, an agent or a model.
package reports
