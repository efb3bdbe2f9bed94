package suggest

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Limits that keep the suggestion state bounded whatever the log's size.
const (
	maxConstraints  = 10
	maxCorrections  = 8
	maxRefuted      = 6
	maxClaims       = 24
	maxSecrets      = 20
	maxQuantities   = 12
	MaxPaths        = 1000 // distinct paths compared for artifacts
	maxArtifactSets = 10
	maxScanChars    = 20000 // of one text, for the sentence-level rules
)

// Kind is what an event is to the scanner.
type Kind uint8

// The kinds of event.
const (
	Text   Kind = iota // a message
	Call               // a tool call
	Result             // a tool result
)

// Event is what the scanner reads of one event.
type Event struct {
	Kind     Kind
	Role     scenarios.Role
	Text     string
	CallName string // a call's tool
	Args     []byte // a call's arguments, raw JSON; nil when it has none
}

// Constraint is a rule stated in the sentence of the event at Idx,
// recognised by Pattern.
type Constraint struct {
	Idx      int
	Sentence string
	Pattern  string
}

// Correction is a user turn (the event at Idx, whose text is Text) that
// replaced Old with New.
type Correction struct {
	Idx      int
	Old, New string
	Text     string
}

// Refuted is an assistant claim (at ClaimIdx) that a later user turn (at
// ByIdx) denied; Pattern recognises the claim.
type Refuted struct {
	ClaimIdx, ByIdx int
	Claim, By       string
	Pattern         string
}

// Quantity is a number with its unit, as written (Raw) in the event at Idx.
type Quantity struct {
	Idx   int
	Value float64
	Unit  string
	Raw   string
}

// Secret is a key-like token first seen in the event at Idx.
type Secret struct {
	Value string
	Idx   int
}

type pathInfo struct {
	first, last int // event indexes of the calls that touched it
	order       int // order of first sight
	edited      int // index of the last call that wrote it, -1 when none
}

// claim is an assistant statement that a later event may refute.
type claim struct {
	idx   int
	text  string
	words []string // folded content words
}

// Scanner looks at each event as it is added and keeps bounded candidate
// lists for the suggested invariants. It is not safe for concurrent use.
type Scanner struct {
	constraints []Constraint
	corrections []Correction
	refuted     []Refuted
	quantities  []Quantity
	secrets     []string
	secretIdx   map[string]int
	paths       map[string]*pathInfo // paths named in tool calls' arguments
	pathsFull   bool
	seen        map[string]bool // dedupe keys
	claims      []claim
	userPaths   map[string]bool // paths the user named (bounded)
	userTurns   int
	interrupted bool // the user interrupted the agent: the next user turn redirects it
}

// New returns a scanner that has seen no event.
func New() *Scanner {
	return &Scanner{secretIdx: map[string]int{}, paths: map[string]*pathInfo{}, seen: map[string]bool{}, userPaths: map[string]bool{}}
}

// Add scans the event at idx (0-based, in order).
func (s *Scanner) Add(idx int, e Event) {
	text := stripANSI(stripTrimMarker(e.Text))
	args := stripANSI(string(e.Args))
	s.secretTokens(idx, text)
	if e.Kind == Call {
		s.secretTokens(idx, args)
		s.touch(idx, e.CallName, args)
	}
	if e.Kind == Result || strings.HasPrefix(text, "[earlier compaction summary]") {
		return
	}
	if len(text) > maxScanChars {
		text = text[:maxScanChars]
	}
	switch e.Role {
	case scenarios.RoleUser:
		if isInterrupt(text) {
			s.interrupted = true
			return
		}
		if s.userTurns > 0 {
			// A sentence that refutes a claim is not also a correction;
			// the rest of the turn may be.
			if denial := s.refutes(idx, text); denial != "" {
				s.valueCorrection(idx, strings.Replace(text, denial, "", 1))
			} else {
				s.correction(idx, text, s.interrupted)
			}
		}
		s.userTurns++
		s.interrupted = false
		for _, p := range pathTokens(text) {
			if len(s.userPaths) < MaxPaths {
				s.userPaths[p] = true
			}
		}
		s.rules(idx, text)
		s.quantity(idx, text)
	case scenarios.RoleSystem:
		s.rules(idx, text)
		s.quantity(idx, text)
	case scenarios.RoleAssistant:
		s.claim(idx, text)
	}
}

var trimMarker = lazyre.New(`…\[trimmed \d+ chars\]$`)

// stripTrimMarker removes the marker --max-event-chars adds, so suggestions
// are drawn only from the text the event keeps.
func stripTrimMarker(s string) string {
	if !strings.HasSuffix(s, " chars]") {
		return s
	}
	if loc := trimMarker.FindStringIndex(s); loc != nil {
		return s[:loc[0]]
	}
	return s
}

// ansiRE matches terminal escape sequences, raw (ESC [ … final byte, ESC ]
// … BEL) or as text ("\e[22m", "\033[0m", "\x1b[1;31m", "\u001b[0m").
var ansiRE = lazyre.New(`(?:\x1b|\\e|\\033|\\x1[bB]|\\u001[bB])(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\))`)

// stripANSI removes terminal escape sequences.
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") && !strings.Contains(s, `\`) {
		return s
	}
	return ansiRE.ReplaceAllString(s, "")
}

