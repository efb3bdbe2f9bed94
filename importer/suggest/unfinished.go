package suggest

import (
	_ "embed"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// An unfinished request: a step the user asked for ("I'd like to change
// the passenger to myself", "Can you also add one checked bag?") that no
// successful call after it carried out, and that the agent either reported
// done ("one checked bag has been added") or, where every call after it
// was a structured one (an API whose calls name their actions), never did.
// A summary that reports it done, or drops it, closes a task the session
// left open. The link between request and call is the request's object:
// a word of it ("bag", "passenger") in a successful call's name, its
// arguments' names or its values; or, for a verb that names an action
// ("cancel", "commit"), the verb in the call. A session of commands and
// edits carries out requests in calls that need not name them, so there
// only the agent's report of a step no call did is suggested.

// requestVerbsData lists the verbs of a request (see the file's header).
//
//go:embed requests.txt
var requestVerbsData string

// requestVerb is a verb of requestVerbsData.
type requestVerb struct {
	generic     bool
	participles []string
}

// requestVerbs is requestVerbsData parsed, with the patterns built from it.
type requestVerbs struct {
	verbs  map[string]requestVerb
	opener *regexp.Regexp // a request's opening words and its verb
	start  *regexp.Regexp // a coordinated request: ", and add …"
}

var loadRequestVerbs = sync.OnceValue(func() *requestVerbs { return parseRequestVerbs(requestVerbsData) })

func parseRequestVerbs(data string) *requestVerbs {
	rv := &requestVerbs{verbs: map[string]requestVerb{}}
	var alts []string
	for _, line := range strings.Split(data, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		rv.verbs[f[0]] = requestVerb{generic: f[1] == "generic", participles: strings.Fields(f[2])}
		alts = append(alts, regexp.QuoteMeta(f[0]))
	}
	verbs := `(` + strings.Join(alts, "|") + `)`
	help := `(?:help\s+(?:me\s+|us\s+)?(?:to\s+)?)?` // "help me book", "can you help me cancel"
	rv.opener = regexp.MustCompile(`(?:\b(?:i|we)(?:'d|\s+would)\s+(?:also\s+)?like\s+(?:you\s+)?to|\b(?:i|we|and)\s+(?:also\s+)?(?:want|need)\s+(?:you\s+)?to|\b(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:also\s+)?|\bplease\s+(?:also\s+)?|\blet'?s\s+(?:just\s+|also\s+)?|^(?:also\s+|now\s+)?)\s*` + help + verbs + `\b`)
	rv.start = regexp.MustCompile(`^\s*(?:and\s+|then\s+)?(?:also\s+)?` + help + verbs + `\b`)
	return rv
}

// request is an action the user asked for.
type request struct {
	idx       int
	verb      string
	lead      string   // the first request's verb of its sentence, when this one comes later in it
	phrase    string   // the verb and its words, folded
	object    []string // the stems that link it to a call
	head      string   // the object's last word, the pattern's anchor
	done      bool
	tried     bool // a call after it linked to it was made, whatever its result
	calls     int  // successful calls after it
	commands  bool // a call after it named a command or a file
	reportIdx int  // the assistant turn that reported it done, -1 when none
	report    string
}

// Unfinished is a request (the user turn at Idx) no call carried out.
// Pattern recognises the step, Later the step reported done; Patterns are
// the step's patterns in the order a check tries them (Pattern alone, or,
// for a later request of a list, the list up to it, then Pattern);
// ReportIdx is the turn that reported it done (-1 when none), Report its
// sentence.
type Unfinished struct {
	Idx            int
	Phrase         string
	Pattern, Later string
	Patterns       []string
	// Left are the members of a set a tool listed that no call passed,
	// for a request over every one of them done for the others.
	Left       []string
	ReportIdx  int
	Report     string
	CallsAfter int // successful calls after the request
}

// Bounds of the request state.
const (
	maxRequests   = 24
	maxUnfinished = 3
	maxCallTokens = 64
)

// requestStopWords are the words of a request that link it to nothing: articles,
// pronouns, quantities, courtesies.
var requestStopWords = map[string]bool{"the": true, "a": true, "an": true, "my": true, "our": true, "your": true, "his": true, "her": true,
	"their": true, "this": true, "that": true, "these": true, "those": true, "it": true, "them": true, "me": true, "myself": true,
	"us": true, "all": true, "some": true, "any": true, "one": true, "two": true, "three": true, "four": true, "five": true,
	"also": true, "please": true, "well": true, "too": true, "again": true, "just": true, "only": true, "new": true, "more": true,
	"as": true, "now": true, "both": true, "each": true, "every": true, "few": true, "so": true, "then": true, "there": true,
	"instead": true, "later": true, "entire": true, "whole": true}

// prepositions end a request's direct object.
var prepositions = map[string]bool{"to": true, "for": true, "on": true, "in": true, "at": true, "from": true, "with": true,
	"into": true, "onto": true, "by": true, "of": true, "because": true, "if": true, "when": true, "since": true, "before": true, "after": true}

// proseKeys are arguments whose values are the agent's words, not the
// call's data: a handoff's summary names the request it did not carry out.
var proseKeys = map[string]bool{"summary": true, "description": true, "message": true, "reason": true, "thought": true,
	"text": true, "content": true, "body": true, "note": true, "comment": true, "title": true, "explanation": true}

// sentencesOf splits text at sentence ends (".", "!", "?", ";", a line
// break).
func sentencesOf(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == ';' || r == '\n' })
}

