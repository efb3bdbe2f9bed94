package checks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Messages shared by every check.
const (
	msgNoSummary  = "no summary: the summarizer did not compact"
	msgNotDecoded = "summary is not a valid document"
	msgNoScenario = "no scenario given"
)

// structural starts a structural check: it returns the state, or the result
// to return when the summary is missing or unreadable.
func structural(in *Input, name string, needScenario bool) (*state, []result.CheckResult) {
	r := result.CheckResult{Check: name, Kind: result.KindStructural}
	if in.empty() {
		r.Status, r.Message = result.Skip, msgNoSummary
		return nil, []result.CheckResult{r}
	}
	st := in.state()
	if st.sum == nil {
		r.Status, r.Message = result.Error, msgNotDecoded
		return nil, []result.CheckResult{r}
	}
	if needScenario && in.Scenario == nil {
		r.Status, r.Message = result.Error, msgNoScenario
		return nil, []result.CheckResult{r}
	}
	return st, nil
}

// invariant starts an invariant check. seq is the event the invariant
// becomes true at (0: from the start); an invariant not yet in the covered
// history is skipped.
func invariant(in *Input, inv scenarios.Invariant, seq int) (*state, result.CheckResult, bool) {
	r := result.CheckResult{Check: inv.Type(), Kind: result.KindInvariant, Invariant: inv.InvariantID(), Pos: inv.Position()}
	if in.empty() {
		r.Status, r.Message = result.Skip, msgNoSummary
		return nil, r, false
	}
	st := in.state()
	if st.sum == nil {
		r.Status, r.Message = result.Error, msgNotDecoded
		return nil, r, false
	}
	if seq > 0 && in.Gen.Cut > 0 && seq > in.Gen.Cut {
		r.Status = result.Skip
		r.Message = fmt.Sprintf("not yet in the covered history (event #%d comes after the cut #%d)", seq, in.Gen.Cut)
		return nil, r, false
	}
	return st, r, true
}

// badPattern returns an error result when a scenario pattern does not
// compile (a scenario lint error; reported, never a panic).
// patternedInvariant is invariant for an invariant with patterns: ok is
// false when r is already the whole result (the invariant does not apply
// to this summary, or one of its patterns does not compile).
func patternedInvariant(in *Input, inv scenarios.Invariant, seq int, patterns ...[]string) (*state, result.CheckResult, bool) {
	st, r, ok := invariant(in, inv, seq)
	if !ok {
		return st, r, false
	}
	if r, bad := badPattern(r, patterns...); bad {
		return st, r, false
	}
	return st, r, true
}

func badPattern(r result.CheckResult, patterns ...[]string) (result.CheckResult, bool) {
	for _, ps := range patterns {
		for _, p := range ps {
			if _, err := textmatch.Compile(p); err != nil {
				r.Status, r.Message = result.Error, "scenario error: "+err.Error()
				return r, true
			}
		}
	}
	return r, false
}

func anyOf(patterns []string) string { return strings.Join(patterns, " | ") }

func fieldOf(ptr string) string {
	f := strings.TrimPrefix(ptr, "/")
	if i := strings.IndexByte(f, '/'); i >= 0 {
		f = f[:i]
	}
	return f
}

// plural returns "1 claim" / "2 claims".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// clipLen bounds text quoted in evidence.
const clipLen = 160

// describeEvent names an event's role for messages ("an assistant event").
func describeRole(r scenarios.Role) string {
	switch r {
	case scenarios.RoleAssistant:
		return "an assistant event"
	case scenarios.RoleUser:
		return "a user event"
	case scenarios.RoleSystem:
		return "a system event"
	case scenarios.RoleTool:
		return "a tool event"
	}
	return fmt.Sprintf("a %q event", r)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func foldText(s string) string { return textmatch.Fold(s) }

// nilInvariant is the result of an invariant check built without its
// invariant.
func nilInvariant(typ string) []result.CheckResult {
	return []result.CheckResult{{Check: typ, Kind: result.KindInvariant, Status: result.Error, Message: "no invariant given to the " + typ + " check"}}
}
