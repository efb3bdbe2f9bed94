package reports

import "github.com/compact-eval/compact-eval/result"

// checkDocs explains each check type in one line, for the reports (the
// HTML glossary and the tooltips of check names). docs/formats.md §2 and
// docs/contract.md give each exact rule.
var checkDocs = map[string]string{
	"constraint":            "a rule given by the user or system (read-only, a freeze) is still stated in the summary",
	"refuted_hypothesis":    "a hypothesis the session refuted is marked refuted, never asserted as true",
	"artifact":              "the exact file or resource names are kept and not confused with their near-twins",
	"pending_operation":     "a tool call with no result is listed as pending by its call id, not as done",
	"correction":            "a value the user corrected is kept at its new value, the old one retired",
	"quantity":              "a number survives with its unit, in any usual spelling",
	"secret":                "no part of a secret value (8 characters or more) is copied into the summary",
	result.TypeApproval:     "an approval keeps who gave it, its scope and what it is tied to, and is never carried past its expiry or a change of its resource",
	result.TypeGoal:         "the current objective is the goal, the one the user replaced only as replaced",
	result.TypeNextStep:     "the next allowed step of a workflow is next, and no later step is presented as next, allowed or done",
	result.TypeHandoff:      "a summary for a new session names the previous session, the approved artifacts, the unresolved operations and why it restarts",
	result.CheckSchema:      "the summary validates against the summary JSON Schema",
	result.CheckCoverage:    "covers_through is the cut, extends the previous generation and splits no tool call from its result",
	result.CheckReferences:  "every source_seq names an event at or before covers_through",
	result.CheckEvidence:    "every verified claim cites a user or tool event",
	result.CheckTail:        "the compacted context holds every later event exactly once, arrivals included",
	result.CheckCompression: "summary tokens are at most max_ratio × the tokens replaced",
	result.CheckProvenance:  "a constraint or correction cites a user or system event",
	result.CheckPaths:       "every artifacts[].path occurs verbatim in the covered events",
	result.CheckUnresolved:  "every unresolved tool call in the covered range is listed under pending",
	"stale_pending":         "a call whose result came back ok is not listed as still pending",
	result.CheckGrounding:   "an entry that cites an event is supported by it: its salient words occur there",
	result.CheckDecisions:   "the agent decides as expected on the compacted context as it does on the full one (the probes)",
}

// CheckDoc is the one-line explanation of a check type, or "" for a check
// the reports do not know (a custom one).
func CheckDoc(check string) string { return checkDocs[check] }
