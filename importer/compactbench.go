package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/compact-eval/compact-eval/result"

	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// A CompactBench case (a generated case as `compactbench generate` writes
// it): the transcript, the ground truth the compactor must keep and the
// evaluation items asked after compaction. docs/compactbench.md says how
// each part becomes part of a scenario and what does not map.
type cbCase struct {
	CaseID          string          `json:"case_id"`
	TemplateKey     string          `json:"template_key"`
	TemplateVersion string          `json:"template_version"`
	Seed            json.Number     `json:"seed"`
	Difficulty      string          `json:"difficulty"`
	Transcript      *cbTranscript   `json:"transcript"`
	GroundTruth     cbTruth         `json:"ground_truth"`
	Items           []cbItem        `json:"evaluation_items"`
	raw             json.RawMessage // for the entity map's order
}

type cbTranscript struct {
	Turns []cbTurn `json:"turns"`
}

type cbTurn struct {
	Role    string   `json:"role"`
	Content string   `json:"content"`
	Tags    []string `json:"tags"`
}

type cbTruth struct {
	ImmutableFacts     []string `json:"immutable_facts"`
	LockedDecisions    []string `json:"locked_decisions"`
	ForbiddenBehaviors []string `json:"forbidden_behaviors"`
	ForbiddenBritish   []string `json:"forbidden_behaviours"`
	UnresolvedItems    []string `json:"unresolved_items"`
	DeferredItems      []string `json:"deferred_items"`
	entities           []cbEntity
}

type cbEntity struct{ name, role string }

type cbItem struct {
	Key      string                     `json:"key"`
	ItemType string                     `json:"item_type"`
	Type     string                     `json:"type"`
	Prompt   string                     `json:"prompt"`
	Expected map[string]json.RawMessage `json:"expected"`
}

// isCompactBenchCase reports whether a decoded object looks like a case:
// a transcript with turns, and ground truth or evaluation items.
// The prefix is the path of the case in the shape ("" for the document,
// "/*" for the elements of an array).
func isCompactBenchCase(sh shape, prefix string) bool {
	top := sh[prefix]
	if top == nil {
		return false
	}
	_, gt := top["ground_truth"]
	_, items := top["evaluation_items"]
	_, turns := sh[prefix+"/transcript"]["turns"]
	return turns && (gt || items)
}

// parseCase decodes one case.
func parseCase(raw json.RawMessage) (*cbCase, error) {
	var c cbCase
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&c); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			return nil, fmt.Errorf("not a CompactBench case: %s is a %s, want a %s", ute.Field, ute.Value, ute.Type)
		}
		return nil, fmt.Errorf("not a CompactBench case: %v", err)
	}
	if c.Transcript == nil || len(c.Transcript.Turns) == 0 {
		return nil, errors.New("not a CompactBench case: no transcript.turns")
	}
	c.GroundTruth.ForbiddenBehaviors = append(c.GroundTruth.ForbiddenBehaviors, c.GroundTruth.ForbiddenBritish...)
	ents, err := entityMap(raw)
	if err != nil {
		return nil, err
	}
	c.GroundTruth.entities = ents
	c.raw = raw
	return &c, nil
}

// entityMap reads ground_truth.entity_map in file order.
func entityMap(raw json.RawMessage) ([]cbEntity, error) {
	gt, err := resolvePointer(raw, []string{"ground_truth"})
	if err != nil {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(gt, &obj) != nil {
		return nil, nil
	}
	em, ok := obj["entity_map"]
	if !ok || string(bytes.TrimSpace(em)) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(em))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("ground_truth.entity_map: want an object of names to roles")
	}
	var out []cbEntity
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("ground_truth.entity_map: %v", err)
		}
		var role string
		if err := dec.Decode(&role); err != nil {
			return nil, fmt.Errorf("ground_truth.entity_map[%q]: want a string role", kt)
		}
		out = append(out, cbEntity{name: kt.(string), role: role})
	}
	return out, nil
}