// request reads a user turn's own text for requests.
func (s *Scanner) request(idx int, text string) {
	rv := loadRequestVerbs()
	folded := strings.ToLower(textmatch.Fold(text))
	for _, sent := range sentencesOf(folded) {
		sent = strings.TrimSpace(sent)
		m := rv.opener.FindStringSubmatchIndex(sent)
		if m == nil {
			continue
		}
		pieces := splitPieces(sent[m[2]:])
		lead := sent[m[2]:m[3]]
		s.addRequest(idx, lead, "", pieces[0])
		for _, p := range pieces[1:] {
			if c := rv.start.FindStringSubmatchIndex(p); c != nil {
				s.addRequest(idx, p[c[2]:c[3]], lead, strings.TrimSpace(p[c[2]:]))
			}
		}
	}
}

// splitPieces splits a request at commas and "and": its coordinated
// requests ("change the passenger, upgrade to economy, and add three
// bags").
func splitPieces(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		for _, q := range strings.Split(p, " and ") {
			if q = strings.TrimSpace(q); q != "" {
				out = append(out, q)
			}
		}
	}
	if len(out) == 0 {
		out = []string{s}
	}
	return out
}

// addRequest records the request of verb whose words are phrase; lead is
// the verb of the first request of its sentence when it is a later one of
// several ("change the passenger, upgrade to economy, and add three
// bags"), "" when it is the first or alone.
func (s *Scanner) addRequest(idx int, verb, lead, phrase string) {
	if len(s.requests) >= maxRequests {
		return
	}
	words := strings.FieldsFunc(phrase, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if len(words) < 2 || words[1] == "of" {
		return // a verb alone links to nothing; one before "of" is a noun ("change of plan")
	}
	var direct, all []string
	inDirect := true
	for _, w := range words[1:] {
		w = strings.Trim(w, "'")
		if prepositions[w] {
			inDirect = false
			continue
		}
		if requestStopWords[w] || len(w) < 3 {
			continue
		}
		all = append(all, w)
		if inDirect {
			direct = append(direct, w)
		}
	}
	object := direct
	if len(object) == 0 {
		object = all
	}
	if len(object) == 0 {
		return
	}
	if len(object) > 4 {
		object = object[:4]
	}
	r := request{idx: idx, verb: verb, lead: lead, phrase: phrase, head: object[len(object)-1], reportIdx: -1}
	for _, w := range object {
		r.object = append(r.object, stem(w))
	}
	for _, o := range s.requests {
		if o.verb == r.verb && o.head == r.head && !o.done {
			return // asked again: the first request stands
		}
	}
	s.requests = append(s.requests, r)
}

// stem folds a word's plural away.
func stem(w string) string {
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 3:
		return w[:len(w)-1]
	}
	return w
}

// linked reports a request word and a call's token that name one thing:
// equal stems, or one a prefix of the other of three letters or more
// ("bag", "baggages").
func linked(word, token string) bool {
	a, b := stem(word), stem(token)
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 3 && strings.HasPrefix(b, a)
}

// callTokens are the words of a call that can carry out a request: its
// name's, its arguments' names and their values but the agent's prose.
func callTokens(name string, raw []byte) []string {
	toks := wordsOf(name)
	if args, ok := objectArgs(raw); ok {
		for k, v := range args {
			toks = append(toks, wordsOf(k)...)
			if proseKeys[strings.ToLower(k)] {
				continue
			}
			if sv, ok := scalar(v); ok {
				toks = append(toks, wordsOf(sv)...)
			}
		}
	}
	if len(toks) > maxCallTokens {
		toks = toks[:maxCallTokens]
	}
	return toks
}