// isInterrupt reports a user event that only records an interruption.
func isInterrupt(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range []string{"[Request interrupted by user", "<turn_aborted>", "[Interrupted by user"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// ---- constraints ----

var (
	// readOnlyRE finds a read-only rule in folded lower-case text.
	readOnlyRE = lazyre.New(`\bread[- ]?only\b|\bsolo lectura\b`)
	// leadRE is a clause that opens with an imperative marker.
	leadRE = lazyre.New(`^(?:(?:please|and|also|then|but|y|pero|ademas|por favor),? )?(do not|don't|dont|never|always|only|make sure|ensure|nunca|jamas|siempre|solo|solamente|unicamente|no)\b`)
	// strongLeadRE is a marker that opens a rule even after "and".
	strongLeadRE = lazyre.New(`^(?:do not|don't|dont|never|always|nunca|jamas|siempre)\b`)
	// onlyRE is "only" restricting an instruction: "use the key only for
	// staging".
	onlyRE = lazyre.New(`\b(only|solo|solamente|unicamente)\s+(for|in|on|from|under|with|to|within|inside|para|en|con|desde|dentro)\b`)
	// modalRE is a modal that makes a clause a rule wherever it stands.
	modalRE = lazyre.New(`\b(must not|mustn't|must|shall not|shall|should never|is not allowed|are not allowed|is forbidden|are forbidden|is off limits|are off limits|is off-limits|are off-limits|no debe|no debes|debe|debes|esta prohibido|tiene que|hay que)\b`)
	// notVerb are words after "only" or a Spanish "no" that show a
	// description, not an instruction ("only has", "no esta").
	notVerb = map[string]bool{
		"the": true, "a": true, "an": true, "this": true, "these": true, "that": true, "those": true, "one": true,
		"has": true, "have": true, "is": true, "are": true, "was": true, "were": true, "had": true, "if": true,
		"when": true, "for": true, "in": true, "on": true, "at": true, "to": true, "after": true, "some": true,
		"esta": true, "estan": true, "es": true, "son": true, "era": true, "hay": true, "tiene": true, "el": true,
		"la": true, "los": true, "las": true, "un": true, "una": true, "lo": true, "se": true, "me": true, "funciona": true,
	}
	// stopTail are words a pattern does not end with.
	stopTail = map[string]bool{
		"the": true, "a": true, "an": true, "to": true, "of": true, "in": true, "on": true, "at": true, "for": true,
		"and": true, "or": true, "with": true, "after": true, "before": true, "under": true, "over": true, "than": true,
		"el": true, "la": true, "los": true, "las": true, "de": true, "del": true, "en": true, "y": true, "o": true,
		"un": true, "una": true, "que": true, "con": true, "por": true, "para": true, "this": true, "that": true,
		"these": true, "those": true, "este": true, "esta": true, "es": true, "is": true, "are": true,
	}
)

// rules finds imperative rules in user and system text, in either polarity
// ("never X", "always Y", "X must remain Z", "only use W", Spanish too).
func (s *Scanner) rules(idx int, text string) {
	for _, sent := range SplitSentences(text) {
		if len(s.constraints) >= maxConstraints {
			return
		}
		if strings.HasSuffix(sent, "?") || looksLikeOutput(sent) {
			continue
		}
		folded := strings.ToLower(textmatch.Fold(sent))
		for _, clause := range splitClauses(folded) {
			pattern := rulePattern(clause)
			if pattern == "" || s.seen["c:"+pattern] {
				continue
			}
			s.seen["c:"+pattern] = true
			s.constraints = append(s.constraints, Constraint{Idx: idx, Sentence: sent, Pattern: pattern})
			if len(s.constraints) >= maxConstraints {
				return
			}
		}
	}
}

// looksLikeOutput reports a sentence that is a program's output pasted or
// echoed, not an instruction.
func looksLikeOutput(sent string) bool {
	l := strings.ToLower(sent)
	for _, m := range []string{"no such file", "command not found", "permission denied", "not found:", "traceback (most recent", "exit code", "exit status"} {
		if strings.Contains(l, m) {
			return true
		}
	}
	return false
}

// splitClauses splits folded text at ";" and ":" (not inside backticks),
// and at ", " before a new imperative.
func splitClauses(s string) []string {
	var out []string
	start, tick := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '`':
			tick = !tick
		case !tick && (c == ';' || c == ':' && (i+1 == len(s) || s[i+1] == ' ')):
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		case !tick && c == ',' && i+1 < len(s) && leadRE.MatchString(strings.TrimSpace(s[i+1:])):
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		case !tick && c == ' ':
			// "rename a to b and never touch vendor/": a rule after a
			// conjunction starts a clause of its own.
			for _, conj := range []string{" and ", " but ", " y ", " pero ", " or "} {
				if strings.HasPrefix(s[i:], conj) && strongLeadRE.MatchString(s[i+len(conj):]) {
					out = append(out, strings.TrimSpace(s[start:i]))
					start = i + len(conj)
					i += len(conj) - 1
					break
				}
			}
		}
	}
	out = append(out, strings.TrimSpace(s[start:]))
	return out
}