// cbConverter turns one case into a scenario.
type cbConverter struct {
	c      *cbCase
	events []scenarios.Event
	folded []string // folded, lower-cased event texts
	tags   [][]string
	cut    int // events 1..cut are compacted; the final question stays after it
	warns  []string
	notes  []string // comments written at the top of the scenario
	invs   []*yaml.Node
	probes []*yaml.Node
	ids    map[string]bool
	// evidence turns (0-based) a faithful summary must keep, for max_ratio
	keep map[int]bool
	// corrections made: old value (folded) -> new value
	corrected map[string]string
	// forbidden behaviours kept as constraints: folded phrase -> pattern
	constrained map[string]string
	values      []string // every item value, for confusables and coverage
	// res caches this case's compiled patterns. (textmatch's cache is
	// process-wide and unbounded: a suite of thousands of cases, each with
	// its own values, would keep every pattern of every case.)
	res map[string]*regexp.Regexp
}

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

func newCase(raw json.RawMessage) (*cbConverter, error) {
	c, err := parseCase(raw)
	if err != nil {
		return nil, err
	}
	cv := &cbConverter{c: c, ids: map[string]bool{}, res: map[string]*regexp.Regexp{}, keep: map[int]bool{}, corrected: map[string]string{}, constrained: map[string]string{}}
	if err := cv.convert(); err != nil {
		return nil, err
	}
	return cv, nil
}

func (cv *cbConverter) convert() error {
	empty := 0
	for i, t := range cv.c.Transcript.Turns {
		var role scenarios.Role
		switch strings.ToLower(strings.TrimSpace(t.Role)) {
		case "user":
			role = scenarios.RoleUser
		case "assistant":
			role = scenarios.RoleAssistant
		case "system":
			role = scenarios.RoleSystem
		default:
			return fmt.Errorf("transcript.turns[%d]: role %q is not user, assistant or system", i, t.Role)
		}
		if strings.TrimSpace(t.Content) == "" {
			empty++
			continue
		}
		cv.events = append(cv.events, scenarios.Event{Seq: len(cv.events) + 1, Role: role, Text: t.Content})
		cv.folded = append(cv.folded, fold(t.Content))
		cv.tags = append(cv.tags, t.Tags)
	}
	if empty > 0 {
		cv.warns = append(cv.warns, fmt.Sprintf("empty turns dropped: %d", empty))
	}
	// The cut: everything before the final user turn (the question the
	// case ends on), which stays in the tail as it does in CompactBench,
	// where the model answers after the compacted artifact.
	last := -1
	for i := len(cv.events) - 1; i >= 0; i-- {
		if cv.events[i].Role == scenarios.RoleUser {
			last = i
			break
		}
	}
	switch {
	case last > 0:
		cv.cut = last
	case len(cv.events) > 1:
		cv.cut = len(cv.events) - 1
	default:
		return errors.New("the transcript has nothing to compact before its final question")
	}
	for _, it := range cv.c.Items {
		cv.values = append(cv.values, itemValues(it)...)
	}
	cv.forbidden()
	cv.itemProbes()
	cv.truthProbes()
	return nil
}

// fold is how every comparison reads text: accents and whitespace runs
// folded, lower case.
func fold(s string) string { return strings.ToLower(textmatch.Fold(s)) }

var wordRE = lazyRE(`[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*`)

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

// Prohibition cues around a forbidden behaviour: before it ("never X",
// "do not X") or after it ("X is off the table").
const (
	cueBefore = `\b(?:never|not|no|don't|dont|must not|mustn't|cannot|can't|avoid|forbid|forbidden|prohibit|prohibited|ban|banned)\W+(?:\w+\W+){0,3}?`
	cueAfter  = `\W+(?:\w+\W+){0,3}?(?:is |are )?(?:forbidden|prohibited|banned|not allowed|off the table|off[- ]limits|out of the question|a hard red line|ruled out)\b`
)

// prohibition is the pattern of a phrase stated as forbidden.
func prohibition(phrase string) string {
	if phrase == "" {
		return ""
	}
	return cueBefore + phrase + "|" + phrase + cueAfter
}

