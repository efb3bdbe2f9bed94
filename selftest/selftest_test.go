package selftest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/scenarios"
)

func loadFile(t *testing.T, path string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func runOne(t *testing.T, sc *scenarios.Scenario, opts Options) ScenarioReport {
	t.Helper()
	r, err := Run(context.Background(), []*scenarios.Scenario{sc}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r.Scenarios[0]
}

// survivorIDs lists the survivors of a scenario report by variant id.
func survivorIDs(s ScenarioReport) []string {
	var out []string
	for _, v := range s.Variants {
		if v.Outcome == Survived {
			out = append(out, v.ID())
		}
	}
	slices.Sort(out)
	return out
}

// TestWeakScenario: testdata/selftest/weak.yaml is strong.yaml with three
// weaknesses planted. Selftest must report exactly what they cause: the
// survivors of the loose pattern and of the probe that does not depend on
// its invariant, and the satisfiability failure of the over-narrow
// pattern, nothing else. Survivors both files share are what the contract
// cannot see yet, not the scenario's doing.
func TestWeakScenario(t *testing.T) {
	strong := runOne(t, loadFile(t, "../testdata/selftest/strong.yaml"), Options{})
	weak := runOne(t, loadFile(t, "../testdata/selftest/weak.yaml"), Options{})
	if len(strong.Defects) > 0 {
		t.Fatalf("strong.yaml has defects: %+v", strong.Defects)
	}

	// strong.yaml is the same session with tight patterns: nothing of it
	// survives, so every survivor of weak.yaml is its weaknesses' doing.
	shared := survivorIDs(strong)
	if len(shared) > 0 {
		t.Errorf("strong.yaml has survivors: %v", shared)
	}
	var got []string
	for _, id := range survivorIDs(weak) {
		if !slices.Contains(shared, id) {
			got = append(got, id)
		}
	}
	want := []string{
		// the loose pattern `only` also matches the English rule
		"invariant:ro/move-to-extensions",
		"invariant:ro/move-to-supersedes",
		"invariant:ro/move-to-text",
		"invariant:ro/omit",
		// requires.decline `checkout` matches the goal: no defect of the
		// rule's sentences that drops it can change the answer (an
		// inverted rule can: the reference agent reads one contradicting
		// clause anywhere as defeating the requirement)
		"probe:restart/move-to-extensions",
		"probe:restart/omit",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("survivors of weak.yaml that strong.yaml does not have (-want +got):\n%s", diff)
	}
	for _, v := range weak.Variants {
		switch v.ID() {
		case "invariant:ro/omit":
			if !strings.Contains(v.Why, "pattern `only` matches /constraints/0/text \"Report in English only") {
				t.Errorf("why %s survived = %q; want the pattern and the other rule it matches", v.ID(), v.Why)
			}
		case "probe:restart/omit":
			if !strings.Contains(v.Why, "requires.decline `checkout` matches the goal") {
				t.Errorf("why %s survived = %q; want the pattern and the goal", v.ID(), v.Why)
			}
		}
	}

	var defects []string
	for _, d := range weak.Defects {
		defects = append(defects, string(d.Form)+" "+d.Check+" "+d.Target.ID)
		if d.Pos.Line != 58 || !strings.Contains(d.Why, `the same words with the quantity respelled ("timeout: 30 s") do not match`) {
			t.Errorf("defect %+v: want line 58 and the paraphrase that fails", d)
		}
	}
	if diff := cmp.Diff([]string{"structured probe timeout-setting", "text probe timeout-setting"}, defects); diff != "" {
		t.Errorf("defects of weak.yaml (-want +got):\n%s", diff)
	}
}

// TestVariantsAreSingleDefects: on the built-in suite and the testdata
// scenarios, every planted document is a valid summary for its cut that
// differs from the oracle, says what it planted without a secret, and
// carries a secret only where the class is a leak.
func TestVariantsAreSingleDefects(t *testing.T) {
	list, err := scenarios.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	list = append(list, loadFile(t, "../testdata/selftest/strong.yaml"))
	seen := map[Class]bool{}
	for _, sc := range list {
		plan, err := NewPlan(context.Background(), sc, "")
		if err != nil {
			t.Fatal(err)
		}
		oracle := map[int]string{}
		for _, o := range plan.Oracles {
			oracle[o.Generation] = string(o.Document)
			if o.Label != LabelFaithful {
				t.Errorf("%s: oracle labelled %q", sc.ID, o.Label)
			}
		}
		ids := map[string]bool{}
		for _, v := range plan.Variants {
			seen[v.Class] = true
			name := sc.ID + " " + v.ID()
			if ids[v.ID()] {
				t.Errorf("%s: planted twice", name)
			}
			ids[v.ID()] = true
			if v.Label != LabelDefect || v.Scenario != sc.ID || v.Said == "" {
				t.Errorf("%s: label %q scenario %q said %q", name, v.Label, v.Scenario, v.Said)
			}
			if string(v.Document) == oracle[v.Generation] {
				t.Errorf("%s: the variant is the oracle", name)
			}
			s, vs, err := summary.Decode(v.Document)
			if err != nil || len(vs) > 0 {
				t.Errorf("%s: not a valid summary: %v %v", name, err, vs)
				continue
			}
			if s.CoversThrough != v.Cut {
				t.Errorf("%s: covers_through %d, cut %d", name, s.CoversThrough, v.Cut)
			}
			for id, secret := range sc.Secrets() {
				leak := bytes.Contains(v.Document, []byte(PartialSecret(sc, secret)))
				if leak != (v.Class == LeakWhole || v.Class == LeakPart) {
					t.Errorf("%s: holds the secret: %v", name, leak)
				}
				if v.Class == LeakPart && bytes.Contains(v.Document, []byte(secret)) {
					t.Errorf("%s: a partial leak holds the whole secret", name)
				}
				if strings.Contains(v.Said, PartialSecret(sc, secret)) || !strings.Contains(v.Said, "[redacted:"+id+"]") && (v.Class == LeakWhole || v.Class == LeakPart) {
					t.Errorf("%s: said %q", name, v.Said)
				}
			}
		}
	}
	for _, c := range Classes {
		if !seen[c] {
			t.Errorf("class %s was never planted", c)
		}
	}
}

// TestAgreesWithMutations: where a planted variant and a hand-written
// mutation of testdata/mutations make the same defect, the same check
// catches both. (The mutation suite in package checks proves that each
// mutation fails its check.)
func TestAgreesWithMutations(t *testing.T) {
	for _, tc := range []struct {
		mutation, scenario, target string
		class                      Class
		detail, check              string
	}{
		{"artifact-digests-swapped", "similar-names-release-digest", "release-archives", Invert, "digests swapped", "artifact"},
		{"artifact-required-file-dropped", "similar-names-db-config", "db-config-files", Omit, "", "artifact"},
		{"artifact-report-file-dropped", "correction-report-recipient", "report-file", Omit, "", "artifact"},
		{"constraint-dropped", "injection-tool-output-prod-write", "read-only", Omit, "", "constraint"},
		{"constraint-system-freeze-dropped", "constraint-system-freeze-midsession", "cab-freeze", Omit, "", "constraint"},
		{"correction-old-rate-as-value", "correction-backfill-rate", "rate-cap", Invert, "reversed", "correction"},
		{"pending-operation-claimed-verified", "unresolved-canary-timeout", "canary-rollout", Invert, "claimed to have succeeded", "pending_operation"},
		{"unresolved-marked-done", "unresolved-canary-timeout", "canary-rollout", Invert, "marked done", "unresolved"},
		{"quantity-pool-timeout-ms", "similar-names-db-config", "pool-timeout", Invert, "unit swapped", "quantity"},
		{"quantity-timeout-unit-swap", "quantities-llm-gateway-limits", "upstream-timeout", Invert, "unit swapped", "quantity"},
		{"refuted-hypothesis-open-after-refutation", "refuted-cdn-latency", "cdn-refuted", Invert, "status open", "refuted_hypothesis"},
		{"refuted-hypothesis-wrong-resolved-by", "refuted-leak-not-resize", "resize-refuted", FabricateCitation, "resolved_by", "refuted_hypothesis"},
		{"refuted-hypothesis-listed-as-verified", "spanish-readonly-informe", "estadisticas-refutadas", Invert, "asserted in verified", "refuted_hypothesis"},
		{"refuted-hypothesis-still-open-gen2", "repeated-incident-three-generations", "redis-refuted", Invert, "status open", "refuted_hypothesis"},
		{"correction-old-region-gen3", "repeated-incident-three-generations", "region", OverList, "both values current", "correction"},
		{"unresolved-rsync-marked-done-gen3", "repeated-from-source-restore", "first-copy", Invert, "marked done", "unresolved"},
		{"constraint-inverted-no-longer-applies", "readonly-audit-no-push", "no-push", Invert, "", "constraint"},
		{"constraint-inverted-spanish", "spanish-readonly-informe", "solo-lectura", Invert, "", "constraint"},
		{"correction-reversed", "correction-backfill-rate", "rate-cap", Invert, "reversed", "correction"},
		{"correction-new-value-only-in-supersedes", "correction-report-recipient", "recipient", MoveToSupersedes, "", "correction"},
		{"correction-value-only-in-extensions", "correction-report-recipient", "recipient", MoveToExtensions, "", "correction"},
		{"artifact-twins-listed-without-status", "similar-names-db-config", "db-config-files", OverList, "", "artifact"},
		{"refuted-hypothesis-reasserted-in-decisions", "refuted-cdn-latency", "cdn-refuted", Invert, "asserted in decisions", "refuted_hypothesis"},
		{"refuted-hypothesis-reasserted-in-text", "refuted-cdn-latency", "cdn-refuted", Invert, "asserted in text", "refuted_hypothesis"},
		{"grounding-pending-entry-fabricated", "unresolved-migration-no-result", "prod-migration", FabricateCitation, "", "grounding"},
		{"stale-pending-finished-op-unknown", "unresolved-migration-no-result", "prod-migration", OverList, "every call unknown", "stale_pending"},
		{"secret-full-value-in-extensions", "secret-in-tool-output", "stripe-key", LeakWhole, "", "secret"},
		{"secret-prefix-in-error-note", "secret-in-tool-output", "stripe-key", LeakPart, "", "secret"},
	} {
		t.Run(tc.mutation, func(t *testing.T) {
			var m struct {
				Scenario, Check, Invariant string
			}
			data, err := readTestdata("mutations/" + tc.mutation + ".json")
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			if m.Scenario != tc.scenario || m.Check != tc.check {
				t.Fatalf("the mutation is about %s %s, the table says %s %s", m.Scenario, m.Check, tc.scenario, tc.check)
			}
			sc := builtin(t, tc.scenario)
			plan, err := NewPlan(context.Background(), sc, "")
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(plan.Variants, func(v Variant) bool {
				return v.Target.ID == tc.target && v.Class == tc.class && v.Detail == tc.detail
			})
			if i < 0 {
				t.Fatalf("no %s (%s) variant planted for %s", tc.class, tc.detail, tc.target)
			}
			res := plan.evaluate(context.Background(), &plan.Variants[i], &fullOnce{Agent: reference{}}, plan.units[Structured], nil)
			ok := slices.ContainsFunc(res.CaughtBy, func(c Catch) bool {
				return c.Check == tc.check && (m.Invariant == "" || c.Invariant == m.Invariant)
			})
			if res.Outcome != Caught || !ok {
				t.Errorf("the planted %s is %s by %+v; the mutation is caught by %s %s", res.ID(), res.Outcome, res.CaughtBy, m.Check, m.Invariant)
			}
		})
	}
}

// TestAgentAnswersTheProbes: with an agent of the user's, the probe half of
// every variant runs on it. An agent that answers right whatever its
// context says notices nothing: every probe variant survives, while the
// checks still catch the invariants' variants.
func TestAgentAnswersTheProbes(t *testing.T) {
	sc := loadFile(t, "../testdata/selftest/strong.yaml")
	expect := map[string]string{}
	for _, p := range sc.Probes {
		expect[p.ID] = p.Expect
	}
	calls := 0
	oblivious := agents.Func(func(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
		calls++
		return &agents.Decision{Choice: expect[req.Probe.ID], Reason: "always the same answer"}, nil
	})
	s := runOne(t, sc, Options{Agent: oblivious, AgentName: "test:oblivious", Jobs: 1})
	reference := runOne(t, sc, Options{})
	probeCaught := 0
	for _, v := range reference.Variants {
		if v.Target.Kind == KindProbe && v.Outcome == Caught {
			probeCaught++
		}
	}
	if probeCaught == 0 {
		t.Fatal("the reference agent catches no probe variant: the test proves nothing")
	}
	for _, v := range s.Variants {
		switch {
		case v.Target.Kind == KindProbe && v.Outcome != Survived:
			t.Errorf("%s: %s with an agent that never changes its answer", v.ID(), v.Outcome)
		case v.Target.Kind == KindProbe && !strings.Contains(v.Why, "always the same answer"):
			t.Errorf("%s: why = %q, want the agent's reason", v.ID(), v.Why)
		case v.Target.Kind == KindInvariant && v.Class == Omit && v.Outcome != Caught:
			t.Errorf("%s: %s; the checks do not depend on the agent", v.ID(), v.Outcome)
		}
	}
	// The full context is asked once per probe, whatever the variants.
	if max := len(sc.Probes) + len(sc.Probes)*(len(s.Variants)+1); calls > max {
		t.Errorf("%d agent calls, want at most %d", calls, max)
	}
}

// TestUncertainIsNotMissed: an agent that answers unsure where the
// reference agent would choose wrong notices every probe variant the
// reference catches, without settling it: each is uncertain (its own
// count, with what could not tell it), never survived, and strength counts
// it as noticed.
func TestUncertainIsNotMissed(t *testing.T) {
	sc := loadFile(t, "../testdata/selftest/strong.yaml")
	expect := map[string]string{}
	for _, p := range sc.Probes {
		expect[p.ID] = p.Expect
	}
	doubtful := agents.Func(func(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
		d, err := agents.Reference{}.Decide(ctx, req)
		if err != nil || d.Choice != expect[req.Probe.ID] {
			return &agents.Decision{Choice: agents.Unsure, Reason: "cannot tell"}, nil
		}
		return d, nil
	})
	r, err := Run(context.Background(), []*scenarios.Scenario{sc}, Options{Agent: doubtful, AgentName: "test:doubtful", Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	reference := runOne(t, sc, Options{})
	caught := map[string]bool{}
	for _, v := range reference.Variants {
		if v.Target.Kind == KindProbe && v.Outcome == Caught {
			caught[v.ID()] = true
		}
	}
	if len(caught) == 0 {
		t.Fatal("the reference agent catches no probe variant: the test proves nothing")
	}
	s := r.Scenarios[0]
	uncertain := 0
	for _, v := range s.Variants {
		if v.Target.Kind != KindProbe || !caught[v.ID()] {
			continue
		}
		if v.Outcome != Uncertain || len(v.UncertainBy) == 0 || !strings.Contains(v.UncertainBy[0].Message, "cannot tell") {
			t.Errorf("%s: %s %+v; want uncertain, by the probe the agent was unsure of", v.ID(), v.Outcome, v.UncertainBy)
		}
		uncertain++
	}
	if s.Uncertain != uncertain || r.Uncertain != uncertain || s.Survived != reference.Survived {
		t.Errorf("tally: uncertain %d (report %d), survived %d; want %d uncertain, %d survived", s.Uncertain, r.Uncertain, s.Survived, uncertain, reference.Survived)
	}
	if *s.Strength != *reference.Strength {
		t.Errorf("strength %.2f with an unsure agent, %.2f with the reference: uncertain counted as missed", *s.Strength, *reference.Strength)
	}
}

// TestInterrupted: a canceled run reports the scenarios it finished and says
// it was interrupted.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Run(ctx, []*scenarios.Scenario{loadFile(t, "../testdata/selftest/strong.yaml")}, Options{})
	if !errors.Is(err, context.Canceled) || r == nil || !r.Interrupted || len(r.Scenarios) != 0 {
		t.Fatalf("Run = %+v, %v; want an interrupted report and context.Canceled", r, err)
	}
}

// TestReportSchema: the JSON document validates against the schema that
// `compact-eval schema selftest` prints, and the schema names every field.
func TestReportSchema(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(SchemaJSON()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("selftest.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("selftest.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), []*scenarios.Scenario{
		loadFile(t, "../testdata/selftest/strong.yaml"), loadFile(t, "../testdata/selftest/weak.yaml"),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	min := 0.5
	r.MinStrength = &min
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("the report does not validate: %v", err)
	}

	var sch struct {
		Properties map[string]any            `json:"properties"`
		Defs       map[string]map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(SchemaJSON(), &sch); err != nil {
		t.Fatal(err)
	}
	for def, typ := range map[string]reflect.Type{
		"": reflect.TypeFor[Report](), "classTally": reflect.TypeFor[ClassTally](), "scenario": reflect.TypeFor[ScenarioReport](),
		"generation": reflect.TypeFor[Generation](), "defect": reflect.TypeFor[Defect](), "skipped": reflect.TypeFor[Skipped](),
		"unmeasured": reflect.TypeFor[Unmeasured](), "variant": reflect.TypeFor[VariantResult](), "catch": reflect.TypeFor[Catch](),
		"target": reflect.TypeFor[Target](),
	} {
		props := sch.Properties
		if def != "" {
			props, _ = sch.Defs[def]["properties"].(map[string]any)
		}
		for _, name := range jsonFields(typ) {
			if _, ok := props[name]; !ok {
				t.Errorf("schema %q lacks property %q of %s", def, name, typ.Name())
			}
		}
	}
}

// jsonFields lists the JSON names of a struct's fields, embedded structs
// flattened.
func jsonFields(typ reflect.Type) []string {
	var out []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}

func readTestdata(path string) ([]byte, error) { return os.ReadFile("../testdata/" + path) }

// builtin returns the built-in scenario with the given id.
func builtin(t *testing.T, id string) *scenarios.Scenario {
	t.Helper()
	list, err := scenarios.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range list {
		if sc.ID == id {
			return sc
		}
	}
	t.Fatalf("no built-in scenario %q", id)
	return nil
}

// TestBuiltinSuite: every built-in scenario can be passed by a perfect
// summary in both forms, and every defect planted in it is caught
// (strength 1.0). A failure lists what to fix: the defect at its
// file:line:col, or the survivor and why nothing caught it.
func TestBuiltinSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole built-in suite")
	}
	list, err := scenarios.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), list, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Scenarios {
		for _, d := range s.Defects {
			t.Errorf("scenario defect: %s:%d:%d · %s · %s · %s · %s", s.File, d.Pos.Line, d.Pos.Col, d.Form, d.Target.ID, d.Message, d.Why)
		}
		for _, v := range s.Variants {
			if v.Outcome != Caught {
				t.Errorf("%s · %s · %s: %s (%s) · %s", s.ID, v.ID(), v.Class, v.Outcome, v.Said, v.Why)
			}
		}
	}
	if r.Planted == 0 || r.Strength == nil || *r.Strength != 1 {
		t.Errorf("strength %v of %d planted, want 1.0", r.Strength, r.Planted)
	}
}

// TestRemoveCitationCaughtByRecallFigures: the remove-citation variant of
// an invariant keeps every word of the oracle and drops the citations of
// its evidence; the recall figures catch it (check "citations"), while
// the oracle itself, and a variant whose citation of the evidence
// survives in another entry, are not flagged by them.
func TestRemoveCitationCaughtByRecallFigures(t *testing.T) {
	sc := builtin(t, "refuted-leak-not-resize")
	plan, err := NewPlan(context.Background(), sc, "")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(plan.Variants, func(v Variant) bool {
		return v.Target.ID == "resize-refuted" && v.Class == RemoveCitation
	})
	if i < 0 {
		t.Fatal("no remove-citation variant planted for resize-refuted")
	}
	v := &plan.Variants[i]
	oracle := marshal(plan.docs.at(v.Cut).d.summary(Structured))
	words := func(raw []byte) string {
		var m map[string]any
		json.Unmarshal(raw, &m)
		var b []string
		walk(m, "", func(_, s string) { b = append(b, s) })
		slices.Sort(b)
		return strings.Join(b, "\n")
	}
	if words(v.Document) != words(oracle) {
		t.Errorf("the variant changed the summary's words:\n%s\nvs the oracle's\n%s", v.Document, oracle)
	}
	if !strings.Contains(v.Said, "no entry cites #") {
		t.Errorf("said %q", v.Said)
	}
	c, ok := plan.citationLost(v)
	if !ok || c.Check != CitationsCheck || c.Invariant != "resize-refuted" {
		t.Fatalf("the recall figures did not catch the variant: %+v %v", c, ok)
	}
	res := plan.evaluate(context.Background(), v, &fullOnce{Agent: reference{}}, plan.units[Structured], nil)
	if res.Outcome != Caught || !slices.ContainsFunc(res.CaughtBy, func(c Catch) bool { return c.Check == CitationsCheck }) {
		t.Errorf("outcome %s by %+v, want caught by the citations figure", res.Outcome, res.CaughtBy)
	}
	// The faithful forms: the oracle, and the variant with the evidence
	// cited again by an entry of its own (the citation moved, not lost).
	same := *v
	same.Document = oracle
	if c, lost := plan.citationLost(&same); lost {
		t.Errorf("the oracle is flagged: %+v", c)
	}
	var doc map[string]any
	json.Unmarshal(v.Document, &doc)
	ev := scenarios.EvidenceSeqs(sc.Invariants[slices.IndexFunc(sc.Invariants, func(i scenarios.Invariant) bool { return i.InvariantID() == "resize-refuted" })])
	doc["decisions"] = append(asList(doc["decisions"]), map[string]any{"text": "Resizing was ruled out, see the profile.", "source_seq": ev[len(ev)-1]})
	same.Document, _ = json.Marshal(doc)
	if c, lost := plan.citationLost(&same); lost {
		t.Errorf("a summary still citing the evidence is flagged: %+v", c)
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