// rulePattern returns the pattern of the rule a folded clause states, or "".
func rulePattern(clause string) string {
	if readOnlyRE.MatchString(clause) {
		if strings.Contains(readOnlyRE.FindString(clause), "lectura") {
			return `solo lectura`
		}
		return `read[- ]?only`
	}
	if m := leadRE.FindStringSubmatchIndex(clause); m != nil {
		marker := clause[m[2]:m[3]]
		rest := strings.Fields(strings.ReplaceAll(clause[m[3]:], "`", ""))
		if len(rest) == 0 || strings.HasPrefix(clause[m[3]:], ",") {
			return "" // a bare "no", "never", or "No, …" as an answer
		}
		if (marker == "only" || marker == "solo" || marker == "no") && notVerb[trimWord(rest[0])] {
			return "" // "only the tests fail", "no esta lleno": a description
		}
		if marker == "no" && len(rest) < 2 {
			return ""
		}
		return phrase(append(strings.Fields(marker), rest...), len(strings.Fields(marker))+4)
	}
	if loc := onlyRE.FindStringIndex(clause); loc != nil && directive(clause) {
		return phrase(strings.Fields(strings.ReplaceAll(clause[loc[0]:], "`", "")), 4)
	}
	if loc := modalRE.FindStringIndex(clause); loc != nil {
		if quantityRE.MatchString(clause) {
			return "" // "must time out after 30 s": the quantity says it better
		}
		before := strings.Fields(strings.ReplaceAll(clause[:loc[0]], "`", ""))
		if len(before) > 2 {
			before = before[len(before)-2:]
		}
		for len(before) > 0 && stopTail[trimWord(before[0])] {
			before = before[1:] // "the write endpoints" -> "write endpoints"
		}
		modal := strings.Fields(clause[loc[0]:loc[1]])
		after := strings.Fields(strings.ReplaceAll(clause[loc[1]:], "`", ""))
		if len(before) == 0 && len(after) == 0 {
			return ""
		}
		all := append(append(before, modal...), after...)
		return phrase(all, len(before)+len(modal)+3)
	}
	return ""
}

func trimWord(w string) string { return strings.Trim(w, ".,;:!?()[]{}\"'") }

// phrase joins up to n words, drops trailing stop words and punctuation,
// and quotes it as a pattern.
func phrase(words []string, n int) string {
	if len(words) > n {
		words = words[:n]
	}
	for i, w := range words {
		words[i] = strings.TrimRight(w, ",;!?()\"'")
	}
	for len(words) > 1 && (stopTail[trimWord(words[len(words)-1])] || trimWord(words[len(words)-1]) == "") {
		words = words[:len(words)-1]
	}
	p := strings.TrimRight(strings.Join(words, " "), ".:")
	if len(strings.Fields(p)) < 2 {
		return ""
	}
	return regexp.QuoteMeta(p)
}

// SplitSentences splits text at sentence ends (". ", "! ", "? ", "; ") and
// line breaks; a dot inside a word (a file name, a version) does not end a
// sentence.
func SplitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := c == '\n' || ((c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n'))
		if !end {
			continue
		}
		if t := strings.TrimSpace(text[start : i+1]); len(t) > 1 {
			out = append(out, t)
		}
		start = i + 1
	}
	if t := strings.TrimSpace(text[start:]); len(t) > 1 {
		out = append(out, t)
	}
	return out
}

// ---- corrections ----

// A value in a correction: text up to a clause end, where a dot followed by
// a non-space (a file name, a version) does not end it.
const valuePart = `(?:[^,;!?.\s]|\.[^\s,;!?.]|\s)`

var (
	notButRE      = lazyre.New(`(?i)\bnot\s+(` + valuePart + `{1,40}?),?\s+but\s+(` + valuePart + `{1,40})`)
	sinoRE        = lazyre.New(`(?i)\bno\s+(?:es\s+|son\s+|era\s+)?(` + valuePart + `{1,40}?),?\s+sino\s+(?:que\s+)?(` + valuePart + `{1,40})`)
	numNotRE      = lazyre.New(`(?i)(\d[\d.,]*\s?[a-z%/°€]{0,6}),\s+(?:not|no)\s+(\d[\d.,]*\s?[a-z%/°€]{0,6})\b`)
	xNotYRE       = lazyre.New(`(?i)((?:[^,;!?.]|\.\S)*\S),\s+(?:not|no)\s+(?:the\s+|el\s+|la\s+)?(\S+?)[.:;!?]?(?:\s|$)`)
	insteadOfRE   = lazyre.New(`(?i)\b(` + valuePart + `{1,40}?)\s+instead\s+of\s+(` + valuePart + `{1,40})`)
	correctionRE  = lazyre.New(`(?i)(?:^|[.!?;:,]\s+|\n)(actually|wait|hold on|correction|scratch that|i meant|en realidad|correcci[oó]n|quise decir|perd[oó]n|espera|mejor)\b[,:]?\s*(` + valuePart + `{1,120})`)
	insteadTailRE = lazyre.New(`(?i)^(` + valuePart + `{3,120}?)\s+(?:instead|en su lugar|en vez de eso)\b`)
)