// overrideRE marks a turn that replaces an earlier plan.
var overrideRE = lazyRE(`\b(?:actually|scratch that|instead|ignore (?:the|that|everything|what)|change of plan|new plan|total reset|reset|swap|switch|replace|replaces|replaced|supersedes?|override|overrides|forget (?:the|that|it|what)|off the table|no longer)\b`)

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

const unknownOption = "The conversation does not say."

// itemProbes turns each evaluation item into a probe.
func (cv *cbConverter) itemProbes() {
	for _, it := range cv.c.Items {
		check := ""
		if v, ok := it.Expected["check"]; ok {
			json.Unmarshal(v, &check)
		}
		vals := itemValues(it)
		kind := it.ItemType
		if kind == "" {
			kind = it.Type
		}
		why := fmt.Sprintf("evaluation item %s (%s, %s)", it.Key, kind, check)
		if strings.TrimSpace(it.Prompt) == "" {
			cv.note("%s: no prompt, no probe", why)
			continue
		}
		switch check {
		case "contains_normalized", "exact":
			if len(vals) != 1 {
				cv.note("%s: no value to compare with, no probe", why)
				continue
			}
			cv.answerProbe(it, why, vals[0])
		case "set_match":
			if len(vals) == 0 {
				cv.note("%s: no values, no probe", why)
				continue
			}
			cv.setProbe(it, why, vals)
		case "forbidden_absent":
			if len(vals) != 1 {
				cv.note("%s: no value to compare with, no probe", why)
				continue
			}
			cv.avoidProbe(it, why, vals[0])
		default:
			cv.note("%s: unknown check %q, no probe", why, check)
			cv.warns = append(cv.warns, fmt.Sprintf("evaluation item %s: unknown check %q (skipped)", it.Key, check))
		}
	}
}

type option struct {
	key, text string
	requires  []string
}

func (cv *cbConverter) probe(id, question, why string, opts []option, expect string) {
	o := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	req := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, op := range opts {
		o.Content = append(o.Content, str(op.key), str(op.text))
		if len(op.requires) > 0 {
			ps := make([]*yaml.Node, len(op.requires))
			for i, p := range op.requires {
				ps[i] = str(p)
			}
			req.Content = append(req.Content, str(op.key), flowSeq(ps...))
		}
	}
	cv.probes = append(cv.probes, withComment(mapping(
		"id", str(cv.id(id)),
		"question", str(question),
		"options", o,
		"expect", str(expect),
		"requires", req,
	), why))
}

// answerProbe: the right answer needs the value's evidence; a confusable
// value from the case (when there is one) needs its own; an agent that
// has neither says the conversation does not say.
func (cv *cbConverter) answerProbe(it cbItem, why, v string) {
	pat, at, tail := cv.evidence(v, false)
	if pat == "" {
		cv.note("%s: the transcript never states %q, no probe", why, v)
		return
	}
	cv.markKeep(at, tail, why, v)
	opts := []option{{key: "answer", text: v, requires: []string{pat}}}
	if c := cv.confusable(v, it.Prompt); c != "" {
		if cp, _, _ := cv.evidence(c, false); cp != "" {
			opts = append(opts, option{key: "confused", text: c, requires: []string{cp}})
		}
	}
	opts = append(opts, option{key: "unknown", text: unknownOption})
	cv.probe(it.Key, it.Prompt, why+fmt.Sprintf(": the answer must contain %q", v), opts, "answer")
}

func (cv *cbConverter) markKeep(at int, tail bool, why, v string) {
	if tail {
		cv.warns = append(cv.warns, fmt.Sprintf("%s: %q is stated only after the cut, which is never compacted: the probe cannot regress", why, v))
		return
	}
	cv.keep[at] = true
	if p, _, _ := cv.evidence(v, false); p != "" {
		if j, _ := cv.find(p, cv.cut, len(cv.events)); j >= 0 {
			cv.warns = append(cv.warns, fmt.Sprintf("%s: %q is also stated after the cut (seq %d), which is never compacted: the probe cannot regress", why, v, j+1))
		}
	}
}