// wordsOf splits a name or a value into lower-case words: at every
// character that is no letter, and between a lower-case letter and an
// upper-case one ("updateReservation").
func wordsOf(s string) []string {
	var out []string
	var b strings.Builder
	prevLower := false
	flush := func() {
		if b.Len() >= 3 {
			out = append(out, b.String())
		}
		b.Reset()
	}
	for _, r := range s {
		switch {
		case !unicode.IsLetter(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		b.WriteRune(unicode.ToLower(r))
		prevLower = unicode.IsLower(r)
	}
	flush()
	return out
}

// requestCall notes a call's tokens until its result says whether it
// worked.
func (s *Scanner) requestCall(idx int, name string, raw []byte, structured bool) {
	if len(s.requests) == 0 {
		return
	}
	if !structured && !noArgs(raw) {
		for i := range s.requests {
			s.requests[i].commands = true
		}
	}
	toks := callTokens(name, raw)
	for i := range s.requests {
		s.requests[i].tried = s.requests[i].tried || s.requests[i].linkedTo(toks) && !otherAction(name, s.requests[i].verb)
	}
	if s.reqCalls == nil {
		s.reqCalls, s.reqNames = map[int][]string{}, map[int]string{}
	}
	if len(s.reqCalls) < maxOpenSigs {
		s.reqCalls[idx], s.reqNames[idx] = toks, name
	}
}

// otherAction reports a call whose name holds a verb of another action
// than verb's, where verb names one: book_reservation does not carry out
// "cancel the reservation", though both name the reservation.
func otherAction(name, verb string) bool {
	rv := loadRequestVerbs()
	if rv.verbs[verb].generic {
		return false
	}
	for _, w := range wordsOf(name) {
		if v, ok := rv.verbs[w]; ok && !v.generic && w != verb {
			return true
		}
	}
	return false
}

// noArgs reports a call with no arguments ("{}", as the wire writes it
// or as a string of JSON): it names no command and no file, so it is no
// sign of a session of commands (list_all_airports).
func noArgs(raw []byte) bool {
	t := strings.TrimSpace(string(raw))
	return t == "" || t == "{}" || t == `"{}"` || t == "null"
}

// linkedTo reports a call, by its tokens, that carries out the request:
// a word of its object in it, or its verb when the verb names an action.
func (r *request) linkedTo(toks []string) bool {
	generic := loadRequestVerbs().verbs[r.verb].generic
	for _, t := range toks {
		if !generic && linked(r.verb, t) {
			return true
		}
		for _, w := range r.object {
			if linked(w, t) {
				return true
			}
		}
	}
	return false
}

// requestDone reads a result: a call that worked carries out each open
// request it is linked to.
func (s *Scanner) requestDone(e Event, text string) {
	toks, ok := s.reqCalls[e.CallIdx]
	if !ok {
		return
	}
	name := s.reqNames[e.CallIdx]
	delete(s.reqCalls, e.CallIdx)
	delete(s.reqNames, e.CallIdx)
	if e.Status != "" && e.Status != "ok" || failsByText(text) {
		return
	}
	for i := range s.requests {
		r := &s.requests[i]
		if r.done || r.idx > e.CallIdx {
			continue
		}
		r.calls++
		r.done = r.linkedTo(toks) && !otherAction(name, r.verb)
	}
}

// doneCues are what stands before a participle in a report of a step
// done ("has been added", "I've booked", "successfully updated").
var doneCues = []string{"has been", "have been", "had been", "was", "were", "i've", "we've", "i have", "we have", "successfully"}

// report reads an assistant turn for a report of an open request done.
func (s *Scanner) report(idx int, text string) {
	if len(s.requests) == 0 {
		return
	}
	rv := loadRequestVerbs()
	folded := strings.ToLower(textmatch.Fold(text))
	for _, sent := range sentencesOf(folded) {
		for i := range s.requests {
			r := &s.requests[i]
			if r.done || r.reportIdx >= 0 || r.idx > idx {
				continue
			}
			if reportsDone(sent, rv.verbs[r.verb].participles, r.object) {
				r.reportIdx, r.report = idx, strings.TrimSpace(sent)
			}
		}
	}
}

// reportsDone reports a sentence that says the step done: a participle of
// its verb after a done cue, not negated, and a word of its object.
func reportsDone(sent string, participles, object []string) bool {
	words := strings.FieldsFunc(sent, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	for i, w := range words {
		if !inList(participles, w) {
			continue
		}
		before := strings.Join(words[max(0, i-3):i], " ")
		if strings.Contains(before, "not") || strings.Contains(before, "n't") || strings.Contains(before, "never") {
			continue
		}
		cued := false
		for _, c := range doneCues {
			cued = cued || strings.Contains(" "+before+" ", " "+c+" ")
		}
		if !cued {
			continue
		}
		for _, o := range object {
			for _, x := range words {
				if linked(o, x) {
					return true
				}
			}
		}
	}
	return false
}

func inList(list []string, w string) bool {
	for _, x := range list {
		if x == w {
			return true
		}
	}
	return false
}

// Unfinished returns the requests no successful call carried out that the
// agent reported done, or, in a session whose calls after them were all
// structured and one worked, never did: the first maxUnfinished of them
// (Capped names the others).
func (s *Scanner) Unfinished() []Unfinished {
	all := s.unfinished()
	return all[:min(len(all), maxUnfinished)]
}

func (s *Scanner) unfinished() []Unfinished {
	rv := loadRequestVerbs()
	var out []Unfinished
	for _, r := range s.requests {
		var left []string
		if r.done {
			left = s.leftOf(r)
		}
		if len(left) == 0 && (r.done || r.reportIdx < 0 && (r.commands || r.calls == 0 || r.tried)) {
			continue // done; or never reported done, where a call could have done it unseen or was tried
		}
		head := regexp.QuoteMeta(stem(r.head)) + `\w*`
		parts := `(?:` + strings.Join(quoteAll(rv.verbs[r.verb].participles), "|") + `)\b`
		step := `\b(?:` + strings.Join(quoteAll(verbForms(r.verb)), "|") + `)\W+(?:\w+\W+){0,3}?` + head
		u := Unfinished{Idx: r.idx, Phrase: r.phrase, ReportIdx: r.reportIdx, Report: r.report, CallsAfter: r.calls,
			Pattern: step, Patterns: []string{step},
			Later: `\b` + head + `\W+(?:\w+\W+){0,3}?` + parts + `|\b` + parts + `\W+(?:\w+\W+){0,3}?` + head}
		if len(left) > 0 {
			// Done for part of a set: the step is the members never
			// passed to a call, and reporting them done is the later one.
			ids := `\b(?:` + strings.Join(quoteAll(left), "|") + `)\b`
			u.Left = left
			// The request names the set with its quantifier and its
			// modifiers ("downgrade all my recent business class flights").
			wide := `\b(?:` + strings.Join(quoteAll(verbForms(r.verb)), "|") + `)\W+(?:\w+\W+){0,6}?` + head
			u.Pattern, u.Patterns = wide, []string{wide, ids}
			u.Later = ids + `\W+(?:\w+\W+){0,6}?` + parts + `|\b` + parts + `\W+(?:\w+\W+){0,6}?` + ids
			out = append(out, u)
			continue
		}
		if r.lead != "" {
			// A later request of a list: a summary that quotes the list
			// states it inside the list, where the reader reads only the
			// list's first step; the list from its first verb is the step
			// too, and comes first, since the reader reads the first
			// pattern it finds.
			list := `\b(?:` + strings.Join(quoteAll(verbForms(r.lead)), "|") + `)\W+(?:\w+\W+){0,24}?` + step[len(`\b`):]
			u.Patterns = []string{list, step}
		}
		out = append(out, u)
	}
	return out
}

// verbForms are a verb's forms that ask for the step or state it still to
// do ("add", "adds", "adding"; "change", "changing"; "commit",
// "committing"), never its participle (the step reported done). A final
// consonant after one vowel doubles ("committing"): a rough rule, since a
// form it misses only narrows the pattern.
func verbForms(v string) []string {
	forms := []string{v, v + "s", v + "ing"}
	n := len(v)
	switch {
	case strings.HasSuffix(v, "e"):
		forms = append(forms, v[:n-1]+"ing")
	case n >= 3 && !strings.ContainsRune("aeiouwy", rune(v[n-1])) && strings.ContainsRune("aeiou", rune(v[n-2])) && !strings.ContainsRune("aeiou", rune(v[n-3])):
		forms = append(forms, v+v[n-1:]+"ing") // "committing"
	}
	return forms
}

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, w := range list {
		out[i] = regexp.QuoteMeta(w)
	}
	return out
}
