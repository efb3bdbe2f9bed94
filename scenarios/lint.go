package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// Lint checks what loading cannot see on one part alone: how the parts of
// each scenario refer to each other, and ids across the suite. It returns
// every problem, sorted (nil when none). The rules:
//
//   - ids are unique across the suite (the error is at the second one and
//     names the first file) and have the form [a-z0-9][a-z0-9-]*; version
//     is 1;
//   - seqs rise strictly, arrivals come after the last event;
//   - every tool_result names a tool_call made by an earlier event; a call
//     has at most one result; call ids are unique;
//   - invariant seqs point at events of the right role: a constraint's or
//     correction's source_seq at a user or system event; a refuted
//     hypothesis's hypothesis_seq at any event and refuted_by_seq at a
//     later user or tool event; a pending operation's call_seq at the
//     assistant tool_call whose id is op_id, a call with no result or a
//     timeout result;
//   - an artifact's required and digests name paths among its paths, and
//     every required path occurs verbatim in some event; a secret's value
//     occurs in some event;
//   - an approval's source_seq is a user or system event that names its
//     approver (or one before it does), its scope and its expiry, its
//     resource occurs at or before it, and invalidated_by is a later
//     event; a goal's and a next step's source_seq is a user or system
//     event; a handoff's session and artifacts occur in some event, and
//     its operations are calls made at or before its source_seq with no
//     result or a timeout;
//   - every pattern compiles (RE2, see internal/textmatch);
//   - a probe's expect and requires keys are among its options;
//   - explicit cuts rise strictly, lie in 1..last seq, and split no
//     protocol unit (a call at or before the cut whose result comes after
//     it); rebuild, max_ratio and threshold_fraction have valid values;
//   - recorded compactions' boundaries are events, rise strictly and
//     split no protocol unit (they are the scenario's cuts).
//
// The reference agent's self-consistency check lives in
// agents.CheckProbes (this package does not know about agents).
func Lint(list []*Scenario) ErrorList {
	var errs ErrorList
	first := map[string]*Scenario{}
	for _, s := range list {
		errs = append(errs, LintScenario(s)...)
		if s.ID == "" {
			continue
		}
		if f, dup := first[s.ID]; dup {
			errs.add(s.File, s.IDPos, "id %q is already used by %s", s.ID, f.File)
			continue
		}
		first[s.ID] = s
	}
	errs.Sort()
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// LintScenario applies Lint's per-scenario rules to s.
func LintScenario(s *Scenario) ErrorList {
	l := &linter{s: s}
	l.header()
	l.numbering()
	l.protocol()
	l.invariants()
	l.probes()
	l.compaction()
	l.recorded()
	l.errs.Sort()
	if len(l.errs) == 0 {
		return nil
	}
	return l.errs
}

type linter struct {
	s    *Scenario
	errs ErrorList
	// calls maps a call id to the seq of its call; results a call id to
	// its first result (arrivals included).
	calls   map[string]int // call id → seq of the call
	results map[string]callResult
}

func (l *linter) errorf(p result.Pos, format string, args ...any) {
	l.errs.add(l.s.File, p, format, args...)
}

func (l *linter) header() {
	s := l.s
	if !idRE.MatchString(s.ID) {
		l.errorf(s.IDPos, "id %q: want lowercase letters, digits and '-', starting with a letter or digit", s.ID)
	}
	if s.Version != Version {
		l.errorf(s.Pos, "version %d is not supported (this compact-eval reads version %d)", s.Version, Version)
	}
	if len(s.Events) == 0 {
		l.errorf(s.Pos, "no events")
	}
}

func (l *linter) numbering() {
	s := l.s
	last := 0
	for _, e := range s.Events {
		if e.Seq <= last {
			l.errorf(e.Pos, "seq %d must be greater than %d, the seq before it", e.Seq, last)
		}
		last = max(last, e.Seq)
	}
	for _, e := range s.Arrivals {
		if e.Seq <= last {
			l.errorf(e.Pos, "arrival seq %d must be greater than %d (arrivals come after the last event)", e.Seq, last)
		}
		last = max(last, e.Seq)
	}
}

// callResult is the first result of a call.
type callResult struct {
	seq    int
	status string
}

func (l *linter) protocol() {
	l.calls = make(map[string]int, len(l.s.Events)/4)
	l.results = make(map[string]callResult, len(l.s.Events)/4)
	for _, list := range [][]Event{l.s.Events, l.s.Arrivals} {
		for i := range list {
			e := &list[i]
			if c := e.ToolCall; c != nil {
				if prev, dup := l.calls[c.ID]; dup {
					l.errorf(e.Pos, "seq %d: tool_call id %q is already used at seq %d", e.Seq, c.ID, prev)
				} else {
					l.calls[c.ID] = e.Seq
				}
			}
			if r := e.ToolResult; r != nil {
				call, ok := l.calls[r.CallID]
				first, done := l.results[r.CallID]
				switch {
				case !ok:
					l.errorf(e.Pos, "seq %d: tool_result names call %q, which no earlier event makes", e.Seq, r.CallID)
				case done:
					l.errorf(e.Pos, "seq %d: call %q (seq %d) already has a result at seq %d; a call has at most one result", e.Seq, r.CallID, call, first.seq)
				default:
					l.results[r.CallID] = callResult{seq: e.Seq, status: r.Status}
				}
			}
		}
	}
}

// occurs reports whether text occurs verbatim in some event or arrival:
// its text, its tool call's name or arguments, or its tool result.
func (l *linter) occurs(text string) bool {
	for _, list := range [][]Event{l.s.Events, l.s.Arrivals} {
		for _, e := range list {
			if strings.Contains(e.Text, text) {
				return true
			}
			if r := e.ToolResult; r != nil && strings.Contains(r.Text, text) {
				return true
			}
			if c := e.ToolCall; c != nil && (strings.Contains(c.Name, text) || argsContain(c.Args, text)) {
				return true
			}
		}
	}
	return false
}

// argsContain reports whether text occurs in a key or value of tool
// arguments, nested ones included.
func argsContain(v any, text string) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if strings.Contains(k, text) || argsContain(e, text) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if argsContain(e, text) {
				return true
			}
		}
	case string:
		return strings.Contains(x, text)
	case nil:
	default:
		return strings.Contains(fmt.Sprint(x), text)
	}
	return false
}

