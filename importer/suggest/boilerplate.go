package suggest

import (
	_ "embed"
	"regexp"
	"strings"
	"sync"

	"github.com/compact-eval/compact-eval/internal/lazyre"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// boilerplateData lists, per agent framework, what the harness writes into
// user and system turns on its own (see the file's header for the format
// and the public sources it was learnt from).
//
//go:embed boilerplate.txt
var boilerplateData string

// harness is boilerplateData parsed: every framework's entries together.
type harness struct {
	phrases  []string
	tags     []string
	headings []string
	tasks    []string
	projects []string
}

var loadHarness = sync.OnceValue(func() *harness { return parseHarness(boilerplateData) })

func parseHarness(data string) *harness {
	h := &harness{}
	for _, line := range strings.Split(data, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			continue
		}
		switch f[1] {
		case "phrase":
			h.phrases = append(h.phrases, f[2])
		case "tag":
			h.tags = append(h.tags, f[2])
		case "heading":
			h.headings = append(h.headings, f[2])
		case "task":
			h.tasks = append(h.tasks, f[2])
		case "project":
			h.projects = append(h.projects, f[2])
		}
	}
	return h
}

// hits counts the harness phrases folded text holds.
func (h *harness) hits(folded string) int {
	n := 0
	for _, p := range h.phrases {
		if strings.Contains(folded, p) {
			n++
		}
	}
	return n
}

// holdsPhrase reports a sentence that holds a harness phrase.
func (h *harness) holdsPhrase(sent string) bool {
	folded := strings.ToLower(textmatch.Fold(sent))
	for _, p := range h.phrases {
		if strings.Contains(folded, p) {
			return true
		}
	}
	return false
}

// dropTags removes every <tag …>…</tag> block of a harness tag, content
// and all (an unclosed one to the end of the text).
func (h *harness) dropTags(text string) string {
	if !strings.Contains(text, "<") {
		return text
	}
	for _, tag := range h.tags {
		for {
			lower := strings.ToLower(text)
			i := openTag(lower, tag)
			if i < 0 {
				break
			}
			end := len(text)
			if j := strings.Index(lower[i:], "</"+tag+">"); j >= 0 {
				end = i + j + len("</"+tag+">")
			}
			text = text[:i] + "\n" + text[end:]
		}
	}
	return text
}

// openTag is the index of "<tag>" or "<tag " in lower, or -1.
func openTag(lower, tag string) int {
	from := 0
	for {
		i := strings.Index(lower[from:], "<"+tag)
		if i < 0 {
			return -1
		}
		i += from
		if k := i + 1 + len(tag); k < len(lower) && (lower[k] == '>' || lower[k] == ' ') {
			return i
		}
		from = i + 1
	}
}

var headingRE = lazyre.New(`^(#{1,6})\s+(.*?)\s*$`)

