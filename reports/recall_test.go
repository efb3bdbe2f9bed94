package reports_test

import (
	"bytes"
	"fmt"
	"html/template"
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
		for j := range u.Generations {
			u.Generations[j].Citations = &result.CitationFigures{Evidence: 2, EvidenceCited: (i + j) % 3, Cited: 5, Dangling: i % 2, Irrelevant: j % 2}
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
	golden(t, "small_recall.junit.xml", normalise(render(t, r, "junit", reports.Options{})))
	golden(t, "small_recall.html.outline", htmlOutline(render(t, r, "html", reports.Options{})))
	// every format shows each summarizer's split and cost
	html := render(t, r, "html", reports.Options{})
	junit := render(t, r, "junit", reports.Options{})
	for _, row := range reports.RecallRows(r) {
		cells := fmt.Sprintf(`<td class="num">%d</td><td class="num">%d</td><td class="num">%d</td><td class="num">%d</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td>`,
			row.Regressions, row.ByCitation, row.BySearch, row.Lost, template.HTMLEscapeString(row.Recoverable), row.Cost(), template.HTMLEscapeString(row.EvidenceCited), template.HTMLEscapeString(row.BadCitations))
		if row.EvidenceCited == "—" && row.Regressions > 0 {
			t.Errorf("%s: no evidence figure though its generations have citations", row.Summarizer)
		}
		if !strings.Contains(html, cells) {
			t.Errorf("html lacks %s's recall row %s", row.Summarizer, cells)
		}
		if !strings.Contains(junit, `name="compact-eval.recall.`+row.Summarizer+`" value="`+row.Text()+`"`) {
			t.Errorf("junit lacks %s's recall property", row.Summarizer)
		}
	}
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

// TestRecallGate: --min-pass recall=… gates the share of probes the
// recall arm decides right (a lost regression is a miss, fail closed), and
// only an explicit recall key does: "all" keeps its meaning.
func TestRecallGate(t *testing.T) {
	r := smallRecall(t)
	lost := 0
	for _, s := range r.Summaries {
		lost += s.RecallLost
	}
	if lost == 0 {
		t.Fatal("the fixture loses nothing: the gate is not tested")
	}
	g := reports.Gate(r, reports.GateOptions{MinPass: mustMinPass(t, "recall=1")})
	if !g.Failed || !strings.Contains(strings.Join(g.Lines, "\n"), "FAIL min-pass: builtin:extractive recall ") {
		t.Errorf("recall=1 with lost regressions: %q", g.Lines)
	}
	g = reports.Gate(r, reports.GateOptions{MinPass: mustMinPass(t, "recall=0")})
	if g.Failed {
		t.Errorf("recall=0: %q", g.Lines)
	}
	all := reports.Gate(r, reports.GateOptions{MinPass: mustMinPass(t, "all=0")})
	for _, l := range all.Lines {
		if strings.Contains(l, " recall") {
			t.Errorf("all= gates the recall arm: %q", l)
		}
	}
	// without the recall arm, the key names nothing to judge: fail closed
	r.Config.Recall = nil
	for i := range r.Units {
		for j := range r.Units[i].Probes {
			r.Units[i].Probes[j].Recall, r.Units[i].Probes[j].Recovery = nil, ""
		}
	}
	r.Aggregate()
	g = reports.Gate(r, reports.GateOptions{MinPass: mustMinPass(t, "recall=0")})
	if !g.Failed || !strings.Contains(strings.Join(g.Lines, "\n"), "min-pass recall: nothing to judge") {
		t.Errorf("recall gate on a run without the arm: %q", g.Lines)
	}
}

func TestRecallStatus(t *testing.T) {
	d := func(c string) result.Decision { return result.Decision{Choice: c} }
	rd := func(c string) *result.Decision { x := d(c); return &x }
	for _, tc := range []struct {
		name string
		p    result.Probe
		want result.Status
	}{
		{"not asked", result.Probe{Expect: "a", Full: d("a")}, result.Skip},
		{"the full arm wrong too", result.Probe{Expect: "a", Full: d("b"), Recall: rd("b")}, result.Skip},
		{"recovered", result.Probe{Expect: "a", Full: d("a"), Compacted: d("b"), Recall: rd("a")}, result.Pass},
		{"lost", result.Probe{Expect: "a", Full: d("a"), Compacted: d("b"), Recall: rd("b")}, result.Fail},
		{"recall misled a kept probe", result.Probe{Expect: "a", Full: d("a"), Compacted: d("a"), Recall: rd("b")}, result.Fail},
		{"unsure", result.Probe{Expect: "a", Full: d("a"), Recall: rd("unsure")}, result.Uncertain},
		{"failed", result.Probe{Expect: "a", Full: d("a"), Recall: &result.Decision{Error: "boom"}}, result.Error},
	} {
		if got := result.RecallStatus(tc.p); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