func (cv *cbConverter) setProbe(it cbItem, why string, vals []string) {
	var reqs []string
	for _, v := range vals {
		pat, at, tail := cv.evidence(v, false)
		if pat == "" {
			cv.note("%s: the transcript never states %q, no probe", why, v)
			return
		}
		cv.markKeep(at, tail, why, v)
		reqs = append(reqs, pat)
	}
	opts := []option{{key: "all", text: strings.Join(vals, "; "), requires: reqs}}
	if len(vals) > 1 {
		opts = append(opts, option{key: "partial", text: strings.Join(vals[:len(vals)-1], "; "), requires: reqs[:len(reqs)-1]})
	}
	opts = append(opts, option{key: "unknown", text: unknownOption})
	cv.probe(it.Key, it.Prompt, why+fmt.Sprintf(": the answer must name all of %q", vals), opts, "all")
}

// avoidProbe: the answer must not contain f. The agent avoids it when it
// knows why: the decision that replaced it, the rule that forbids it, or
// the fact that ties it to someone else; an agent that knows none of that
// goes ahead with it.
func (cv *cbConverter) avoidProbe(it cbItem, why, f string) {
	ff := fold(f)
	var req string
	at := -1
	for old, nv := range cv.corrected {
		if strings.Contains(old, ff) || strings.Contains(ff, old) {
			req, at, _ = cv.evidence(nv, false)
			if req != "" {
				why += fmt.Sprintf(": %q was replaced by %q", f, nv)
			}
			break
		}
	}
	if req == "" {
		for fb, p := range cv.constrained {
			if strings.Contains(fb, ff) || strings.Contains(ff, fb) {
				req, at = p, -1
				if i, _ := cv.find(p, 0, cv.cut); i >= 0 {
					at = i
				}
				why += fmt.Sprintf(": the user forbade %q", fb)
				break
			}
		}
	}
	if req == "" {
		// Tie f to the entity stated with it, when the prompt names another.
		p, i, tail := cv.evidence(f, false)
		if p == "" {
			cv.note("%s: the transcript never states %q, no probe", why, f)
			return
		}
		req, at = p, i
		if !tail {
			if e := cv.owner(f, i, it.Prompt); e != "" {
				ep := strictPattern(e)
				near := ep + `\W+(?:\w+\W+){0,3}` + p + "|" + p + `\W+(?:\w+\W+){0,3}` + ep
				if _, ok := cv.match(near, cv.folded[i]); ok {
					req = near
					why += fmt.Sprintf(": %q goes with %q", f, e)
				}
			}
		}
		cv.markKeep(at, tail, why, f)
	} else if at >= 0 {
		cv.keep[at] = true
	}
	opts := []option{
		{key: "avoid", text: fmt.Sprintf("Answer without %q: the conversation rules it out here", f), requires: []string{req}},
		{key: "violate", text: fmt.Sprintf("Answer with %q: nothing in the conversation rules it out", f)},
	}
	cv.probe(it.Key, it.Prompt, why+fmt.Sprintf("; the answer must not contain %q", f), opts, "avoid")
}

// owner is the entity named in the sentence that states f at event i and
// not named in the prompt.
func (cv *cbConverter) owner(f string, i int, prompt string) string {
	fp := fold(prompt)
	text := cv.folded[i]
	best, bestDist := "", math.MaxInt
	fpos := strings.Index(text, fold(f))
	if fpos < 0 {
		return ""
	}
	for _, e := range cv.c.GroundTruth.entities {
		fe := fold(e.name)
		if fe == "" || strings.Contains(fp, fe) || strings.Contains(fold(f), fe) {
			continue
		}
		if k := strings.Index(text, fe); k >= 0 {
			d := k - fpos
			if d < 0 {
				d = -d
			}
			if d < bestDist {
				best, bestDist = e.name, d
			}
		}
	}
	return best
}

// covered reports whether an evaluation item already asks for v.
func (cv *cbConverter) covered(v string) bool {
	fv := fold(v)
	for _, o := range cv.values {
		fo := fold(o)
		if fo != "" && (strings.Contains(fv, fo) || strings.Contains(fo, fv)) {
			return true
		}
	}
	return false
}

