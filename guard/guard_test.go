package guard_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/guard"
)

// fixture is a log of testdata/import or testdata/guard.
func fixture(t *testing.T, name string) string {
	t.Helper()
	for _, dir := range []string{"../testdata/import", "../testdata/guard"} {
		if p := filepath.Join(dir, name); exists(p) {
			return p
		}
	}
	t.Fatalf("no fixture %s", name)
	return ""
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// eventsSession reads events in the scenario syntax, as JSON.
func eventsSession(t *testing.T, events string) *guard.Session {
	t.Helper()
	s, err := guard.Read(strings.NewReader(events), guard.ReadOptions{Name: "events.json"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func invariants(t *testing.T, yaml string) *guard.File {
	t.Helper()
	f, err := guard.ParseInvariants("invariants.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// short is a finding as the tests compare it.
type short struct {
	Status            guard.Status
	Invariant, Origin string
	Seq               int
}

func shorts(v *guard.Verdict) []short {
	var out []short
	for _, f := range v.Findings {
		if f.Origin != guard.OriginStructural {
			out = append(out, short{f.Status, f.Invariant, f.Origin, f.SourceSeq})
		}
	}
	return out
}

// The rule of turn 1, in each agent's log: a compaction that drops it is
// lost with the seq of the user's turn; a faithful one is kept. The
// project file gives no seq: the guard finds the turn in each log.
func TestRecordedLogs(t *testing.T) {
	const rules = `version: 1
invariants:
  - {id: no-force-push, type: constraint, match: ['never\W+run\W+git push --force']}
  - {id: tiles-only, type: constraint, match: ['only edit files under services/tiles/']}
  - {id: public-api, type: constraint, match: ['do not change the public api']}
`
	cases := []struct {
		log      string
		boundary int // 0: the last compaction
		status   guard.Status
		want     []short
	}{
		{"claude-code_compactions.jsonl", 0, guard.Kept, []short{{guard.Kept, "no-force-push", "project", 1}}},
		{"claude-code_compactions.jsonl", 8, guard.Kept, []short{{guard.Kept, "no-force-push", "project", 1}}},
		{"claude-code_dropped_rule.jsonl", 8, guard.Kept, []short{{guard.Kept, "no-force-push", "project", 1}}},
		{"claude-code_dropped_rule.jsonl", 0, guard.Lost, []short{{guard.Lost, "no-force-push", "project", 1}}},
		{"codex_compacted.jsonl", 0, guard.Kept, []short{{guard.Kept, "tiles-only", "project", 1}}},
		{"codex_dropped_rule.jsonl", 0, guard.Lost, []short{{guard.Lost, "tiles-only", "project", 1}}},
		{"openhands_condensation.json", 0, guard.Kept, []short{{guard.Kept, "public-api", "project", 1}}},
		{"openhands_dropped_rule.json", 6, guard.Kept, []short{{guard.Kept, "public-api", "project", 1}}},
		{"openhands_dropped_rule.json", 0, guard.Lost, []short{{guard.Lost, "public-api", "project", 1}}},
	}
	inv := invariants(t, rules)
	for _, tc := range cases {
		t.Run(tc.log, func(t *testing.T) {
			s, err := guard.ReadFile(fixture(t, tc.log), guard.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			b, ok := s.Latest()
			if tc.boundary > 0 {
				b, ok = s.At(tc.boundary)
			}
			if !ok {
				t.Fatal("no compaction")
			}
			v, err := guard.Check(s, b, guard.Options{Invariants: inv})
			if err != nil {
				t.Fatal(err)
			}
			if v.Status != tc.status {
				t.Errorf("verdict %s, want %s: %s", v.Status, tc.status, v.Reason)
			}
			var got []short
			for _, f := range shorts(v) {
				if f.Status != guard.NotApplicable {
					got = append(got, f)
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
			for _, f := range v.Findings {
				if f.Status == guard.Lost && !strings.Contains(f.Restatement, f.Source) {
					t.Errorf("%s: the restatement %q does not quote its source %q", f.Invariant, f.Restatement, f.Source)
				}
			}
		})
	}
}

// An invariant the history before the boundary never states does not
// bind it: not applicable, with what was looked for; nor does one that
// lint finds does not fit the session (a path no event names).
func TestNotApplicable(t *testing.T) {
	s, err := guard.ReadFile(fixture(t, "claude-code_dropped_rule.jsonl"), guard.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inv := invariants(t, `version: 1
invariants:
  - {id: no-deletes, type: constraint, match: ['never delete']}
  - {id: other-repo, type: artifact, paths: [lib/a.ex, lib/b.ex], required: [lib/a.ex]}
  - {id: too-late, type: constraint, match: ['push it with --force']}
`)
	b, _ := s.At(8)
	v, err := guard.Check(s, b, guard.Options{Invariants: inv})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range v.Findings {
		got[f.Invariant] = string(f.Status) + ": " + f.Message
	}
	want := map[string]string{
		"no-deletes": "not_applicable: no user or system event of the history matches its match patterns (the event its source_seq names)",
		"other-repo": `not_applicable: required path "lib/a.ex" occurs in no event`,
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %q, want %q", id, got[id], w)
		}
	}
	// Stated at seq 20, after the boundary at 8: the check skips it.
	if !strings.HasPrefix(got["too-late"], "not_applicable: ") {
		t.Errorf("too-late: %q, want not applicable", got["too-late"])
	}
	if v.Status != guard.Uncertain || v.Kept+v.Lost+v.Uncertain != 0 {
		t.Errorf("verdict %s (%d kept, %d lost, %d uncertain): with nothing checked it must be uncertain", v.Status, v.Kept, v.Lost, v.Uncertain)
	}
}

// With no invariant at all the verdict is uncertain, never kept: a pass
// must be earned.
func TestNothingToCheck(t *testing.T) {
	s, err := guard.ReadFile(fixture(t, "claude-code_compactions.jsonl"), guard.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Latest()
	v, err := guard.Check(s, b, guard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != guard.Uncertain || !strings.Contains(v.Reason, "nothing was checked") {
		t.Errorf("verdict %s %q, want uncertain: nothing was checked", v.Status, v.Reason)
	}
}

// The import's suggestions are checked only when asked, and only at or
// above the confidence asked for; one that restates a project invariant
// is judged once, as the project's.
func TestSuggestedConfidence(t *testing.T) {
	s, err := guard.ReadFile(fixture(t, "codex_dropped_rule.jsonl"), guard.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Suggestions) != 2 {
		t.Fatalf("%d suggestions, want the constraint and the quantity", len(s.Suggestions))
	}
	b, _ := s.Latest()
	ids := func(opts guard.Options) []string {
		v, err := guard.Check(s, b, opts)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range v.Findings {
			if f.Origin != guard.OriginStructural {
				out = append(out, f.Origin+":"+f.Invariant)
			}
		}
		return out
	}
	quantity := guard.Confidence("quantity")
	constraint := guard.Confidence("constraint")
	if !(quantity < constraint) {
		t.Fatalf("confidences: quantity %.2f, constraint %.2f: the test needs the quantity lower", quantity, constraint)
	}
	mid := (quantity + constraint) / 2
	for _, tc := range []struct {
		name string
		opts guard.Options
		want []string
	}{
		{"off", guard.Options{}, nil},
		{"all", guard.Options{Suggested: true}, []string{"suggested:constraint-1", "suggested:quantity-1"}},
		{"above the quantity's", guard.Options{Suggested: true, MinConfidence: mid}, []string{"suggested:constraint-1"}},
		{"above every class's", guard.Options{Suggested: true, MinConfidence: 1}, nil},
		{"a project rule restating one", guard.Options{Suggested: true, Invariants: invariants(t, "version: 1\ninvariants:\n  - {id: tiles, type: constraint, match: ['only edit files']}\n")},
			[]string{"project:tiles", "suggested:quantity-1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, ids(tc.opts)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// A secret the history holds never reaches the verdict, checked or not:
// a restatement that quotes its event shows the tag instead.
func TestSecretsRedacted(t *testing.T) {
	events := `[
  {"seq": 1, "role": "user", "text": "Deploy with the key sk-proj-Qm7xVt2LpR9sKd4ZwN8bHf3J and never skip the smoke test."},
  {"seq": 2, "role": "assistant", "text": "Deploying."}
]`
	s, err := guard.Read(strings.NewReader(events), guard.ReadOptions{Name: "events.json"})
	if err != nil {
		t.Fatal(err)
	}
	inv := invariants(t, `version: 1
invariants:
  - {id: smoke, type: constraint, match: ['never skip the smoke test']}
  - {id: key, type: secret, value: sk-proj-Qm7xVt2LpR9sKd4ZwN8bHf3J}
`)
	b, err := s.NewBoundary([]byte("The deploy is under way; the key is sk-proj-Qm7xVt2LpR9sKd4ZwN8bHf3J."), 0, "summary.txt")
	if err != nil {
		t.Fatal(err)
	}
	v, err := guard.Check(s, b, guard.Options{Invariants: inv})
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	guard.WriteJSON(&all, v)
	all.WriteString(guard.Restatement(v))
	if strings.Contains(all.String(), "sk-proj-Qm7xVt2LpR9sKd4ZwN8bHf3J") || strings.Contains(all.String(), "Qm7xVt2L") {
		t.Errorf("the secret leaks into the verdict:\n%s", all.String())
	}
	if !strings.Contains(all.String(), "[redacted:key]") {
		t.Errorf("no redaction tag in the verdict:\n%s", all.String())
	}
	if got := shorts(v); len(got) != 2 || got[0].Status != guard.Lost {
		t.Errorf("findings %+v: want the smoke rule and the copied key lost", got)
	}
}

// Events in the scenario syntax read as a history, and a structured
// summary is checked at its covers_through: a pending operation kept on
// a typed record, lost when the summary reports it done.
func TestEventsAndStructuredSummary(t *testing.T) {
	events := `{"events": [
  {"seq": 1, "role": "user", "text": "Run the migration on staging."},
  {"seq": 2, "role": "assistant", "tool_call": {"id": "call_m1", "name": "shell", "args": {"cmd": "migrate --env staging"}}},
  {"seq": 3, "role": "assistant", "text": "The migration is running."}
]}`
	s, err := guard.Read(strings.NewReader(events), guard.ReadOptions{Name: "events.json"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Format != guard.FormatEvents {
		t.Fatalf("format %q, want events", s.Format)
	}
	inv := invariants(t, "version: 1\ninvariants:\n  - {id: migration, type: pending_operation, op_id: call_m1}\n")
	for _, tc := range []struct {
		name, doc string
		want      guard.Status
	}{
		{"kept", `{"schema_version":1,"covers_through":3,"pending":[{"op_id":"call_m1","description":"migrate --env staging, no result yet","status":"pending","source_seq":2}]}`, guard.Kept},
		{"lost", `{"schema_version":1,"covers_through":3,"pending":[{"op_id":"call_m1","description":"migrate --env staging","status":"done","source_seq":2}]}`, guard.Lost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := s.NewBoundary([]byte(tc.doc), 0, "summary.json")
			if err != nil {
				t.Fatal(err)
			}
			if b.Form != guard.FormStructured || b.Seq != 3 {
				t.Fatalf("form %s at %d, want structured at 3", b.Form, b.Seq)
			}
			v, err := guard.Check(s, b, guard.Options{Invariants: inv})
			if err != nil {
				t.Fatal(err)
			}
			got := shorts(v)
			if len(got) != 1 || got[0].Status != tc.want || got[0].Seq != 2 {
				t.Errorf("findings %+v, want migration %s from seq 2", got, tc.want)
			}
		})
	}
}

// Every row of anchors.tsv finds its event: the first of the right role
// (after the field it must follow), never an earlier one of another role.
func TestAnchorRows(t *testing.T) {
	events := `[
  {"seq": 1, "role": "assistant", "text": "I will never run the purge job."},
  {"seq": 2, "role": "user", "text": "Never run the purge job. Use the eu-central-1 region."},
  {"seq": 3, "role": "assistant", "text": "I think the cache is the cause."},
  {"seq": 4, "role": "user", "text": "Correction: the region is eu-west-1."},
  {"seq": 5, "role": "assistant", "tool_call": {"id": "call_7", "name": "shell", "args": {"cmd": "curl -I cdn"}}},
  {"seq": 6, "role": "tool", "tool_result": {"call_id": "call_7", "text": "x-cache: MISS; the cache is not the cause"}},
  {"seq": 7, "role": "assistant", "tool_call": {"id": "call_8", "name": "shell", "args": {"cmd": "deploy"}}},
  {"seq": 8, "role": "assistant", "text": "Waiting on the deploy."}
]`
	s, err := guard.Read(strings.NewReader(events), guard.ReadOptions{Name: "events.json"})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]struct {
		entry string
		want  int // the seq the entry's finding names
	}{
		"constraint source_seq":             {`{id: a, type: constraint, match: ['never run the purge job']}`, 2},
		"correction source_seq":             {`{id: a, type: correction, old: eu-central-1, new: eu-west-1, subject: region}`, 4},
		"refuted_hypothesis hypothesis_seq": {`{id: a, type: refuted_hypothesis, match: ['the cache is the cause'], conclusion: ['not the cause']}`, 3},
		"pending_operation call_seq":        {`{id: a, type: pending_operation, op_id: call_8}`, 7},
	}
	for _, r := range guard.Anchors {
		key := r.Type + " " + r.Field
		if r.Type == "refuted_hypothesis" && r.Field == "refuted_by_seq" {
			continue // tested below, with the evidence seqs
		}
		row, ok := rows[key]
		if !ok {
			t.Errorf("anchors.tsv row %q has no test case", key)
			continue
		}
		t.Run(key, func(t *testing.T) {
			inv := invariants(t, "version: 1\ninvariants:\n  - "+row.entry+"\n")
			b, _ := s.NewBoundary([]byte("nothing"), 8, "summary.txt")
			v, err := guard.Check(s, b, guard.Options{Invariants: inv})
			if err != nil {
				t.Fatal(err)
			}
			if got := shorts(v); len(got) != 1 || got[0].Seq != row.want || got[0].Status == guard.NotApplicable {
				t.Errorf("findings %+v, want one from seq %d", got, row.want)
			}
		})
	}
	// refuted_by_seq: the tool result after the hypothesis (seq 6), not
	// the assistant's guess before it that shares its words.
	inv := invariants(t, "version: 1\ninvariants:\n  - {id: a, type: refuted_hypothesis, match: ['the cache is the cause'], conclusion: ['not the cause']}\n")
	b, _ := s.NewBoundary([]byte("nothing"), 8, "summary.txt")
	v, err := guard.Check(s, b, guard.Options{Invariants: inv})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Findings) == 0 || v.Findings[0].Status != guard.Lost {
		t.Fatalf("findings %+v, want the refutation lost", v.Findings)
	}
	want := `the idea (the assistant, seq 3): "I think the cache is the cause." was refuted (the tool, seq 6)`
	if r := v.Findings[0].Restatement; !strings.Contains(r, want) {
		t.Errorf("restatement %q, want it to contain %q", r, want)
	}
}

// anchor: FIELD: PATTERNS finds a seq field by other words than match,
// and gives one to a type anchors.tsv has no row for.
func TestAnchorOverride(t *testing.T) {
	events := `[
  {"seq": 1, "role": "user", "text": "Keep the cache TTL at 300 s."},
  {"seq": 2, "role": "user", "text": "Also: no force pushes, ever."},
  {"seq": 3, "role": "assistant", "text": "Noted."}
]`
	s := eventsSession(t, events)
	inv := invariants(t, `version: 1
invariants:
  - id: no-force
    type: constraint
    match: ['never\W+force.push', 'no force.push']
    anchor: {source_seq: 'force push'}
`)
	b, _ := s.NewBoundary([]byte("Rule: no force pushes, ever."), 3, "summary.txt")
	v, err := guard.Check(s, b, guard.Options{Invariants: inv})
	if err != nil {
		t.Fatal(err)
	}
	if got := shorts(v); len(got) != 1 || got[0].Seq != 2 {
		t.Errorf("findings %+v, want no-force from seq 2", got)
	}
}

// A mistake in the invariants file is reported when the file is read,
// positioned in it, whatever session it is checked against later.
func TestInvariantsFileErrors(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"no version", "invariants: []\n", "invariants.yaml:1:1: missing version: 1"},
		{"version 2", "version: 2\ninvariants: []\n", "invariants.yaml:1:10: version 2 is not supported"},
		{"unknown key", "version: 1\nrules: []\n", `invariants.yaml:2:1: unknown field "rules" (valid: version, invariants, suggestions)`},
		{"bad type", "version: 1\ninvariants:\n  - {id: a, type: policy, match: [x]}\n", `invariants.yaml:3:19: invariants[0].type: "policy" is not an invariant type`},
		{"bad pattern", "version: 1\ninvariants:\n  - {id: a, type: constraint, match: ['(']}\n", "invariants.yaml:3:"},
		{"missing match", "version: 1\ninvariants:\n  - {id: a, type: constraint}\n", `missing required field "match"`},
		{"unknown field", "version: 1\ninvariants:\n  - {id: a, type: constraint, match: [x], scope: repo}\n", `unknown field "scope"`},
		{"bad confidence", "version: 1\nsuggestions: {min_confidence: 2}\n", "invariants.yaml:2:31: suggestions.min_confidence: want a number from 0 to 1"},
		{"anchor not a seq", "version: 1\ninvariants:\n  - {id: a, type: constraint, match: [x], anchor: {match: y}}\n", `anchor: "match" is not a seq field`},
		{"seq of an unknown row", "version: 1\ninvariants:\n  - {id: a, type: artifact, paths: [x], required: [x], anchor: {source_seq: y}}\n", `unknown field "source_seq"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := guard.ParseInvariants("invariants.yaml", []byte(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	f, err := guard.ParseInvariants("invariants.yaml", []byte("version: 1\nsuggestions: {min_confidence: 0.5}\ninvariants:\n"))
	if err != nil || f.Len() != 0 || f.MinConfidence == nil || *f.MinConfidence != 0.5 {
		t.Errorf("a file of suggestions only: %v, %+v", err, f)
	}
}

// ReadEach reads a file of records one session a record, and any other
// log as one session.
func TestReadEach(t *testing.T) {
	names := func(log string) []string {
		var out []string
		err := guard.ReadEach(fixture(t, log), guard.ReadOptions{}, func(name string, s *guard.Session, err error) error {
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return nil
			}
			out = append(out, filepath.Base(name))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := names("openhands_output.jsonl"); len(got) < 2 || !strings.HasPrefix(got[0], "openhands_output.jsonl#") {
		t.Errorf("records: %q, want one session a record, named FILE#ID", got)
	}
	if got := names("claude-code_compactions.jsonl"); len(got) != 1 || got[0] != "claude-code_compactions.jsonl" {
		t.Errorf("one session: %q", got)
	}
}

// The guard earns a kept only where the summary keeps the rule: each
// summary that would fool a word match (the rule's words under a
// permission, a lifting, a question, a condition the user never gave,
// the assistant's own opinion, parked in another field, citing an event
// that does not state it) is lost or uncertain, never kept, and its
// faithful twins (restated, paraphrased, reported as the user's, a typed
// record citing the rule's turn) are kept.
func TestAdversarialSummaries(t *testing.T) {
	events := `[
  {"seq": 1, "role": "user", "text": "Never run git push --force on this repository."},
  {"seq": 2, "role": "assistant", "text": "Understood."},
  {"seq": 3, "role": "assistant", "text": "Working on the fix."}
]`
	s := eventsSession(t, events)
	inv := invariants(t, "version: 1\ninvariants:\n  - {id: no-force, type: constraint, match: ['never\\W+run\\W+git push --force']}\n")
	notKept := []guard.Status{guard.Lost, guard.Uncertain}
	for _, tc := range []struct {
		name, summary string
		want          []guard.Status
	}{
		{"restated", "The user's rule: never run git push --force on this repository.", []guard.Status{guard.Kept}},
		{"paraphrased", "Do not run git push --force on this repository; the user forbade it.", []guard.Status{guard.Kept}},
		{"reported as the user's", "The user said never run git push --force on this repository.", []guard.Status{guard.Kept}},
		{"typed, citing the rule's turn", `{"schema_version":1,"covers_through":3,"constraints":[{"text":"Never run git push --force on this repository.","source_seq":1}]}`, []guard.Status{guard.Kept}},
		{"a permission instead", "The user now allows git push --force on this repository.", []guard.Status{guard.Lost}},
		{"lifted", "The rule never run git push --force was lifted by the user.", []guard.Status{guard.Lost}},
		{"restated, then cancelled", "Never run git push --force on this repository (this no longer applies).", []guard.Status{guard.Lost}},
		{"the old rule, then a permission", "Before, never run git push --force was the rule; now force pushes are fine.", []guard.Status{guard.Lost}},
		{"a question", "Should we never run git push --force?", notKept},
		{"a condition the user never gave", "If CI is red, never run git push --force.", notKept},
		{"the assistant's opinion", "The assistant thinks one should never run git push --force.", notKept},
		{"in the past", "The user used to say never run git push --force.", notKept},
		{"parked in pending", `{"schema_version":1,"covers_through":3,"pending":[{"description":"never run git push --force","status":"pending"}]}`, []guard.Status{guard.Lost}},
		{"citing an event that does not state it", `{"schema_version":1,"covers_through":3,"constraints":[{"text":"Never run git push --force on this repository.","source_seq":2}]}`, []guard.Status{guard.Lost}},
		{"typed as lifted", `{"schema_version":1,"covers_through":3,"constraints":[{"text":"Never run git push --force on this repository.","source_seq":1,"status":"lifted"}]}`, []guard.Status{guard.Lost}},
		{"typed as a permission, citing the rule's turn", `{"schema_version":1,"covers_through":3,"constraints":[{"text":"git push --force is allowed on this repository.","source_seq":1}]}`, notKept},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := s.NewBoundary([]byte(tc.summary), 3, "summary")
			if err != nil {
				t.Fatal(err)
			}
			v, err := guard.Check(s, b, guard.Options{Invariants: inv})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(tc.want, v.Status) {
				t.Errorf("verdict %s (%s), want one of %v", v.Status, v.Reason, tc.want)
			}
		})
	}
}