// correction finds a user turn that redirects the agent: "actually …",
// "wait, …", "not X but Y", "Y, not X", "Y instead of X", "… instead",
// Spanish "no X sino Y", "en realidad …", and any turn that follows an
// interruption.
func (s *Scanner) correction(idx int, text string, afterInterrupt bool) {
	if len(s.corrections) >= maxCorrections {
		return
	}
	flat := strings.Join(strings.Fields(text), " ")
	add := func(old, new string) {
		old, new = cleanValue(old), cleanValue(new)
		if new == "" {
			return
		}
		if old == "" {
			old = "TODO(author): the value or plan it replaces"
		}
		key := "r:" + strings.ToLower(old) + "\x00" + strings.ToLower(new)
		if s.seen[key] {
			return
		}
		s.seen[key] = true
		s.corrections = append(s.corrections, Correction{Idx: idx, Old: old, New: new, Text: flat})
	}
	if m := notButRE.FindStringSubmatch(flat); m != nil {
		add(m[1], m[2])
		return
	}
	if m := sinoRE.FindStringSubmatch(flat); m != nil {
		add(m[1], m[2])
		return
	}
	if m := insteadOfRE.FindStringSubmatch(flat); m != nil {
		add(m[2], lastWords(m[1], 6))
		return
	}
	m := correctionRE.FindStringSubmatch(flat)
	if m == nil && !afterInterrupt {
		if t := insteadTailRE.FindStringSubmatch(flat); t != nil {
			add("", t[1])
		} else if x := xNotYRE.FindStringSubmatch(flat); x != nil && valueLike(x[2]) {
			add(s.widen(x[2], like(x[1], x[2])), like(x[1], x[2]))
		}
		return
	}
	if x := numNotRE.FindStringSubmatch(flat); x != nil {
		add(x[2], x[1])
		return
	}
	if x := xNotYRE.FindStringSubmatch(flat); x != nil {
		add(s.widen(x[2], like(x[1], x[2])), like(x[1], x[2]))
		return
	}
	if m != nil {
		body := m[2]
		if t := insteadTailRE.FindStringSubmatch(body); t != nil {
			add("", t[1])
			return
		}
		switch strings.ToLower(m[1]) {
		case "wait", "hold on", "espera", "mejor":
			if !afterInterrupt && !directive(body) {
				return // "wait, the log also prints X": an aside, not a redirection
			}
		}
		add("", body)
		return
	}
	add("", firstClause(flat))
}

// valueCorrection finds only an explicit value correction ("Y, not X",
// "not X but Y"): what is left of a turn that refuted a claim.
func (s *Scanner) valueCorrection(idx int, text string) {
	flat := strings.Join(strings.Fields(text), " ")
	if notButRE.MatchString(flat) || sinoRE.MatchString(flat) || numNotRE.MatchString(flat) {
		s.correction(idx, text, false)
		return
	}
	if x := xNotYRE.FindStringSubmatch(flat); x != nil && valueLike(x[2]) {
		s.correction(idx, text, false)
	}
}

// valueLike reports a word that looks like a value (a number, a version, a
// name with '-', '.', '/' or '_'), not a plain word.
func valueLike(w string) bool {
	return strings.ContainsAny(cleanValue(w), "0123456789-./_")
}

// like returns the word of clause that the new value is: the last one
// that shares a prefix with old ("staging-eu" for "staging"), else, when
// old has digits, dashes, dots or slashes, the last word shaped like it
// ("eu-west-1" for "eu-central-1"), else the last word.
func like(clause, old string) string {
	words := strings.Fields(clause)
	if len(words) == 0 {
		return ""
	}
	old = cleanValue(old)
	for i := len(words) - 1; i >= 0; i-- {
		w := cleanValue(words[i])
		if n := commonPrefix(strings.ToLower(w), strings.ToLower(old)); n >= 3 && w != old {
			return w
		}
	}
	shape := func(w string) [4]bool {
		return [4]bool{strings.ContainsAny(w, "0123456789"), strings.Contains(w, "-"), strings.Contains(w, "."), strings.Contains(w, "/")}
	}
	want := shape(old)
	if want != [4]bool{} {
		for i := len(words) - 1; i >= 0; i-- {
			w := cleanValue(words[i])
			got := shape(w)
			if got == want || (want[2] && got[2]) || (want[0] && got[0] && want[1] == got[1]) {
				return w
			}
		}
	}
	return cleanValue(words[len(words)-1])
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// directive reports a clause that starts with a verb (an instruction), not
// with an article or a pronoun (a description).
func directive(body string) bool {
	f := strings.Fields(strings.ToLower(textmatch.Fold(body)))
	if len(f) == 0 {
		return false
	}
	w := trimWord(f[0])
	return !notVerb[w] && !map[string]bool{"it": true, "it's": true, "i": true, "i'm": true, "we": true, "you": true, "they": true, "he": true, "she": true, "there": true, "ok": true, "okay": true}[w]
}

// widen turns a fragment ("the .bak") into the touched path it stands for,
// when one ends with it and shares a stem with the new value.
func (s *Scanner) widen(old, new string) string {
	old = cleanValue(old)
	if !strings.HasPrefix(old, ".") {
		return old
	}
	best := ""
	for p := range s.paths {
		if strings.HasSuffix(p, old) && strings.HasPrefix(p, cleanValue(new)) && (best == "" || p < best) {
			best = p
		}
	}
	if best == "" {
		return old
	}
	return best
}

func cleanValue(v string) string {
	v = strings.TrimSpace(v)
	v = strings.TrimRight(v, ".:;,!?")
	v = strings.Trim(v, "`\"'")
	return strings.TrimSpace(v)
}

func lastWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[len(f)-n:]
	}
	return strings.Join(f, " ")
}

func firstClause(s string) string {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(".;!?", s[i]) >= 0 && (i+1 == len(s) || s[i+1] == ' ') {
			return s[:i]
		}
	}
	return s
}

// ---- refuted hypotheses ----

