package suggest

import (
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
	// Status is a result's status (scenarios.StatusOK, StatusError,
	// StatusTimeout); CallIdx is the index of the call it answers, -1
	// when unknown.
	Status  string
	CallIdx int
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
	// ByTool marks a correction that a tool's error made (the event at Idx
	// is the error; Text its line): the agent retried with New for Old.
	ByTool bool
	// Subject is what was corrected when the session names it: the
	// argument a structured call's retries changed ("cabin"); "" when not.
	Subject string
	// ErrIdx is the old value's error when Idx is the call that replaced
	// it (a structured call's retries); 0 when Idx is the error itself.
	ErrIdx int
	// Named is the call's value that New, a part of it the user named
	// ("ending in 9725"), stands for, and NamedIdx that call (named.go);
	// "" when New is the value itself.
	Named    string
	NamedIdx int
}

// Refuted is an assistant claim (at ClaimIdx) that a later user turn (at
// ByIdx) denied; Pattern recognises the claim.
type Refuted struct {
	ClaimIdx, ByIdx int
	Claim, By       string
	Pattern         string
	// SelfIdx is the assistant turn that ruled the claim out itself, after
	// the tool output at ByIdx (-1 when a user denied it at ByIdx).
	SelfIdx int
}

// Quantity is a number with its unit, as written (Raw) in the event at Idx.
type Quantity struct {
	Idx   int
	Value float64
	Unit  string
	Raw   string
	// Subject is a pattern of what the figure measures, from the words
	// around it ("error\W+budget"); "" when its clause names nothing.
	Subject string
}

// Secret is a key-like token first seen in the event at Idx.
type Secret struct {
	Value string
	Idx   int
}

type pathInfo struct {
	first, last int    // event indexes of the calls that touched it
	order       int    // order of first sight
	edited      int    // index of the last call that wrote it, -1 when none
	spelled     string // how the session wrote it (see Scanner.spelled)
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
	userRule    []bool // per constraint: from a user turn or a task's scope
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
	interrupted bool              // the user interrupted the agent: the next user turn redirects it
	last        *lastCall         // the latest tool call
	failed      *failedCall       // a call whose result was an error, waiting for a retry
	lastResult  int               // index of the latest tool result, -1 before any
	listed      map[string]int    // paths seen only in tool output, by first index (bounded)
	listedAs    map[string]string // how tool output wrote each listed path
	root        string            // the session's working directory and "/", "" when unknown
	renames     [][2]string       // (from, to) of the calls that moved a file
	commands    map[string]bool   // tool names and shell commands the calls ran (bounded)
	// pushed counts, by kind, the suggestions a cap left out; pushedNames
	// names the first few.
	pushed        map[string]int
	pushedNames   map[string][]string
	artifactsOver int // near-twin groups past maxArtifactSets (set by ArtifactGroups)
	// sigs are the signatures of the calls awaiting a result, tried the
	// failures by signature, attempts the refuted attempts (attempts.go).
	sigs     map[int]callSig
	tried    map[string]*tries
	attempts []Attempt
	// ids are the identifiers the task depends on (ids.go).
	idSeen map[string]int
	// idByUser are the identifiers a user turn showed.
	idByUser map[string]bool
	ids      []ID
	// structCalls are the structured calls awaiting a result, chains the
	// failed tries of each tool, lastArgs each tool's last call, settle a
	// user's correction waiting for the calls that give its values
	// (retries.go).
	structCalls map[int]structCall
	chains      map[string]*retryChain
	lastArgs    map[string]structArgs
	settle      *settling
	// requests are the user's requests the calls after them may carry out,
	// reports what the agent said it did (unfinished.go).
	requests []request
	reqCalls map[int][]string
	reqNames map[int]string
	// partIDs are the ids a tool result showed beside each digit string,
	// named a user turn that named a value by a part (named.go).
	partIDs map[string][]string
	named   *namedPart
	// sets are the sets of ids tool results listed (listed.go).
	sets []listedSet
}

// maxPushedNames bounds the names kept of what a cap left out, per kind.
const maxPushedNames = 3

// pushOut records a suggestion of kind that a cap left out; name is what
// the author would recognise it by ("" to count it only: a secret).
func (s *Scanner) pushOut(kind, name string) {
	if s.pushed == nil {
		s.pushed, s.pushedNames = map[string]int{}, map[string][]string{}
	}
	s.pushed[kind]++
	if name != "" && len(s.pushedNames[kind]) < maxPushedNames {
		s.pushedNames[kind] = append(s.pushedNames[kind], name)
	}
}

// Capped is a kind of suggestion a cap on their number left out: how many,
// and the first few of them by name.
type Capped struct {
	Kind  string
	N     int
	Names []string
}

