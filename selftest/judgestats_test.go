package selftest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/compact-eval/compact-eval/judges"
)

// group is the judgements of one invariant: its oracle's and its planted
// variants', with the verdicts given in order.
func group(id string, labels []string, verdicts ...string) []Judgement {
	var out []Judgement
	for i, l := range labels {
		out = append(out, Judgement{Scenario: "s", Invariant: id, Generation: 1, Class: l, Verdict: verdicts[i]})
	}
	return out
}

var three = []string{FaithfulClass, string(Omit), string(Invert)}

// TestGroupNull holds the permutation distribution to hand-computed values:
// three distinct labels dealt to three documents (3! = 6 orders) agree with
// a right judge's verdicts 3 times in 1 order, once in 3, never in 2; a
// judge with one verdict for everything agrees equally often in every
// order.
func TestGroupNull(t *testing.T) {
	approx := cmpopts.EquateApprox(0, 1e-12)
	got := groupNull(group("x", three, judges.Kept, judges.Missing, judges.Contradicted))
	if diff := cmp.Diff([]float64{2.0 / 6, 3.0 / 6, 0, 1.0 / 6}, got, approx); diff != "" {
		t.Errorf("a right judge (-want +got):\n%s", diff)
	}
	got = groupNull(group("x", three, judges.Missing, judges.Missing, judges.Missing))
	if diff := cmp.Diff([]float64{0, 1, 0, 0}, got, approx); diff != "" {
		t.Errorf("always missing (-want +got):\n%s", diff)
	}
	// Two inversions and the oracle, a judge that calls both inversions
	// contradicted and the oracle kept: 3 orders; all right in one, one
	// right (an inversion's label on the oracle) in two.
	got = groupNull(group("x", []string{FaithfulClass, string(Invert), string(Invert)}, judges.Kept, judges.Contradicted, judges.Contradicted))
	if diff := cmp.Diff([]float64{0, 2.0 / 3, 0, 1.0 / 3}, got, approx); diff != "" {
		t.Errorf("two inversions (-want +got):\n%s", diff)
	}
}

// TestLabelTest: two groups a right judge gets all right are 1/6 × 1/6 by
// chance; judges that read nothing (one verdict for everything, kept or
// not) are never better than chance, however many labels they match; a
// judgement of a structural class or without a verdict is left out.
func TestLabelTest(t *testing.T) {
	right := append(group("a", three, judges.Kept, judges.Missing, judges.Contradicted),
		group("b", three, judges.Kept, judges.Missing, judges.Contradicted)...)
	right = append(right, Judgement{Scenario: "s", Invariant: "a", Generation: 1, Class: string(MoveToText), Verdict: judges.Kept},
		Judgement{Scenario: "s", Invariant: "b", Generation: 1, Class: string(Invert), Error: "timeout"})
	lt := labelTest(right)
	if lt.Correct != 6 || lt.Of != 6 || math.Abs(lt.P-1.0/36) > 1e-12 || math.Abs(lt.Chance-2) > 1e-12 || !lt.BetterThanChance() {
		t.Errorf("right judge: %+v; want 6 of 6, chance 2, p 1/36", lt)
	}
	for _, v := range []string{judges.Kept, judges.Missing, judges.Contradicted} {
		var js []Judgement
		for _, id := range []string{"a", "b", "c", "d", "e", "f"} {
			js = append(js, group(id, []string{FaithfulClass, string(Omit), string(Invert), string(Invert)}, v, v, v, v)...)
		}
		if lt := labelTest(js); lt.P != 1 || lt.BetterThanChance() {
			t.Errorf("always %s: %+v; want p 1", v, lt)
		}
	}
	if lt := labelTest(nil); lt.Of != 0 || lt.BetterThanChance() {
		t.Errorf("nothing judged: %+v", lt)
	}
}

// TestLabelTestRandomJudge: a judge that answers at random (whatever its
// preference for a verdict) passes the test at most as often as its
// level says, also when one oracle judgement stands beside several
// variants (the groups keep their dependence): the test is exact, never
// generous. Seeded, so the figure is the same on every machine.
func TestLabelTestRandomJudge(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 4))
	labels := []string{FaithfulClass, string(Omit), string(Invert), string(Invert), string(Invert)}
	verdicts := []string{judges.Kept, judges.Missing, judges.Contradicted}
	for _, bias := range []float64{0.34, 0.6, 0.9} {
		const judgesN = 2000
		passed := 0
		for range judgesN {
			var js []Judgement
			for g := range 6 {
				vs := make([]string, len(labels))
				for i := range vs {
					vs[i] = verdicts[1+rng.IntN(2)]
					if rng.Float64() < bias {
						vs[i] = judges.Kept
					}
				}
				js = append(js, group(fmt.Sprint(g), labels, vs...)...)
			}
			if labelTest(js).BetterThanChance() {
				passed++
			}
		}
		if share := float64(passed) / judgesN; share > JudgeAlpha+0.015 {
			t.Errorf("kept with probability %.2f: %d of %d random judges passed (%.3f), more than α %.2f", bias, passed, judgesN, share, JudgeAlpha)
		}
	}
}

// TestJudgeUnusable: the verdict names the usable rate below the floor,
// the test that failed, or nothing when the judge can be believed.
func TestJudgeUnusable(t *testing.T) {
	ok := append(group("a", three, judges.Kept, judges.Missing, judges.Contradicted),
		group("b", three, judges.Kept, judges.Missing, judges.Contradicted)...)
	ok = append(ok, group("c", three, judges.Kept, judges.Missing, judges.Contradicted)...)
	for _, tc := range []struct {
		name string
		js   []Judgement
		want string
	}{
		{"reads", ok, ""},
		{"mostly garbage", append(append([]Judgement(nil), ok...), group("d", []string{FaithfulClass, FaithfulClass}, "", "")...),
			"9 of 11 judgements had a usable verdict (82%), below the floor of 90%"},
		{"nothing asked", nil, "it was asked nothing"},
		{"always kept", group("a", three, judges.Kept, judges.Kept, judges.Kept), "its verdicts agree with 1 of 3 planted labels, where a judge that does not read the summaries agrees with 1.0 (p = 1.000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &JudgeReport{Judgements: tc.js}
			r.tally()
			if tc.want == "" && r.Unusable != "" || tc.want != "" && !strings.HasPrefix(r.Unusable, tc.want) {
				t.Errorf("unusable = %q, want %q", r.Unusable, tc.want)
			}
		})
	}
}