var (
	// claimRE marks an assistant statement that is a guess or a diagnosis.
	claimRE = lazyre.New(`(?i)\b(i think|i suspect|i believe|probably|likely|my guess|it(?:'s| is) (?:a|an|the)|the (?:cause|problem|issue|culprit|bug) is|seems|must be|creo que|probablemente|sospecho|parece que|seguramente|el problema es)\b`)
	// denyRE marks a user turn that denies something.
	denyRE = lazyre.New(`(?i)(?:^(?:no|nope|wrong|incorrect)\b[,.!]?|\b(?:is not|isn't|was not|wasn't|are not|aren't|not a|not the|not an|that's not|it's not|no es|no esta|no son|no fue|no era)\b)`)
	// stopWords are left out when comparing a claim with a denial.
	stopWords = map[string]bool{
		"this": true, "that": true, "with": true, "from": true, "have": true, "will": true, "into": true, "then": true,
		"there": true, "their": true, "they": true, "what": true, "when": true, "which": true, "because": true, "after": true,
		"before": true, "should": true, "would": true, "could": true, "think": true, "probably": true, "likely": true,
		"suspect": true, "seems": true, "first": true, "check": true, "checking": true, "look": true, "let's": true,
		"esta": true, "este": true, "creo": true, "para": true, "pero": true, "porque": true, "como": true, "problema": true,
		"also": true, "just": true, "only": true, "every": true, "still": true, "instead": true, "again": true, "it's": true,
	}
)

// claim remembers an assistant statement that states a guess.
func (s *Scanner) claim(idx int, text string) {
	for _, sent := range SplitSentences(text) {
		if !claimRE.MatchString(sent) {
			continue
		}
		words := contentWords(sent)
		if len(words) == 0 {
			continue
		}
		s.claims = append(s.claims, claim{idx: idx, text: sent, words: words})
		if len(s.claims) > maxClaims {
			s.claims = s.claims[1:]
		}
	}
}

func contentWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(textmatch.Fold(s)), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '\'')
	}) {
		if len(w) >= 4 && !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// refutes records a user turn that denies an earlier assistant claim (a
// denial that shares the claim's key words) and returns the denying
// sentence, or "".
func (s *Scanner) refutes(idx int, text string) string {
	if len(s.refuted) >= maxRefuted || len(s.claims) == 0 {
		return ""
	}
	for _, sent := range SplitSentences(text) {
		if !denyRE.MatchString(sent) {
			continue
		}
		denied := map[string]bool{}
		for _, w := range contentWords(sent) {
			denied[w] = true
		}
		for i := len(s.claims) - 1; i >= 0; i-- {
			c := s.claims[i]
			// The longest run of the claim's content words that the denial
			// repeats; one short word alone is too weak a link.
			bestAt, bestLen := -1, 0
			for k := 0; k < len(c.words); k++ {
				n := 0
				for k+n < len(c.words) && denied[c.words[k+n]] {
					n++
				}
				if n > bestLen {
					bestAt, bestLen = k, n
				}
			}
			if bestLen == 0 || (bestLen == 1 && len(c.words[bestAt]) < 6) {
				continue
			}
			run := c.words[bestAt : bestAt+min(bestLen, 2)] // short: a summary paraphrases
			quoted := make([]string, len(run))
			for k, w := range run {
				quoted[k] = regexp.QuoteMeta(w)
			}
			pattern := strings.Join(quoted, ".{0,12}")
			if s.seen["h:"+pattern] {
				return sent
			}
			s.seen["h:"+pattern] = true
			s.refuted = append(s.refuted, Refuted{ClaimIdx: c.idx, ByIdx: idx, Claim: c.text, By: sent, Pattern: pattern})
			s.claims = append(s.claims[:i], s.claims[i+1:]...)
			return sent
		}
	}
	return ""
}

// ---- quantities ----

var quantityRE = lazyre.New(`(?i)(?:^|[^\w.,/'-])(\d{1,3}(?:,\d{3})+|\d+(?:[.,]\d+)?)\s?(%|percent|por ciento|ms|milliseconds?|milisegundos?|seconds?|secs?|segundos?|s|minutes?|minutos?|mins?|hours?|horas?|h|days?|d[ií]as?|tokens?|kib|mib|gib|kb|mb|gb|tb|bytes?|req/s|rps|qps|usd|eur|€|°c|ms/op)(?:[^\w%/]|$)`)

// codeRE matches code spans and fenced blocks, which hold commands, not
// prose.
var codeRE = lazyre.New("(?s)```.*?```|`[^`\n]*`")

// quantity finds numbers with units in the prose of user and system text:
// never in code spans, fenced blocks or lines that are shell commands.
func (s *Scanner) quantity(idx int, text string) {
	text = codeRE.ReplaceAllString(text, " ")
	for _, line := range strings.Split(text, "\n") {
		if isCommandLine(line) {
			continue
		}
		for _, m := range quantityRE.FindAllStringSubmatch(line, -1) {
			if len(s.quantities) >= maxQuantities {
				return
			}
			num := m[1]
			if strings.Count(num, ",") >= 1 && len(num) > 4 && num[len(num)-4] == ',' {
				num = strings.ReplaceAll(num, ",", "")
			} else {
				num = strings.ReplaceAll(num, ",", ".")
			}
			v, err := strconv.ParseFloat(num, 64)
			if err != nil {
				continue
			}
			unit := strings.ToLower(m[2])
			key := "q:" + strconv.FormatFloat(v, 'g', -1, 64) + unit
			if s.seen[key] {
				continue
			}
			s.seen[key] = true
			s.quantities = append(s.quantities, Quantity{Idx: idx, Value: v, Unit: unit, Raw: strings.TrimSpace(strings.Trim(m[0], " ,.;:()"))})
		}
	}
}

// commandRE is a line that is a shell command.
var commandRE = lazyre.New(`^\s*(?:\$ |# |sudo |sed |awk |grep |find |xargs |sleep |timeout |curl |kubectl |docker |git |go |npm |make |python3? |bash |sh )`)

func isCommandLine(line string) bool { return commandRE.MatchString(line) }

// ---- secrets ----

// tokens splits text into key-like tokens with a byte loop (no regular
// expression: this runs over every byte of the log).
func (s *Scanner) secretTokens(idx int, text string) {
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && tokenBytes[text[i]] {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if n := i - start; n >= 19 && n <= 300 {
				s.secretToken(idx, text[start:i])
			}
			start = -1
		}
	}
}

