// Package summary is the summary document of docs/formats.md §3 as Go
// types, and the one way to read it.
//
// Summary holds the structured fields (constraints, decisions, verified
// claims, hypotheses, pending operations, artifacts, corrections, errors,
// next steps), the free text and the extensions. Decode reads a document,
// telling one that cannot be read at all (ErrUnreadable) from one with
// schema violations: Validate lists those, each at its JSON pointer, and
// SummarySchemaJSON is the JSON Schema that `compact-eval schema summary`
// prints. ForAgent is the part of a summary an agent sees (the document
// without its extensions). ProviderCompaction is the extensions member in
// which a provider's own compaction is kept (docs/providers.md).
//
// The package depends on nothing of compact-eval, so the checks, the agents
// and the judges read summaries without the summarizers' model clients.
package summary