// truthProbes asks about the ground truth no evaluation item asks about:
// immutable facts, entities, unresolved and deferred items.
func (cv *cbConverter) truthProbes() {
	gt := cv.c.GroundTruth
	for _, f := range gt.ImmutableFacts {
		key, val := label(f)
		if val == "" || cv.covered(val) {
			continue
		}
		why := fmt.Sprintf("immutable fact %q", f)
		pat, at, tail := cv.evidenceIn(val, true, true)
		if pat == "" || tail {
			cv.note("%s: not stated in these words before the cut, or only beside a replaced value, no probe", f)
			continue
		}
		cv.keep[at] = true
		q := "What did the conversation establish?"
		if key != "" {
			q = fmt.Sprintf("What did the conversation establish about the %s?", strings.ReplaceAll(key, "_", " "))
		}
		opts := []option{{key: "answer", text: val, requires: []string{pat}}}
		if c := cv.confusable(val, key); c != "" {
			if cp, _, _ := cv.evidence(c, false); cp != "" {
				opts = append(opts, option{key: "confused", text: c, requires: []string{cp}})
			}
		}
		opts = append(opts, option{key: "unknown", text: unknownOption})
		cv.probe("fact-"+firstWords(f, 6), q, why, opts, "answer")
		cv.values = append(cv.values, val)
	}
	for _, e := range gt.entities {
		if cv.covered(e.name) {
			continue
		}
		why := fmt.Sprintf("entity %q (%s)", e.name, e.role)
		pat, at, tail := cv.evidenceIn(e.name, false, true)
		if pat == "" || tail {
			cv.note("%s: named before the cut only beside a replaced value, no probe", why)
			continue
		}
		cv.keep[at] = true
		opts := []option{{key: "answer", text: e.name, requires: []string{pat}}}
		if c := cv.confusable(e.name); c != "" {
			if cp, _, _ := cv.evidence(c, false); cp != "" {
				opts = append(opts, option{key: "confused", text: c, requires: []string{cp}})
			}
		}
		opts = append(opts, option{key: "unknown", text: unknownOption})
		cv.probe("entity-"+firstWords(e.name, 4), fmt.Sprintf("Who is the %s in this conversation?", strings.ReplaceAll(e.role, "_", " ")), why, opts, "answer")
		cv.values = append(cv.values, e.name)
	}
	open := func(items []string, what, question, none string) {
		for _, u := range items {
			if strings.TrimSpace(u) == "" || cv.covered(u) {
				continue
			}
			why := fmt.Sprintf("%s %q", what, u)
			pat, at, tail := cv.evidenceIn(u, true, true)
			if pat == "" || tail {
				cv.note("%s: not stated in these words before the cut, no probe", why)
				continue
			}
			cv.keep[at] = true
			cv.probe(what+"-"+firstWords(u, 6), question, why, []option{
				{key: "open", text: u, requires: []string{pat}},
				{key: "none", text: none},
			}, "open")
		}
	}
	open(gt.UnresolvedItems, "unresolved", "What is still unresolved?", "Nothing is left open.")
	open(gt.DeferredItems, "deferred", "What was deferred for later?", "Nothing was deferred.")
}

func withComment(n *yaml.Node, c string) *yaml.Node {
	n.HeadComment = c
	return n
}