// tokenBytes marks the bytes that may appear in a path or a key.
var tokenBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == '.' || c == '/' || c == '-' || c == '+' || c == '=' || c == '~'
	}
	return t
}()

func (s *Scanner) secretToken(idx int, tok string) {
	tok = strings.TrimRight(tok, ".")
	if i := strings.IndexByte(tok, '='); i > 0 && i < len(tok)-1 && tok[i+1] != '=' {
		// NAME=value: look at both sides.
		s.secretToken(idx, tok[:i])
		s.secretToken(idx, tok[i+1:])
		return
	}
	if !isSecret(tok) {
		return
	}
	if _, ok := s.secretIdx[tok]; !ok && len(s.secrets) < maxSecrets {
		s.secretIdx[tok] = idx
		s.secrets = append(s.secrets, tok)
	}
}

var secretPrefixes = []string{"sk-ant-", "sk-proj-", "sk-", "sk_live_", "sk_test_", "rk_live_", "whsec_", "ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "glpat-", "AKIA", "ASIA", "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "AIza", "hf_", "npm_"}

// idPrefixes start identifiers that APIs hand out (messages, requests,
// calls, threads, runs, events): random-looking, but not secrets.
var idPrefixes = []string{"msg", "req", "call", "toolu", "tool", "chatcmpl", "resp", "run", "thr", "thread", "asst",
	"file", "evt", "event", "span", "trace", "cus", "ch", "pi", "in", "sub", "prod", "price", "batch", "job", "step",
	"conv", "sess", "session", "user", "org", "proj", "item", "fc", "ws", "rs", "cmpl", "id", "uuid", "res", "tx", "txn"}

// isSecret reports a known key prefix followed by enough key characters, or
// a high-entropy token of at least 24 characters that is not an API's
// identifier (msg_…, req_…, call_…).
func isSecret(tok string) bool {
	for _, p := range secretPrefixes {
		if strings.HasPrefix(tok, p) && len(tok) >= len(p)+16 && !strings.ContainsAny(tok, "./~") {
			return true
		}
	}
	if len(tok) < 24 || strings.ContainsAny(tok, ".~") || strings.HasPrefix(tok, "/") || isIDLike(tok) {
		return false
	}
	var upper, lower, digit bool
	hex := true
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
			hex = hex && c <= 'F'
		case c >= 'a' && c <= 'z':
			lower = true
			hex = hex && c <= 'f'
		case c >= '0' && c <= '9':
			digit = true
		case c == '-', c == '/', c == '+':
			hex = false
		default:
			hex = false
		}
	}
	if hex || !upper || !lower || !digit {
		return false // digests, uuids and words are not keys
	}
	return entropy(tok) >= 4.0
}

// isIDLike reports "prefix_RANDOM" or "prefix-RANDOM" with a lower-case
// identifier prefix that APIs use for object ids.
func isIDLike(tok string) bool {
	i := strings.IndexAny(tok, "_-")
	if i <= 0 || i > 10 {
		return false
	}
	p := tok[:i]
	for _, q := range idPrefixes {
		if p == q {
			return true
		}
	}
	return false
}

