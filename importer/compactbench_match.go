package importer

import (
	"regexp"
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// match is textmatch.Find on folded text, with the case's own cache.
func (cv *cbConverter) match(pattern, folded string) (string, bool) {
	re, ok := cv.res[pattern]
	if !ok {
		var err error
		if re, err = regexp.Compile("(?i)" + pattern); err != nil {
			re = nil
		}
		cv.res[pattern] = re
	}
	if re == nil {
		return "", false
	}
	loc := re.FindStringIndex(folded)
	if loc == nil {
		return "", false
	}
	return folded[loc[0]:loc[1]], true
}

// fold is how every comparison reads text: accents and whitespace runs
// folded, lower case.
func fold(s string) string { return strings.ToLower(textmatch.Fold(s)) }

var wordRE = lazyre.New(`[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*`)

// strictPattern matches s's words in order with only punctuation and
// spaces between them: an evaluation item's value is a substitution that
// the transcript states verbatim.
func strictPattern(s string) string { return joinWords(s, `\W+`) }

// loosePattern lets up to two words stand between s's words: ground truth
// restates the transcript ("route X through B" for "route the X through B").
func loosePattern(s string) string { return joinWords(s, `\W+(?:\w+\W+){0,2}`) }

func joinWords(s, sep string) string {
	ws := wordRE.FindAllString(fold(s), -1)
	if len(ws) == 0 {
		return ""
	}
	first, last := ws[0], ws[len(ws)-1]
	for i, w := range ws {
		ws[i] = regexp.QuoteMeta(strings.ReplaceAll(w, "’", "'"))
	}
	// RE2's \b and \w know ASCII only: a boundary next to a letter such as
	// "д" would never match, so it is asserted only beside ASCII.
	p := strings.Join(ws, sep)
	if asciiWord(first[0]) {
		p = `\b` + p
	}
	if asciiWord(last[len(last)-1]) {
		p += `\b`
	}
	return p
}

func asciiWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// prohibition is the pattern of a phrase stated as forbidden.
func prohibition(phrase string) string {
	if phrase == "" {
		return ""
	}
	return cueBefore + phrase + "|" + phrase + cueAfter
}

// overrideRE marks a turn that replaces an earlier plan.
var overrideRE = lazyre.New(`\b(?:actually|scratch that|instead|ignore (?:the|that|everything|what)|change of plan|new plan|total reset|reset|swap|switch|replace|replaces|replaced|supersedes?|override|overrides|forget (?:the|that|it|what)|off the table|no longer)\b`)

// find returns the first event in [from, to) whose text the pattern
// matches, and the match.
func (cv *cbConverter) find(pattern string, from, to int, roles ...scenarios.Role) (int, string) {
	if pattern == "" {
		return -1, ""
	}
	for i := from; i < to && i < len(cv.events); i++ {
		if len(roles) > 0 && !hasRole(roles, cv.events[i].Role) {
			continue
		}
		if m, ok := cv.match(pattern, cv.folded[i]); ok {
			return i, m
		}
	}
	return -1, ""
}

func hasRole(roles []scenarios.Role, r scenarios.Role) bool {
	for _, x := range roles {
		if x == r {
			return true
		}
	}
	return false
}

func (cv *cbConverter) overrides(i int) bool {
	for _, t := range cv.tags[i] {
		t = strings.ToLower(t)
		if strings.Contains(t, "override") || strings.Contains(t, "reset") || strings.Contains(t, "correction") {
			return true
		}
	}
	return overrideRE.MatchString(cv.folded[i])
}

// evidence is the pattern a faithful context matches for value v, and the
// event where the transcript states it: v's words (with the prohibition
// when v is a forbidden behaviour, since "never X" does not affirm X).
// tail reports a value found only after the cut.
func (cv *cbConverter) evidence(v string, loose bool) (pat string, at int, tail bool) {
	return cv.evidenceIn(v, loose, false)
}

// evidenceIn is evidence; clean skips the turns that state a value a
// correction replaced, whose sentences no faithful summary can quote as
// current (for the probes made from ground truth).
func (cv *cbConverter) evidenceIn(v string, loose, clean bool) (pat string, at int, tail bool) {
	if p, ok := cv.constrained[fold(v)]; ok {
		i, _ := cv.find(p, 0, cv.cut)
		return p, i, false
	}
	p := strictPattern(v)
	i := cv.findClean(p, clean)
	if i < 0 && loose {
		p = loosePattern(v)
		i = cv.findClean(p, clean)
	}
	if i < 0 {
		if j, _ := cv.find(p, cv.cut, len(cv.events)); j >= 0 {
			return p, j, true
		}
		return "", -1, false
	}
	// "Absolutely never X": the match must carry the prohibition, which
	// the reference agent would otherwise read as negating X.
	if neg := prohibition(p); neg != "" {
		if _, ok := cv.match(neg, cv.folded[i]); ok {
			return neg, i, false
		}
	}
	return p, i, false
}

// findClean is find over the compacted turns, skipping with clean those
// that state a replaced value.
func (cv *cbConverter) findClean(p string, clean bool) int {
	for from := 0; from < cv.cut; {
		i, _ := cv.find(p, from, cv.cut)
		if i < 0 || !clean || !cv.statesOld(i) {
			return i
		}
		from = i + 1
	}
	return -1
}

func (cv *cbConverter) statesOld(i int) bool {
	for old := range cv.corrected {
		if strings.Contains(cv.folded[i], old) {
			return true
		}
	}
	return false
}

// confusable picks a wrong answer for value v from the case itself: the
// value a correction replaced, another entity, another item's value.
func (cv *cbConverter) confusable(v string, exclude ...string) string {
	fv := fold(v)
	bad := func(c string) bool {
		fc := fold(c)
		if fc == "" || strings.Contains(fc, fv) || strings.Contains(fv, fc) {
			return true
		}
		for _, e := range exclude {
			if fe := fold(e); fe != "" && (strings.Contains(fe, fc) || strings.Contains(fc, fe)) {
				return true
			}
		}
		return false
	}
	for old, nv := range cv.corrected {
		if strings.Contains(fold(nv), fv) || strings.Contains(fv, fold(nv)) {
			if !bad(old) {
				return old
			}
		}
	}
	if cv.isEntity(v) {
		for _, e := range cv.c.GroundTruth.entities {
			if !bad(e.name) {
				return e.name
			}
		}
		return ""
	}
	for _, o := range cv.values {
		if !bad(o) && !cv.isEntity(o) {
			if p, _, _ := cv.evidence(o, false); p != "" {
				return o
			}
		}
	}
	return ""
}

func (cv *cbConverter) isEntity(v string) bool {
	for _, e := range cv.c.GroundTruth.entities {
		if fold(e.name) == fold(v) {
			return true
		}
	}
	return false
}

// Prohibition cues around a forbidden behaviour: before it ("never X",
// "do not X") or after it ("X is off the table").
const (
	cueBefore = `\b(?:never|not|no|don't|dont|must not|mustn't|cannot|can't|avoid|forbid|forbidden|prohibit|prohibited|ban|banned)\W+(?:\w+\W+){0,3}?`
	cueAfter  = `\W+(?:\w+\W+){0,3}?(?:is |are )?(?:forbidden|prohibited|banned|not allowed|off the table|off[- ]limits|out of the question|a hard red line|ruled out)\b`
)