// Capped returns, in a fixed order of kinds, what the caps left out. Call
// it after ArtifactGroups.
func (s *Scanner) Capped() []Capped {
	var out []Capped
	for _, k := range []string{"constraint", "quantity", "secret", "attempt", "id"} {
		if n := s.pushed[k]; n > 0 {
			out = append(out, Capped{Kind: k, N: n, Names: s.pushedNames[k]})
		}
	}
	if all := s.unfinished(); len(all) > maxUnfinished {
		c := Capped{Kind: "unfinished request", N: len(all) - maxUnfinished}
		for _, u := range all[maxUnfinished:min(len(all), maxUnfinished+maxPushedNames)] {
			c.Names = append(c.Names, u.Phrase)
		}
		out = append(out, c)
	}
	if s.artifactsOver > 0 {
		out = append(out, Capped{Kind: "artifact", N: s.artifactsOver})
	}
	return out
}

// New returns a scanner that has seen no event.
func New() *Scanner {
	return &Scanner{secretIdx: map[string]int{}, paths: map[string]*pathInfo{}, seen: map[string]bool{}, userPaths: map[string]bool{},
		listed: map[string]int{}, listedAs: map[string]string{}, lastResult: -1, commands: map[string]bool{}}
}

// Add scans the event at idx (0-based, in order).
func (s *Scanner) Add(idx int, e Event) {
	text := stripANSI(stripTrimMarker(e.Text))
	args := argsText(stripANSI(string(e.Args)))
	s.secretTokens(idx, text)
	if e.Kind == Call {
		s.secretTokens(idx, args)
		s.touch(idx, e.CallName, args)
		structured := s.retryCall(idx, e.CallName, e.Args)
		s.call(idx, e.CallName, args, structured)
		s.requestCall(idx, e.CallName, e.Args, structured)
		s.attemptCall(idx, e.CallName, e.Args)
		s.idUse(idx, args, e.Args)
		s.setTouch(idx, args)
	}
	if e.Kind == Result {
		s.attemptResult(idx, e)
		s.retryResult(idx, e, text)
		s.requestDone(e, text)
		s.idSight(idx, text, false)
		s.partSight(text)
		s.setSight(idx, text)
		s.result(idx, text)
		if s.last != nil && s.last.lists {
			s.list(idx, text)
		}
		s.lastResult = idx
		return
	}
	if strings.HasPrefix(text, "[earlier compaction summary]") {
		return
	}
	if len(text) > maxScanChars {
		text = text[:maxScanChars]
	}
	if e.Role == scenarios.RoleUser || e.Role == scenarios.RoleSystem {
		// A project instruction file (AGENTS.md, CLAUDE.md) holds the
		// user's standing rules, whoever's turn shows it and whatever
		// harness block wraps it; the turn's own text is read apart.
		var bodies []string
		bodies, text = ProjectInstructions(text)
		for _, body := range bodies {
			s.rules(idx, body, true)
			s.quantity(idx, body)
		}
	}
	switch e.Role {
	case scenarios.RoleUser:
		if isInterrupt(text) {
			s.interrupted = true
			return
		}
		text, scope := ownText(e.Role, text)
		s.scopeRules(idx, scope)
		if strings.TrimSpace(text) == "" {
			return // the harness's text alone: not a turn of the user's
		}
		if s.userTurns > 0 {
			// A sentence that refutes a claim is not also a correction;
			// the rest of the turn may be.
			if denial := s.refutes(idx, text); denial != "" {
				s.valueCorrection(idx, strings.Replace(text, denial, "", 1))
			} else {
				n := len(s.corrections)
				s.correction(idx, text, s.interrupted)
				if len(s.corrections) > n {
					s.settleFrom(n)
				} else {
					s.settleIfCalled(idx, text)
				}
				s.namedPartTurn(idx, text)
			}
		}
		s.userTurns++
		s.interrupted = false
		s.idSight(idx, text, true)
		for _, p := range pathTokens(text) {
			if len(s.userPaths) < MaxPaths {
				s.userPaths[s.rel(p)] = true
			}
		}
		s.rules(idx, text, true)
		s.quantity(idx, text)
		s.request(idx, text)
	case scenarios.RoleSystem:
		text, scope := ownText(e.Role, text)
		s.scopeRules(idx, scope)
		s.rules(idx, text, false)
		s.quantity(idx, text)
	case scenarios.RoleAssistant:
		s.report(idx, text)
		s.selfRefutes(idx, text)
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
// a constraint's pattern, a quantity, a correction's new or old value, a
// secret, a path of a near-twin group.
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
		// The old value too: a goal that states it states it as current,
		// and the correction check fails every summary that carries it.
		for _, v := range []string{c.New, c.Old} {
			if v != "" && !strings.HasPrefix(v, scenarios.Placeholder) && strings.Contains(folded, strings.ToLower(textmatch.Fold(v))) {
				return true
			}
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

// AllCorrections returns every correction found, in order, superseded
// ones too: the values a chain of corrections touched.
func (s *Scanner) AllCorrections() []Correction { return s.corrections }

// Corrections returns the corrections found, in order. One whose new
// value a later correction replaces in turn (X, then Y for X, then Z for
// Y) is superseded and left out: the session went on from the last.
func (s *Scanner) Corrections() []Correction {
	var out []Correction
	for i, c := range s.corrections {
		superseded := false
		for _, later := range s.corrections[i+1:] {
			superseded = superseded || c.New != "" && strings.EqualFold(later.Old, c.New)
		}
		if !superseded {
			out = append(out, c)
		}
	}
	return out
}

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