// maxRatio is the compression bound that judges the case fairly: the
// tokens of a faithful structured summary (the turns that hold the
// evidence, each quoted and cited) over the tokens it replaces, with a
// quarter more room, rounded up to 0.05; never tighter than the default
// 0.5, never above 1.
func (cv *cbConverter) maxRatio() (float64, int, int) {
	counter := tokens.Default()
	idx := make([]int, 0, len(cv.keep))
	for i := range cv.keep {
		if i < cv.cut {
			idx = append(idx, i)
		}
	}
	sort.Ints(idx)
	type entry struct {
		Claim     string `json:"claim"`
		SourceSeq int    `json:"source_seq"`
	}
	doc := struct {
		SchemaVersion int     `json:"schema_version"`
		CoversThrough int     `json:"covers_through"`
		Goal          string  `json:"goal"`
		Verified      []entry `json:"verified"`
	}{1, cv.cut, cbGoal, nil}
	for _, i := range idx {
		doc.Verified = append(doc.Verified, entry{strings.TrimSpace(cv.events[i].Text), i + 1})
	}
	raw, _ := json.Marshal(doc)
	fair := counter.Count(string(raw))
	replaced := counter.Count(transcript.EventsText(cv.events[:cv.cut]))
	if replaced == 0 {
		return 1, fair, replaced
	}
	r := math.Ceil(float64(fair)*1.25/float64(replaced)*20) / 20
	return math.Min(1, math.Max(scenarios.DefaultMaxRatio, r)), fair, replaced
}

const cbGoal = "Continue the conversation with the user and answer their questions about what was agreed in it."

// write renders the scenario.
func (cv *cbConverter) write(w io.Writer, id string) error {
	c := cv.c
	ratio, fair, replaced := cv.maxRatio()
	if float64(fair) > ratio*float64(replaced) {
		cv.warns = append(cv.warns, fmt.Sprintf("the compacted turns hold %d tokens and a faithful summary about %d: even max_ratio 1 may fail a faithful summary (a short case; judge compression on longer difficulties)", replaced, fair))
	}
	title := "CompactBench case"
	if c.CaseID != "" {
		title += " " + c.CaseID
	}
	var meta []string
	if c.TemplateKey != "" {
		t := c.TemplateKey
		if c.TemplateVersion != "" {
			t += " " + c.TemplateVersion
		}
		meta = append(meta, "template "+t)
	}
	if c.Seed != "" {
		meta = append(meta, "seed "+c.Seed.String())
	}
	if c.Difficulty != "" {
		meta = append(meta, c.Difficulty)
	}
	if len(meta) > 0 {
		title += " (" + strings.Join(meta, ", ") + ")"
	}
	tags := []*yaml.Node{str("compactbench")}
	if fam := family(c.TemplateKey); fam != "" {
		tags = append(tags, str(fam))
	}
	if d := sanitize(c.Difficulty); d != "" {
		tags = append(tags, str(d))
	}
	compaction := withStyle(mapping("at", flowSeq(intNode(cv.cut)), "max_ratio", floatNode(ratio)), yaml.FlowStyle)
	header := mapping(
		"version", intNode(scenarios.Version),
		"id", str(id),
		"title", str(title),
		"tags", flowSeq(tags...),
		"goal", str(cbGoal),
		"compaction", compaction,
	)
	header.Content[len(header.Content)-2].HeadComment = fmt.Sprintf(
		"The cut leaves the case's final question (seq %d) in the tail. max_ratio: a faithful\n"+
			"summary of the evidence turns is about %d tokens of the %d replaced (x1.25, at least 0.5).", cv.cut+1, fair, replaced)
	header.HeadComment = "Imported from a CompactBench case: docs/compactbench.md says how each part maps.\n" +
		"The turns' tags (the case's answer key) are left out. Drift cycles do not map: CompactBench\n" +
		"generates their continuation turns at run time, and the case file does not hold them."
	for _, n := range cv.notes {
		header.HeadComment += "\nNot mapped: " + n
	}
	var buf bytes.Buffer
	if err := encode(&buf, header); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.Write(buf.Bytes())
	if len(cv.invs) > 0 {
		buf.Reset()
		if err := encode(&buf, mapping("invariants", seq(cv.invs...))); err != nil {
			return err
		}
		bw.WriteString("\n")
		bw.Write(buf.Bytes())
	}
	if len(cv.probes) > 0 {
		buf.Reset()
		if err := encode(&buf, mapping("probes", seq(cv.probes...))); err != nil {
			return err
		}
		bw.WriteString("\n")
		bw.Write(buf.Bytes())
	}
	bw.WriteString("\nevents:\n")
	var line []byte
	for i, e := range cv.events {
		line = appendEvent(line[:0], &rec{kind: kindText, role: e.Role, text: e.Text}, i+1)
		bw.Write(line)
	}
	return bw.Flush()
}

