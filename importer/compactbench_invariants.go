package importer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

func (cv *cbConverter) id(base string) string {
	id := sanitize(base)
	if id == "" {
		id = "item"
	}
	id = fitID(id)
	final := id
	for k := 2; cv.ids[final]; k++ {
		final = fitID(fmt.Sprintf("%s-%d", id, k))
	}
	cv.ids[final] = true
	return final
}

// label splits "approach: use X" into ("approach", "use X").
func label(s string) (string, string) {
	if i := strings.Index(s, ": "); i > 0 && i < 40 && !strings.ContainsAny(s[:i], ".!?") {
		return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+2:])
	}
	return "", strings.TrimSpace(s)
}

// forbidden maps each forbidden behaviour: a value the user replaced by a
// locked decision becomes a correction; one the user forbade becomes a
// constraint; any other is left to the evaluation items, with a note.
func (cv *cbConverter) forbidden() {
	user := []scenarios.Role{scenarios.RoleUser, scenarios.RoleSystem}
	for _, f := range cv.c.GroundTruth.ForbiddenBehaviors {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		phrase := strictPattern(f)
		first, oldText := cv.find(phrase, 0, cv.cut)
		if first < 0 {
			phrase = loosePattern(f)
			first, oldText = cv.find(phrase, 0, cv.cut)
		}
		if first < 0 {
			cv.note("forbidden behaviour %q: the compacted turns never state it, so it is no invariant", f)
			continue
		}
		// A later user turn that overrides it with a locked decision.
		if cv.correction(f, first, oldText) {
			continue
		}
		pat := prohibition(phrase)
		if i, _ := cv.find(pat, 0, cv.cut, user...); i >= 0 {
			cv.constrained[fold(f)] = pat
			cv.keep[i] = true
			cv.invs = append(cv.invs, withComment(mapping(
				"id", str(cv.id("forbidden-"+firstWords(f, 6))),
				"type", str(result.TypeConstraint),
				"source_seq", intNode(i+1),
				"match", flowSeq(str(pat)),
			), fmt.Sprintf("forbidden behaviour %q, forbidden at seq %d", f, i+1)))
			continue
		}
		cv.note("forbidden behaviour %q: no user turn before the cut forbids it in words (it is mentioned at seq %d), so it is no invariant", f, first+1)
	}
}

// correction makes a correction when a user turn after the first mention
// of the forbidden value f states a locked decision as its replacement.
func (cv *cbConverter) correction(f string, first int, oldText string) bool {
	for _, d := range cv.c.GroundTruth.LockedDecisions {
		subject, val := label(d)
		if val == "" {
			continue
		}
		p := strictPattern(val)
		if i, _ := cv.find(p, first+1, cv.cut); i < 0 {
			p = loosePattern(val)
		}
		for j := first + 1; j < cv.cut; j++ {
			if cv.events[j].Role != scenarios.RoleUser || !cv.overrides(j) {
				continue
			}
			m, ok := cv.match(p, cv.folded[j])
			if !ok {
				continue
			}
			if _, again := cv.match(p, cv.folded[first]); again {
				continue // the decision was stated with the old value: no override
			}
			if subject == "" {
				subject = "the plan"
			}
			cv.corrected[fold(f)] = m
			cv.keep[j] = true
			cv.invs = append(cv.invs, withComment(mapping(
				"id", str(cv.id("override-"+firstWords(val, 6))),
				"type", str(result.TypeCorrection),
				"subject", str(subject),
				"old", str(oldText),
				"new", str(m),
				"source_seq", intNode(j+1),
			), fmt.Sprintf("locked decision %q overrides forbidden behaviour %q (seq %d replaces seq %d)", d, f, j+1, first+1)))
			return true
		}
	}
	return false
}

func firstWords(s string, n int) string {
	ws := wordRE.FindAllString(fold(s), -1)
	if len(ws) > n {
		ws = ws[:n]
	}
	return strings.Join(ws, "-")
}

func (cv *cbConverter) note(format string, args ...any) {
	cv.notes = append(cv.notes, fmt.Sprintf(format, args...))
}

// itemValues returns the values an item's check compares with.
func itemValues(it cbItem) []string {
	var out []string
	if v, ok := it.Expected["value"]; ok {
		var s string
		if json.Unmarshal(v, &s) == nil && strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	if v, ok := it.Expected["values"]; ok {
		var ss []string
		if json.Unmarshal(v, &ss) == nil {
			for _, s := range ss {
				if strings.TrimSpace(s) != "" {
					out = append(out, s)
				}
			}
		}
	}
	return out
}