// event finds the event with seq among events and arrivals.
func (l *linter) event(seq int) (Event, bool) { return l.s.EventBySeq(seq) }

func (l *linter) patterns(p result.Pos, what string, ps []string) {
	for _, pat := range ps {
		if _, err := textmatch.Compile(pat); err != nil {
			l.errorf(p, "%s: %v", what, err)
		}
	}
}

func (l *linter) roleAt(p result.Pos, what string, seq int, roles ...Role) (Event, bool) {
	e, ok := l.event(seq)
	if !ok {
		l.errorf(p, "%s %d: no event has this seq", what, seq)
		return e, false
	}
	if len(roles) > 0 && !slices.Contains(roles, e.Role) {
		names := make([]string, len(roles))
		for i, r := range roles {
			names[i] = string(r)
		}
		l.errorf(p, "%s %d is %s %s event; it must be %s %s event", what, seq, article(string(e.Role)), e.Role, article(names[0]), strings.Join(names, " or "))
		return e, false
	}
	return e, true
}

func (l *linter) invariants() {
	for _, inv := range l.s.Invariants {
		p := inv.Position()
		what := fmt.Sprintf("invariant %q (%s)", inv.InvariantID(), inv.Type())
		switch v := Pointer(inv).(type) {
		case *Constraint:
			if e, ok := l.roleAt(p, what+": source_seq", v.SourceSeq, RoleUser, RoleSystem); ok {
				l.targets(p, what, e, v.Target)
			}
			l.patterns(p, what+": match", v.Match)
		case *Correction:
			// A tool's error corrects a value too ("no such file" and the
			// retry with the right path).
			l.roleAt(p, what+": source_seq", v.SourceSeq, RoleUser, RoleSystem, RoleTool)
		case *RefutedHypothesis:
			l.roleAt(p, what+": hypothesis_seq", v.HypothesisSeq)
			if _, ok := l.roleAt(p, what+": refuted_by_seq", v.RefutedBySeq, RoleUser, RoleTool); ok && v.RefutedBySeq <= v.HypothesisSeq {
				l.errorf(p, "%s: refuted_by_seq %d must come after hypothesis_seq %d", what, v.RefutedBySeq, v.HypothesisSeq)
			}
			l.patterns(p, what+": match", v.Match)
			l.patterns(p, what+": conclusion", v.Conclusion)
		case *PendingOperation:
			e, ok := l.roleAt(p, what+": call_seq", v.CallSeq, RoleAssistant)
			if !ok {
				break
			}
			switch {
			case e.ToolCall == nil:
				l.errorf(p, "%s: call_seq %d has no tool_call", what, v.CallSeq)
			case e.ToolCall.ID != v.OpID:
				l.errorf(p, "%s: the tool_call at seq %d has id %q, not op_id %q", what, v.CallSeq, e.ToolCall.ID, v.OpID)
			default:
				if r, ok := l.results[v.OpID]; ok && r.status != StatusTimeout && r.seq <= l.s.LastSeq() {
					l.errorf(p, "%s: call %q has %s %s result at seq %d; a pending operation has no result or a timeout", what, v.OpID, article(r.status), r.status, r.seq)
				}
			}
		case *Artifact:
			if len(v.Paths) == 0 {
				l.errorf(p, "%s: paths is empty", what)
			}
			for _, r := range v.Required {
				if !slices.Contains(v.Paths, r) {
					l.errorf(p, "%s: required path %q is not among paths", what, r)
				}
				if !l.occurs(r) {
					l.errorf(p, "%s: required path %q occurs in no event", what, r)
				}
			}
			for _, k := range sortedKeys(v.Digests) {
				if !slices.Contains(v.Paths, k) {
					l.errorf(p, "%s: digest for %q, which is not among paths", what, k)
				}
			}
		case *Quantity:
			l.patterns(p, what+": match", v.Match)
			if strings.TrimSpace(v.Unit) == "" {
				l.errorf(p, "%s: unit is empty", what)
			}
		case *Secret:
			if v.Value == "" {
				l.errorf(p, "%s: value is empty", what)
			} else if !l.occurs(v.Value) {
				l.errorf(p, "%s: the secret value occurs in no event", what)
			}
		default:
			l.typedState(p, what, inv)
		}
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (l *linter) probes() {
	for _, p := range l.s.Probes {
		if p.FreeText() {
			for _, r := range p.Requires {
				pos := r.Pos
				if pos.Line == 0 {
					pos = p.Pos
				}
				l.patterns(pos, fmt.Sprintf("probe %q: requires", p.ID), r.Patterns)
			}
			continue
		}
		keys := make([]string, len(p.Options))
		for i, o := range p.Options {
			keys[i] = o.Key
		}
		valid := strings.Join(keys, ", ")
		if !slices.Contains(keys, p.Expect) {
			l.errorf(p.Pos, "probe %q: expect %q is not an option (valid: %s)", p.ID, p.Expect, valid)
		}
		for _, r := range p.Requires {
			pos := r.Pos
			if pos.Line == 0 {
				pos = p.Pos
			}
			if !slices.Contains(keys, r.Option) {
				l.errorf(pos, "probe %q: requires names %q, which is not an option (valid: %s)", p.ID, r.Option, valid)
			}
			l.patterns(pos, fmt.Sprintf("probe %q: requires.%s", p.ID, r.Option), r.Patterns)
		}
	}
}

func (l *linter) compaction() {
	c := l.s.Compaction
	if c.Pos.Line == 0 {
		c.Pos = l.s.Pos
	}
	last := l.s.LastSeq()
	prev := 0
	cuts := c.At
	if c.FromRecorded {
		cuts = nil // the recorded boundaries, which recorded() checks
	}
	for i, cut := range cuts {
		p := c.Pos
		if i < len(c.AtPos) {
			p = c.AtPos[i]
		}
		switch {
		case cut < 1 || cut > last:
			l.errorf(p, "compaction.at: cut %d is outside the events (1..%d)", cut, last)
		case cut <= prev:
			l.errorf(p, "compaction.at: cut %d must be greater than the cut before it, %d", cut, prev)
		default:
			for id, r := range l.results {
				if call := l.calls[id]; call <= cut && r.seq > cut && r.seq <= last {
					l.errorf(p, "compaction.at: cut %d splits a protocol unit: call %q at seq %d has its result at seq %d", cut, id, call, r.seq)
				}
			}
		}
		prev = max(prev, cut)
	}
	if r := c.Rebuild; r != "" && r != RebuildIterative && r != RebuildFromSource {
		l.errorf(c.Pos, "compaction.rebuild: %q is not a rebuild mode (valid: %s, %s)", r, RebuildIterative, RebuildFromSource)
	}
	if c.MaxRatio < 0 || c.MaxRatio > 1 {
		l.errorf(c.Pos, "compaction.max_ratio: %g is not in (0, 1]", c.MaxRatio)
	}
	if c.ThresholdFraction < 0 || c.ThresholdFraction > 1 {
		l.errorf(c.Pos, "compaction.threshold_fraction: %g is not in (0, 1]", c.ThresholdFraction)
	}
}

func article(word string) string {
	if word != "" && word != "user" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// targets checks that the event stating a rule names each of its targets,
// as a whole word: a target the rule's own words do not hold is a typo or
// another rule.
func (l *linter) targets(p result.Pos, what string, e Event, targets []string) {
	low := strings.ToLower(textmatch.Fold(e.Text))
	for _, t := range targets {
		if !textmatch.ContainsWord(low, strings.ToLower(textmatch.Fold(t))) {
			l.errorf(p, "%s: target %q: the event at source_seq %d does not name it", what, t, e.Seq)
		}
	}
}
