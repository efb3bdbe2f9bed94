package importer_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/importer"
)

func cbWarnings(t *testing.T, input string) []string {
	t.Helper()
	var out bytes.Buffer
	rep, err := importer.Import(strings.NewReader(input), &out, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Warnings
}

func hasWarning(ws []string, parts ...string) bool {
	return slices.ContainsFunc(ws, func(w string) bool {
		for _, p := range parts {
			if !strings.Contains(w, p) {
				return false
			}
		}
		return true
	})
}

// Every probe whose answer the final question states is named, an added
// one (from the ground truth) as well as a mapped one (from an evaluation
// item); a probe whose answer only the compacted turns state is not.
func TestCompactBenchAnswerInFinalQuestion(t *testing.T) {
	input := `{"case_id": "fq:s1:deasy", "transcript": {"turns": [
{"role": "user", "content": "The release train leaves on Thursday. Kofi Mensah owns the rollback plan. The database is Postgres 16."},
{"role": "assistant", "content": "Noted."},
{"role": "user", "content": "Unrelated: the office plants need water."},
{"role": "assistant", "content": "Sure."},
{"role": "user", "content": "Kofi Mensah asks: should the rollback plan target Postgres 16 on Thursday?"}]},
"ground_truth": {"immutable_facts": ["database: Postgres 16"], "entity_map": {"Kofi Mensah": "rollback_owner"}},
"evaluation_items": [
 {"key": "train_day", "item_type": "decision_recall", "prompt": "When does the release train leave?", "expected": {"check": "contains_normalized", "value": "Thursday"}},
 {"key": "owner", "item_type": "entity_integrity", "prompt": "Who owns the rollback plan?", "expected": {"check": "contains_normalized", "value": "Kofi Mensah"}}]}`
	ws := cbWarnings(t, input)
	for _, want := range [][]string{
		{"probe train-day, evaluation item train_day", `its answer "Thursday" is stated after the cut (seq 5), in the final question`, "can never regress"},
		{"probe owner, evaluation item owner", `its answer "Kofi Mensah" is stated after the cut (seq 5)`},
		// added from the ground truth: the fact no item asks about
		{"immutable fact", `its answer "Postgres 16" is stated after the cut (seq 5)`},
	} {
		if !hasWarning(ws, want...) {
			t.Errorf("no warning with %q in %q", want, ws)
		}
	}
	// The same case with a final question that states none of them.
	quiet := strings.Replace(input, "Kofi Mensah asks: should the rollback plan target Postgres 16 on Thursday?", "What should we do next?", 1)
	if ws := cbWarnings(t, quiet); hasWarning(ws, "can never regress") {
		t.Errorf("warnings %q name a probe whose answer only the compacted turns hold", ws)
	}
}

// A probe whose options say one thing under two letters is named; the
// case fixtures, whose options differ, draw no such warning.
func TestCompactBenchRepeatedOptions(t *testing.T) {
	input := `{"case_id": "dup:s1:deasy", "transcript": {"turns": [
{"role": "user", "content": "Ship it with Redis and Kafka. Later: ship it with redis."},
{"role": "assistant", "content": "Noted."},
{"role": "user", "content": "Unrelated: lunch is at noon."},
{"role": "assistant", "content": "Sure."},
{"role": "user", "content": "What next?"}]},
"ground_truth": {},
"evaluation_items": [{"key": "stack", "item_type": "decision_recall", "prompt": "What do we ship with?", "expected": {"check": "set_match", "values": ["Redis", "Kafka", "redis"]}}]}`
	ws := cbWarnings(t, input)
	if !hasWarning(ws, "probe stack", `options all ("Redis; Kafka; redis") and partial ("Redis; Kafka") are one behaviour under two letters`) {
		t.Errorf("no warning for the repeated option: %q", ws)
	}
	for _, f := range []string{"buried_constraint.json", "decision_override.json"} {
		_, rep := importFile(t, "../testdata/import/compactbench/"+f, importer.Options{})
		if hasWarning(rep.Warnings, "under two letters") || hasWarning(rep.Warnings, "can never regress") {
			t.Errorf("%s: %q", f, rep.Warnings)
		}
	}
}
