// Package judges is the optional model judge: a second opinion on what
// patterns cannot read, recorded beside the deterministic checks and never
// instead of them.
//
// A judge answers two kinds of question:
//
//   - judge_invariant: given one invariant of a scenario in plain words
//     (Describe: the rule with its source event's text, the corrected value
//     and the old one, the refuted idea and its refutation, the operation and
//     its last known state, the paths and their digests) and a summary, is
//     the fact kept, contradicted or missing? The judge never sees the
//     check's status, its patterns or any other invariant.
//   - judge_answer: given a free-text probe's question, the expected answer
//     and its rubric, and an agent's answer, is the answer correct,
//     incorrect, or can the judge not tell (unsure)? The judge never sees
//     which arm (full or compacted context) the answer came from.
//
// Every verdict comes with the words it relies on (Verdict.Quote); a
// kept, contradicted, correct or incorrect verdict whose quote does not
// occur in the judged text is an error, not a verdict, so that a judge
// cannot rely on words that are not there.
//
// Two implementations: an exec: judge (one process per call, one JSON
// request on stdin, one JSON object on stdout, like exec summarizers and
// agents) and an openai: judge on the same client machinery as openai:
// summarizers and agents (internal/llm: cache, retries, rate limits,
// provenance; the API key is never written anywhere).
//
// Secret invariants are never judged: the check is exact, and a judge would
// need the secret's value. Secret values are also removed from every text
// sent to a judge (Redact).
package judges
