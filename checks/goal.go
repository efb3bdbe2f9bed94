package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// GoalCheck checks a `goal` invariant: after the user redirected the task
// at source_seq, the summary states the current objective (match) as the
// goal and the one it replaced (superseded) only as replaced.
//
// A pass is earned. On a structured summary the typed record decides: the
// goal field states the current objective (internal/meaning's ReadGoal:
// every clause of the goal field is the goal) and nothing in it states the
// replaced one but as replaced ("instead of …", "was …", "on hold"). A goal
// field that states the replaced objective as current fails, and so does
// one that is empty or says nothing of the current one (the message says
// where else it is stated). On a text-only summary (whose goal field
// counts too) a clause must state the current objective as the work: a
// word that names the objective ("the goal is", "working on", "el
// objetivo"), or the objective as the clause's order. Then every clause of
// every field the agent sees is read (corrections[].supersedes holds the
// replaced goal and counts only as that): one that states the replaced
// objective as the work, brings it back ("back to …") or sets the current
// one aside fails; one under a modifier its redirect does not carry (a
// hedge, a condition, an attribution, a question) is uncertain. A clause
// that names an objective's topic for another fact says nothing of it.
// Skip while source_seq is after the cut: before the redirect, the old
// objective is the goal.
type GoalCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.Goal
}

// goalKey keys a goal's subjects, one per role, in the per-scenario cache.
type goalKey struct {
	inv  *scenarios.Goal
	role meaning.Role
}

func (goalKey) InvariantID() string  { return "" }
func (goalKey) Type() string         { return "" }
func (goalKey) Position() result.Pos { return result.Pos{} }

// Check implements Check.
func (c GoalCheck) Check(in *Input) []result.CheckResult {
	if c.Inv == nil {
		return nilInvariant(result.TypeGoal)
	}
	inv := c.Inv
	st, r, ok := patternedInvariant(in, inv, inv.SourceSeq, inv.Match, inv.Superseded)
	if !ok {
		return []result.CheckResult{r}
	}
	now := st.subjectOf(goalKey{inv, meaning.Now}, func() *meaning.Subject {
		return meaning.StateSubject(meaning.Goal, compiled(inv.Match), st.eventText(inv.SourceSeq), nil)
	})
	old := st.subjectOf(goalKey{inv, meaning.Replaced}, func() *meaning.Subject {
		return meaning.StateSubject(meaning.Goal, compiled(inv.Superseded), st.eventText(inv.SourceSeq), nil)
	})
	leaves := st.currentFlat()
	if st.sum.TextOnly() {
		leaves = append(st.leavesUnder("/goal"), st.textLeaves()...)
	}
	var g goalReadings
	for _, l := range leaves {
		t := st.mtext(l)
		// the goal field, and each step to take, is the work as a whole
		field := l.ptr == "/goal" || fieldOf(l.ptr) == "next_steps"
		for _, rd := range t.ReadGoal(now, meaning.Now, field) {
			g.all = append(g.all, found{l, rd})
			if rd.Verdict == meaning.Restates {
				g.stated = append(g.stated, found{l, rd})
			}
		}
		for _, rd := range t.ReadGoal(old, meaning.Replaced, field) {
			g.all = append(g.all, found{l, rd})
		}
	}
	return []result.CheckResult{g.outcome(r, inv, !st.sum.TextOnly())}
}

// goalReadings are what a summary says of a goal: every reading, and the
// clauses that state the current objective as the goal.
type goalReadings struct {
	all, stated []found
}

// outcome decides a goal from its readings; typed says whether the goal
// field is the record that must state it.
func (g goalReadings) outcome(r result.CheckResult, inv *scenarios.Goal, typed bool) result.CheckResult {
	what := fmt.Sprintf("the objective set at #%d", inv.SourceSeq)
	pattern := anyOf(inv.Match)
	inGoal := func(f found) bool { return f.l.ptr == "/goal" }
	if f, ok := strongestWhere(g.all, inGoal); ok && f.r.Verdict == meaning.Contradicts {
		return decide(r, result.Fail, result.DecidedTyped, fmt.Sprintf("the goal field contradicts %s: %s (%s)", what, clipQ(f.r.Text), f.r.Why),
			result.Evidence{Pointer: "/goal", Seq: inv.SourceSeq, Text: clip.String(f.l.text, clipLen), Pattern: pattern, Note: f.r.Why})
	}
	if f, ok := strongest(g.all); ok && f.r.Verdict == meaning.Contradicts {
		return readingOutcome(r, f, what, inv.SourceSeq, pattern)
	}
	if f, ok := strongestWhere(g.all, inGoal); typed && ok && f.r.Verdict == meaning.Unclear {
		return readingOutcome(r, f, what, inv.SourceSeq, pattern)
	}
	stated := slices.IndexFunc(g.stated, func(f found) bool { return !typed || inGoal(f) })
	if stated < 0 {
		return g.missing(r, inv, typed)
	}
	if f, ok := strongest(g.all); ok && f.r.Verdict == meaning.Unclear {
		return readingOutcome(r, f, what, inv.SourceSeq, pattern)
	}
	f := g.stated[stated]
	by := result.DecidedStatement
	if typed {
		by = result.DecidedTyped
	}
	return decide(r, result.Pass, by, fmt.Sprintf("%s stated as the goal at %s: %s", what, f.l.ptr, clipQ(f.r.Text)),
		result.Evidence{Pointer: f.l.ptr, Seq: inv.SourceSeq, Text: clip.String(f.r.Text, clipLen), Pattern: pattern})
}

// missing is the outcome when nothing states the current objective as the
// goal: on a structured summary the goal field, on a text-only one any
// clause.
func (g goalReadings) missing(r result.CheckResult, inv *scenarios.Goal, typed bool) result.CheckResult {
	ptr, by := "/text", result.DecidedStatement
	msg := fmt.Sprintf("no clause states the objective set at #%d (%s) as the work", inv.SourceSeq, anyOf(inv.Match))
	if typed {
		ptr, by = "/goal", result.DecidedTyped
		msg = fmt.Sprintf("the goal field does not state the objective set at #%d (%s)", inv.SourceSeq, anyOf(inv.Match))
	}
	ev := result.Evidence{Pointer: ptr, Seq: inv.SourceSeq, Pattern: anyOf(inv.Match)}
	if len(g.stated) > 0 {
		f := g.stated[0]
		ev.Note = fmt.Sprintf("stated only at %s (%s), not as the goal", f.l.ptr, clipQ(f.r.Text))
		msg += "; " + ev.Note
	}
	return decide(r, result.Fail, by, msg, ev)
}

// leavesUnder returns the leaves whose pointer starts with prefix.
func (st *state) leavesUnder(prefix string) []leaf {
	var out []leaf
	for _, l := range st.leaves {
		if strings.HasPrefix(l.ptr, prefix) {
			out = append(out, l)
		}
	}
	return out
}