// family is a template key without its version ("buried_constraint_v1_3"
// -> "buried-constraint").
func family(key string) string {
	k := versionSuffix.ReplaceAllString(strings.ToLower(key), "")
	return sanitize(strings.TrimSuffix(k, "_starter"))
}

var versionSuffix = lazyRE(`_v\d+(?:_\d+)*$`)

// caseID is the scenario id of a case: Options.ID, else the case's
// case_id, else the file's name (with the record's index when the file
// holds several).
func caseID(opts Options, c *cbCase, index, records int) string {
	if opts.ID != "" {
		return opts.ID
	}
	if id := sanitize(c.CaseID); id != "" {
		return fitID(id)
	}
	if records > 1 {
		if file := sanitize(fileStem(opts.Name)); file != "" {
			return fitID(fmt.Sprintf("%s-%d", file, index))
		}
		return fitID(fmt.Sprintf("case-%d", index))
	}
	return SanitizeID(opts.Name)
}

func (cv *cbConverter) report(rep *Report, id string) {
	rep.ID = id
	rep.Events = len(cv.events)
	rep.Cut = cv.cut
	rep.Invariants = len(cv.invs)
	rep.Probes = len(cv.probes)
	rep.Warnings = append(rep.Warnings, cv.warns...)
}

// importCase imports the case at opts.Index of a file of cases (one case,
// a JSON array of cases, or JSONL with one case a line).
func importCase(br *bufio.Reader, w io.Writer, opts Options, rep *Report) error {
	var cv *cbConverter
	found := false
	n, err := eachRecord(br, opts.MaxLineBytes, func(i, line int, raw json.RawMessage, rerr error) error {
		if rerr != nil && i != opts.Index {
			if opts.Strict {
				return &InputError{Line: line, Err: fmt.Errorf("case %d: %w", i, rerr)}
			}
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("line %d: malformed, skipped: %v", line, rerr))
			return nil
		}
		if i != opts.Index {
			return nil
		}
		found = true
		if rerr != nil {
			return &InputError{Line: line, Err: fmt.Errorf("case %d: %w", i, rerr)}
		}
		c, err := newCase(raw)
		if err != nil {
			return &InputError{Line: line, Err: fmt.Errorf("case %d: %w", i, err)}
		}
		cv = c
		return nil
	})
	if err != nil {
		return err
	}
	if !found {
		return inputErrorf(0, "--record %d: the input holds %d cases", opts.Index, n)
	}
	rep.Record, rep.Records = opts.Index, n
	if n > 1 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the input holds %d cases; imported #%d (pick another with --record N, or all with --all)", n, opts.Index))
	}
	id := caseID(opts, cv.c, opts.Index, n)
	var buf bytes.Buffer
	if err := cv.write(&buf, id); err != nil {
		return err
	}
	cv.report(rep, id)
	_, err = w.Write(buf.Bytes())
	return err
}

// eachCase is ImportEach for CompactBench cases.
func eachCase(br *bufio.Reader, opts Options, base *Report, emit func(rep *Report, write func(io.Writer) error, err error) error) (int, error) {
	used := map[string]bool{}
	return eachRecord(br, opts.MaxLineBytes, func(i, line int, raw json.RawMessage, rerr error) error {
		rep := *base
		rep.Record = i
		if rerr != nil {
			return emit(&rep, nil, &InputError{Line: line, Err: fmt.Errorf("case %d: %w", i, rerr)})
		}
		cv, err := newCase(raw)
		if err != nil {
			return emit(&rep, nil, &InputError{Line: line, Err: fmt.Errorf("case %d: %w", i, err)})
		}
		id := caseID(opts, cv.c, i, 2)
		if used[id] {
			id = fitID(fmt.Sprintf("%s-%d", id, i))
		}
		used[id] = true
		var buf bytes.Buffer
		if err := cv.write(&buf, id); err != nil {
			return err
		}
		cv.report(&rep, id)
		return emit(&rep, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }, nil)
	})
}
