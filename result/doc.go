// Package result is the canonical result model of compact-eval: the types
// of result.json (Result, its units, generations, check results, decisions
// and call provenance), their aggregation (pass rates with Wilson
// intervals, the per-summarizer headline figures, the judge's figures), the
// JSON encoding (WriteJSON, Decode, and the one-line unit of the run's
// journal, MarshalUnit), the result JSON Schema (SchemaJSON) and the merge
// of sharded runs (Merge).
//
// It imports nothing of compact-eval and nothing outside the standard
// library, so that a program reading a result file does not pull in the
// model clients, the tokenizer or the YAML parser. The packages that make
// results (checks, summarizers, scenarios, runner) and the packages that
// render and compare them (reports) name these types directly.
//
//	data, err := os.ReadFile("result.json")
//	r, err := result.Decode(data) // validated, aggregates recomputed
//	for _, s := range result.Ranked(r) {
//		fmt.Println(s.Summarizer, s.InvariantPass)
//	}
//
// (reports.Read reads a file the same way, and refuses an input that is
// not a regular file.)
package result
