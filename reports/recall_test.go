package reports_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// smallRecall is small with a recall arm: every probe of a compacted unit
// asked a third time, its regressions recovered by citation, by search or
// lost in turn.
func smallRecall(t testing.TB) *result.Result {
	r := fake.Result(fake.Config{Scenarios: 5, Seed: 3})
	fake.Redact(r)
	r.Config.Recall = &result.RecallConfig{Calls: 4, Events: 5, Tokens: 1500}
	n := 0
	for i := range r.Units {
		u := &r.Units[i]
		if len(u.Generations) == 0 {
			continue
		}
		for j := range u.Probes {
			p := &u.Probes[j]
			d := result.Decision{Choice: p.Compacted.Choice, Reason: "recall: nothing found"}
			if p.Class == result.CompactionRegression {
				switch n % 3 {
				case 0:
					p.Recovery = result.RecoveredByCitation
					d.Choice = p.Expect
					d.RecallCalls = []result.RecallCall{{Kind: result.RecallBySeq, Seqs: []int{1, 9}, Returned: []int{1}, Missing: []int{9}, Tokens: 40}}
				case 1:
					p.Recovery = result.RecoveredBySearch
					d.Choice = p.Expect
					d.RecallCalls = []result.RecallCall{{Kind: result.RecallBySearch, Query: "what now", Returned: []int{2, 3}, Tokens: 120}}
				default:
					p.Recovery = result.RecallLost
					d.RecallCalls = []result.RecallCall{{Kind: result.RecallBySearch, Query: "what now", Tokens: 0}, {Kind: result.RecallBySearch, Query: "what now", Error: "the recall budget of this probe is spent"}}
				}
				n++
			}
			p.Recall = &d
		}
	}
	r.Aggregate()
	return r
}

func TestRecallGolden(t *testing.T) {
	r := smallRecall(t)
	golden(t, "small_recall.md", normalise(render(t, r, "md", reports.Options{})))
}

func TestRecallRows(t *testing.T) {
	r := smallRecall(t)
	rows := reports.RecallRows(r)
	if len(rows) == 0 {
		t.Fatal("no recall rows")
	}
	total := 0
	for _, row := range rows {
		if row.ByCitation+row.BySearch+row.Lost != row.Regressions {
			t.Errorf("%s: %d+%d+%d is not its %d regressions", row.Summarizer, row.ByCitation, row.BySearch, row.Lost, row.Regressions)
		}
		total += row.Regressions
	}
	if total == 0 {
		t.Fatal("the fixture has no regression: the rows test nothing")
	}
	r.Config.Recall = nil
	if reports.RecallRows(r) != nil {
		t.Error("rows for a run without the recall arm")
	}
	if strings.Contains(render(t, r, "md", reports.Options{}), "Recall arm") {
		t.Error("a run without the recall arm shows a recall section")
	}
}

func TestSchemaValidatesRecall(t *testing.T) {
	s := compileSchema(t)
	var b bytes.Buffer
	if err := result.WriteJSON(&b, smallRecall(t)); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(inst); err != nil {
		t.Errorf("a result with a recall arm does not validate: %v", err)
	}
}
