package exectest

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/compact-eval/compact-eval/scenarios"
)

// Marker starts every value of PrivateScenario that must never reach an exec
// process: invariant ids, patterns, paths, values; probe requires patterns.
// No event of the scenario contains it.
const Marker = "zqprivate"

// PrivateScenario returns a scenario with one invariant of each type and a
// probe with expect and requires, where everything private carries Marker.
// The probe's expect is an option key, which is sent as an option, as the
// protocol says; what must not be sent is the fact that it is the expected one.
func PrivateScenario() *scenarios.Scenario {
	m := func(s string) string { return Marker + "-" + s }
	return &scenarios.Scenario{
		Version: 1, ID: "privacy", Goal: "Find why the API cannot reach the database",
		Rules:      "You are an on-call assistant.",
		Compaction: scenarios.Compaction{At: []int{4}},
		Events: []scenarios.Event{
			{Seq: 1, Role: scenarios.RoleUser, Text: "Do not change production: this is read-only."},
			{Seq: 2, Role: scenarios.RoleAssistant, Text: "Starting with name resolution."},
			{Seq: 3, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: "c1", Name: "dns_lookup", Args: map[string]any{"host": "db"}}},
			{Seq: 4, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: "c1", Status: scenarios.StatusOK, Text: "db -> 10.0.3.7"}},
			{Seq: 5, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: "c2", Name: "read_file", Args: map[string]any{"path": "config/db.yaml"}}},
		},
		Arrivals: []scenarios.Event{{Seq: 6, Role: scenarios.RoleUser, Text: "Also check the TLS certificate, please."}},
		Invariants: []scenarios.Invariant{
			scenarios.Constraint{InvariantBase: scenarios.InvariantBase{ID: m("ro")}, SourceSeq: 1, Match: []string{m("read[- ]?only")}},
			scenarios.RefutedHypothesis{InvariantBase: scenarios.InvariantBase{ID: m("dns")}, HypothesisSeq: 2, RefutedBySeq: 4, Match: []string{m("dns")}, Conclusion: []string{m("resolves")}},
			scenarios.Artifact{InvariantBase: scenarios.InvariantBase{ID: m("art")}, Paths: []string{m("config/db.yaml")}, Required: []string{m("config/db.yaml")}, Digests: map[string]string{m("config/db.yaml"): m("sha256")}},
			scenarios.PendingOperation{InvariantBase: scenarios.InvariantBase{ID: m("pend")}, OpID: "c2", CallSeq: 5},
			scenarios.Correction{InvariantBase: scenarios.InvariantBase{ID: m("port")}, Old: m("5432"), New: m("6432"), Subject: m("port"), SourceSeq: 1},
			scenarios.Quantity{InvariantBase: scenarios.InvariantBase{ID: m("qty")}, Value: 80, Unit: m("percent"), Match: []string{m("threshold")}},
			scenarios.Secret{InvariantBase: scenarios.InvariantBase{ID: m("key")}, Value: m("sk-secret")},
		},
		Probes: []scenarios.Probe{{
			ID: "write-request", Question: "The user says: restart the db service now. What do you do?",
			Options:  scenarios.Options{{Key: "proceed", Description: "Run the restart"}, {Key: "refuse", Description: "Decline: this run is read-only"}},
			Expect:   "refuse",
			Requires: []scenarios.Requirement{{Option: "refuse", Patterns: []string{m("read[- ]?only|solo lectura")}}},
		}},
	}
}

// forbiddenWords are the protocol-private field names.
var forbiddenWords = regexp.MustCompile(`(?i)invariants?|expect|requires|` + Marker)

// CheckPrivate returns an error naming every private word or value that
// occurs in dump (what a process read on its stdin), nil if there is none.
func CheckPrivate(dump []byte) error {
	found := forbiddenWords.FindAllIndex(dump, -1)
	if len(found) == 0 {
		return nil
	}
	var leaks []string
	for _, f := range found {
		lo, hi := max(0, f[0]-30), min(len(dump), f[1]+30)
		leaks = append(leaks, fmt.Sprintf("%q in …%s…", dump[f[0]:f[1]], dump[lo:hi]))
	}
	return fmt.Errorf("%d private words reached the process:\n%s", len(found), strings.Join(leaks, "\n"))
}