// dropSections removes the markdown sections whose heading is a harness
// heading, each to the next heading of its level or above.
func (h *harness) dropSections(text string) string {
	if !strings.Contains(text, "#") {
		return text
	}
	lines := strings.Split(text, "\n")
	out := lines[:0:0]
	skip := 0 // level of the section being dropped, 0 when none
	for _, line := range lines {
		if m := headingRE.FindStringSubmatch(line); m != nil {
			level := len(m[1])
			if skip > 0 && level <= skip {
				skip = 0
			}
			title := strings.ToLower(textmatch.Fold(m[2]))
			for _, hd := range h.headings {
				if title == hd {
					skip = level
				}
			}
		}
		if skip == 0 {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// capsLabelRE is a line that labels a part of a template: "INSTRUCTIONS:".
var capsLabelRE = regexp.MustCompile(`(?m)^[A-Z][A-Z _]{2,}:\s*$`)

// taskRegions returns the parts of a template that hold the task statement.
func (h *harness) taskRegions(text string) []string {
	var out []string
	lower := strings.ToLower(text)
	for _, tag := range h.tasks {
		if i := openTag(lower, tag); i >= 0 {
			start := i + strings.IndexByte(lower[i:], '>') + 1
			end := len(text)
			if j := strings.Index(lower[start:], "</"+tag+">"); j >= 0 {
				end = start + j
			}
			out = append(out, text[start:end])
			continue
		}
		label := strings.ToUpper(tag) + ":"
		for _, loc := range capsLabelRE.FindAllStringIndex(text, -1) {
			if strings.TrimSpace(text[loc[0]:loc[1]]) != label {
				continue
			}
			rest := text[loc[1]:]
			if next := capsLabelRE.FindStringIndex(rest); next != nil {
				rest = rest[:next[0]]
			}
			out = append(out, rest)
		}
	}
	return out
}

// projectEnds are the closing tags that end a project instruction block:
// the wrappers the agents put around such a file.
var projectEnds = []string{"</instructions>", "</user_instructions>", "</system-reminder>"}

// projectBlocks takes out of a turn the project instruction files it
// shows (AGENTS.md, CLAUDE.md as the agent hands them to the model): the
// body of each, the user's standing rules, and the text without them. A
// block opens on a line holding a project marker and runs to the closing
// tag of the block around it, the next marker or the end; the marker's
// line and the wrapper tags are not its body, and neither is a sentence
// holding a harness phrase (the reminder's own "you MUST follow them").
func (h *harness) projectBlocks(text string) (bodies []string, rest string) {
	lower := strings.ToLower(text)
	found := false
	for _, m := range h.projects {
		if strings.Contains(lower, m) {
			found = true
			break
		}
	}
	if !found {
		return nil, text
	}
	lines := strings.Split(text, "\n")
	var out, body []string
	in := false
	flush := func() {
		if b := strings.TrimSpace(strings.Join(body, "\n")); b != "" {
			bodies = append(bodies, h.dropPhrases(h.dropSections(h.dropTags(b))))
		}
		body, in = nil, false
	}
	for _, line := range lines {
		folded := strings.ToLower(line)
		marker := ""
		for _, m := range h.projects {
			if strings.Contains(folded, m) {
				marker = m
				break
			}
		}
		if marker != "" {
			flush()
			in = true
			// what follows the marker on its line is the file's first line
			// (<user_instructions>Never push…)
			if i := strings.Index(folded, marker); i >= 0 {
				body = append(body, line[i+len(marker):])
			}
			continue
		}
		if !in {
			out = append(out, line)
			continue
		}
		end := -1
		for _, e := range projectEnds {
			if i := strings.Index(folded, e); i >= 0 && (end < 0 || i < end) {
				end = i
			}
		}
		if end >= 0 {
			body = append(body, line[:end])
			rest := line[end:]
			flush()
			if strings.HasPrefix(strings.ToLower(rest), "</system-reminder>") {
				out = append(out, rest) // the wrapper's end, for dropTags
			}
			continue
		}
		if t := strings.TrimSpace(folded); t == "<instructions>" || t == "</instructions>" {
			continue
		}
		body = append(body, line)
	}
	flush()
	return bodies, strings.Join(out, "\n")
}

// dropPhrases removes the sentences of text that hold a harness phrase.
func (h *harness) dropPhrases(text string) string {
	var kept []string
	for _, line := range strings.Split(text, "\n") {
		if h.holdsPhrase(line) {
			var parts []string
			for _, sent := range SplitSentences(line) {
				if !h.holdsPhrase(sent) {
					parts = append(parts, sent)
				}
			}
			line = strings.Join(parts, " ")
		}
		kept = append(kept, line)
	}
	return strings.Join(kept, "\n")
}

// ProjectInstructions returns the project instruction files a turn shows
// (AGENTS.md, CLAUDE.md; see projectBlocks) and its text without them.
func ProjectInstructions(text string) (bodies []string, rest string) {
	return loadHarness().projectBlocks(text)
}

// OwnText is what of a user or system turn is not the harness's: its text
// with the project instruction files and the agent framework's boilerplate
// taken out ("" for a turn that was only theirs).
func OwnText(role scenarios.Role, text string) string {
	_, rest := ProjectInstructions(text)
	body, _ := ownText(role, rest)
	return body
}

// ownText splits a user or system turn into the text whose rules are the
// user's or the task's (body) and the sentences of a harness template that
// state the task's scope (scope: "you don't have to modify the tests"). A
// harness's wrapped blocks and sections are dropped; a turn that is a
// harness template keeps only its task statement; any sentence left that
// holds a harness phrase is dropped.
func ownText(role scenarios.Role, text string) (body string, scope []string) {
	h := loadHarness()
	text = h.dropSections(h.dropTags(text))
	folded := strings.ToLower(textmatch.Fold(text))
	n := h.hits(folded)
	if n >= 2 || n == 1 && role == scenarios.RoleSystem {
		for _, sent := range SplitSentences(text) {
			if scopeRuleRE.MatchString(strings.ToLower(textmatch.Fold(sent))) {
				scope = append(scope, sent)
			}
		}
		text = strings.Join(h.taskRegions(text), "\n")
	}
	if n == 0 {
		return text, scope
	}
	return h.dropPhrases(text), scope
}

// scopeRuleRE finds, in folded text, a rule on what the task may change:
// "you don't have to modify the tests", "do not modify: tests",
// "make changes to non-test files", "only edit src/".
var scopeRuleRE = lazyre.New(`\b(?:(?:do not|don't|dont|never|must not|should not|shouldn't|no need to|(?:do not|don't|dont) (?:have|need) to|without)\W+(?:modify|modifying|change|changing|edit|editing|touch|touching|alter|altering|rewrite|rewriting|delete|deleting)\W+(?:\w+\W+){0,4}?(?:tests?|testing|test files?|config\w*|files?|director(?:y|ies)|folders?|modules?|packages?|dependencies)\b|changes? to (?:the )?non-tests? files|only (?:modify|change|edit|touch)\b)`)

// scopeRules adds, as constraints, the scope rules a harness template
// states: the first of an event, since a template says the one rule in
// several ways.
func (s *Scanner) scopeRules(idx int, sents []string) {
	for _, sent := range sents {
		folded := strings.ToLower(textmatch.Fold(sent))
		loc := scopeRuleRE.FindStringIndex(folded)
		if loc == nil {
			continue
		}
		words := strings.Fields(strings.TrimLeft(folded[loc[0]:], "-*• "))
		pattern := phrase(words, len(strings.Fields(folded[loc[0]:loc[1]]))+1)
		if pattern == "" || s.seen["c:"+pattern] {
			continue
		}
		s.seen["c:"+pattern] = true
		s.addConstraint(Constraint{Idx: idx, Sentence: sent, Pattern: pattern}, true)
		return
	}
}