// entropy is the Shannon entropy of s's bytes, in bits per byte.
func entropy(s string) float64 {
	var freq [256]int
	for i := 0; i < len(s); i++ {
		freq[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, f := range freq {
		if f > 0 {
			p := float64(f) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// ---- paths ----

// editTools are tool names that write the file they name.
var editToolRE = lazyre.New(`(?i)edit|write|patch|replace|create|insert|str_replace|apply|save|rename|move|delete`)

// writeCommandRE marks a shell command that writes the files it names.
var writeCommandRE = lazyre.New(`(?:\bsed\s+(?:-[a-zA-Z]*i|--in-place)|\btee\b|>>?\s*\S|\bmv\b|\bcp\b|\brm\b|\btouch\b|\bgit\s+mv\b|\bpatch\b|\bperl\s+-[a-z]*i)`)

// writeWords are what writeCommandRE needs one of; mayWrite checks them
// first, since most commands hold none and the pattern is slow to rule out.
var writeWords = []string{">", "sed", "tee", "mv", "cp", "rm", "touch", "patch", "perl"}

func mayWrite(args string) bool {
	for _, w := range writeWords {
		if strings.Contains(args, w) {
			return true
		}
	}
	return false
}

// patchFileRE names the files an apply_patch input changes.
var patchFileRE = lazyre.New(`\*\*\* (?:Update|Add|Delete) File: (\S+)`)

// touch records the paths a tool call names in its arguments: read,
// written, edited or executed. Paths that only appear in tool output (a
// listing, a grep) are not touched.
func (s *Scanner) touch(idx int, name, args string) {
	if args == "" {
		return
	}
	writes := editToolRE.MatchString(name) || mayWrite(args) && writeCommandRE.MatchString(args) || strings.Contains(args, `"old_string"`) ||
		strings.Contains(args, `"new_str`) || strings.Contains(args, `"content"`)
	var edited map[string]bool
	if strings.Contains(args, "*** ") {
		edited = map[string]bool{}
		for _, m := range patchFileRE.FindAllStringSubmatch(args, -1) {
			edited[m[1]] = true
		}
	}
	for _, tok := range pathTokens(args) {
		info, ok := s.paths[tok]
		if !ok {
			if len(s.paths) >= MaxPaths {
				s.pathsFull = true
				continue
			}
			info = &pathInfo{first: idx, order: len(s.paths), edited: -1}
			s.paths[tok] = info
		}
		info.last = idx
		if writes || edited[tok] {
			info.edited = idx
		}
	}
}

// pathTokens returns the whole path tokens of text: a path is cut only at
// characters that cannot be part of it, never inside "root.html.heex".
func pathTokens(text string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && pathBytes[text[i]] {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			tok := strings.TrimRight(text[start:i], ".-")
			if i < len(text) && text[i] == '(' {
				tok = "" // a call: console.log(…)
			}
			if strings.HasPrefix(tok, "a/") || strings.HasPrefix(tok, "b/") {
				tok = tok[2:] // a diff's prefixes
			}
			if len(tok) >= 4 && len(tok) <= 300 && isPath(tok) {
				out = append(out, tok)
			}
			start = -1
		}
	}
	return out
}

// pathBytes marks the bytes that may appear in a path.
var pathBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == '.' || c == '/' || c == '-' || c == '+' || c == '~' || c == '@'
	}
	return t
}()

var pathExts = map[string]bool{
	"go": true, "py": true, "js": true, "ts": true, "tsx": true, "jsx": true, "rs": true, "c": true, "h": true,
	"cc": true, "cpp": true, "hpp": true, "java": true, "kt": true, "rb": true, "php": true, "cs": true, "swift": true,
	"sh": true, "bash": true, "zsh": true, "ps1": true, "sql": true, "yaml": true, "yml": true, "json": true,
	"jsonl": true, "toml": true, "ini": true, "cfg": true, "conf": true, "env": true, "md": true, "txt": true,
	"rst": true, "csv": true, "tsv": true, "log": true, "html": true, "css": true, "scss": true, "xml": true,
	"lock": true, "mod": true, "sum": true, "proto": true, "tf": true, "gradle": true, "pem": true, "crt": true,
	"key": true, "bak": true, "orig": true, "tmp": true, "db": true, "sqlite": true, "parquet": true, "ipynb": true,
	"vue": true, "svelte": true, "dockerfile": true, "mk": true, "patch": true, "diff": true, "pdf": true, "png": true,
	"ex": true, "exs": true, "heex": true, "eex": true, "leex": true, "erl": true, "hs": true, "ml": true, "scala": true,
	"lua": true, "pl": true, "r": true, "jl": true, "dart": true, "tsv.gz": true, "gz": true, "zip": true, "tar": true,
}

// memberStems are object names whose ".log", ".env", ".path" are member
// accesses in code, not files.
var memberStems = map[string]bool{
	"console": true, "process": true, "window": true, "document": true, "module": true, "exports": true,
	"self": true, "this": true, "os": true, "sys": true, "math": true, "json": true, "req": true, "res": true,
	"request": true, "response": true, "logger": true, "ctx": true, "import": true, "object": true, "array": true,
	"string": true,
}

// isPath reports a token that names a file: an absolute, relative or home
// path, or a name whose extensions include a known one ("root.html.heex").
func isPath(tok string) bool {
	if strings.HasPrefix(tok, "//") || strings.Contains(tok, "...") || strings.Contains(tok, "://") ||
		strings.ContainsAny(tok, "+=@") {
		return false
	}
	letter := false
	for i := 0; i < len(tok); i++ {
		c := tok[i] | 0x20
		if c >= 'a' && c <= 'z' {
			letter = true
			break
		}
	}
	if !letter {
		return false
	}
	for _, p := range []string{"/", "./", "../", "~/"} {
		if strings.HasPrefix(tok, p) && len(tok) > len(p)+1 {
			return true
		}
	}
	slash := strings.LastIndexByte(tok, '/')
	base := tok[slash+1:]
	dot := strings.IndexByte(base, '.')
	if dot <= 0 || dot == len(base)-1 {
		return false
	}
	// Some extension is a known one, and the last is known or a number
	// (app.log.1): process.env.NODE_ENV is not a file.
	exts := strings.Split(base[dot+1:], ".")
	known := false
	for _, ext := range exts {
		known = known || pathExts[strings.ToLower(ext)]
	}
	last := strings.ToLower(exts[len(exts)-1])
	if !known || !pathExts[last] && strings.Trim(last, "0123456789") != "" {
		return false
	}
	if slash < 0 && len(exts) == 1 && memberStems[strings.ToLower(base[:dot])] {
		return false // console.log, process.env
	}
	return true
}

// ArtifactGroups returns groups of near-twin paths among the paths tool
// calls touched: at an edit distance of 2 or less (names of 5 characters or
// more), equal but for the extension, or one the other with a suffix
// (".bak", ".1"). Each group lists its paths in order of first sight.
func (s *Scanner) ArtifactGroups() [][]string {
	type item struct {
		path string
		info *pathInfo
	}
	items := make([]item, 0, len(s.paths))
	for p, info := range s.paths {
		items = append(items, item{p, info})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].info.order < items[j].info.order })
	parent := make([]int, len(items))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := range items {
		for j := i + 1; j < len(items); j++ {
			if twins(items[i].path, items[j].path) {
				parent[find(j)] = find(i)
			}
		}
	}
	groups := map[int][]string{}
	var roots []int
	for i, it := range items {
		r := find(i)
		if _, ok := groups[r]; !ok {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], it.path)
	}
	var out [][]string
	for _, r := range roots {
		if len(groups[r]) > 1 && len(out) < maxArtifactSets && s.matters(groups[r]) {
			out = append(out, groups[r])
		}
	}
	return out
}

