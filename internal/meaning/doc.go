// Package meaning reads what a clause of a summary says about the subject
// of an invariant: a rule and what it applies to, a refuted hypothesis, an
// operation whose result never came back, a pair of lookalike files, a
// corrected value or a quantity. It is a pipeline of named stages, each a
// small function with its own tests:
//
//	tokenize  words, values and marks, with byte offsets
//	clauses   cut at sentence ends, semicolons, colons, dashes, pipes and "but"
//	subject   does the clause name the subject (its patterns, names, actions)?
//	predicate what it says of it, by the classes of words.tsv
//	modifiers what changes that meaning: a condition, an exception, a
//	          quantifier, an attribution, a time limit, a past frame, a
//	          presupposition, a hedge, a concession, a counterfactual, a
//	          comparison, an approximation, a question, a delegation
//	reading   Restates, Contradicts, Consistent or Unclear
//
// The default is doubt: a clause that names the subject and says
// something the tables do not read, or says it with a modifier that the
// invariant's own source statement does not carry, is Unclear, never a
// restatement. A check earns a pass from a typed record or from a clause
// read as Restates; an Unclear clause makes it uncertain, a Contradicts
// clause makes it fail. docs/reader.md documents the stages and renders
// the word table.
//
// Texts are read as folded (internal/textmatch.Fold): accents removed,
// whitespace collapsed; offsets are byte offsets in that folded text.
package meaning