// matters reports a group where the choice matters: the session edited one
// of the paths, the user named one, or separate calls touched them. Two
// rotated logs that one grep read are not an artifact to keep straight.
func (s *Scanner) matters(group []string) bool {
	calls := map[int]bool{}
	for _, p := range group {
		info := s.paths[p]
		if info.edited >= 0 || s.userPaths[p] {
			return true
		}
		calls[info.first], calls[info.last] = true, true
	}
	return len(calls) > 1 // touched by separate calls, not one command naming both
}

// Required picks the path of a group the session edited last, else the one
// it touched last.
func (s *Scanner) Required(group []string) (string, int, bool) {
	best, bestIdx, edited := group[0], -1, false
	for _, p := range group {
		if info := s.paths[p]; info.edited > bestIdx || !edited && info.edited < 0 && info.last > bestIdx {
			if info.edited >= 0 {
				best, bestIdx, edited = p, info.edited, true
			} else if !edited {
				best, bestIdx = p, info.last
			}
		}
	}
	return best, bestIdx, edited
}

func twins(a, b string) bool {
	if sa, sb := stripExt(a), stripExt(b); sa == sb && sa != a && sb != b {
		return true
	}
	if strings.HasPrefix(b, a+".") || strings.HasPrefix(a, b+".") {
		return true // a backup or a rotated copy: x and x.bak, x.1
	}
	if len(a) < 5 || len(b) < 5 || abs(len(a)-len(b)) > 2 {
		return false
	}
	return withinDistance(a, b, 2)
}

func stripExt(p string) string {
	base := strings.LastIndexByte(p, '/') + 1
	if dot := strings.LastIndexByte(p[base:], '.'); dot > 0 {
		return p[:base+dot]
	}
	return p
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// withinDistance reports whether the Levenshtein distance of a and b is at
// most k, computing only the diagonal band and stopping early.
func withinDistance(a, b string, k int) bool {
	if a == b {
		return true
	}
	const inf = 1 << 20
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		for j := range cur {
			cur[j] = inf
		}
		if lo == 1 {
			cur[0] = i
		}
		best := cur[0]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := prev[j-1] + cost
			if prev[j]+1 < v {
				v = prev[j] + 1
			}
			if cur[j-1]+1 < v {
				v = cur[j-1] + 1
			}
			cur[j] = v
			if v < best {
				best = v
			}
		}
		if best > k {
			return false
		}
		prev, cur = cur, prev
	}
	return prev[len(b)] <= k
}

// Quantities returns the quantities that no later correction replaced: a
// value the user corrected ("the timeout is 45 s, not 30 s") is not one a
// summary must keep.
func (s *Scanner) Quantities() []Quantity {
	var out []Quantity
	for _, q := range s.quantities {
		replaced := false
		for _, c := range s.corrections {
			if c.Idx > q.Idx && strings.Contains(strings.ToLower(textmatch.Fold(c.Old)), strings.ToLower(textmatch.Fold(q.Raw))) {
				replaced = true
			}
		}
		if !replaced {
			out = append(out, q)
		}
	}
	return out
}

// HoldsEvidence reports whether a sentence holds what a suggestion checks:
// a constraint's pattern, a quantity, a correction's value, a secret, a
// path of a near-twin group.
func (s *Scanner) HoldsEvidence(sent string) bool {
	folded := strings.ToLower(textmatch.Fold(sent))
	for _, c := range s.constraints {
		if _, ok := textmatch.Find(c.Pattern, folded); ok {
			return true
		}
	}
	for _, q := range s.quantities {
		if strings.Contains(sent, q.Raw) {
			return true
		}
	}
	for _, c := range s.corrections {
		if strings.Contains(folded, strings.ToLower(textmatch.Fold(c.New))) {
			return true
		}
	}
	for _, v := range s.secrets {
		if strings.Contains(sent, v) {
			return true
		}
	}
	for _, g := range s.ArtifactGroups() {
		for _, p := range g {
			if strings.Contains(sent, p) {
				return true
			}
		}
	}
	return false
}

// Constraints returns the rules found, in order of first statement.
func (s *Scanner) Constraints() []Constraint { return s.constraints }

// Corrections returns the corrections found, in order.
func (s *Scanner) Corrections() []Correction { return s.corrections }

// Refuted returns the refuted hypotheses found, in order.
func (s *Scanner) Refuted() []Refuted { return s.refuted }

// Secrets returns the key-like tokens found, in order of first sight.
func (s *Scanner) Secrets() []Secret {
	out := make([]Secret, len(s.secrets))
	for i, v := range s.secrets {
		out[i] = Secret{Value: v, Idx: s.secretIdx[v]}
	}
	return out
}

// PathsFull reports that more than MaxPaths distinct paths were seen:
// only the first MaxPaths were compared for artifacts.
func (s *Scanner) PathsFull() bool { return s.pathsFull }
