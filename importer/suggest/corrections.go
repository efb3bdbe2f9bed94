package suggest

import (
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// A value in a correction: text up to a clause end, where a dot followed by
// a non-space (a file name, a version) does not end it.
const valuePart = `(?:[^,;!?.\s]|\.[^\s,;!?.]|\s)`

var (
	notButRE      = lazyre.New(`(?i)\bnot\s+(` + valuePart + `{1,40}?),?\s+but\s+(` + valuePart + `{1,40})`)
	sinoRE        = lazyre.New(`(?i)\bno\s+(?:es\s+|son\s+|era\s+)?(` + valuePart + `{1,40}?),?\s+sino\s+(?:que\s+)?(` + valuePart + `{1,40})`)
	numNotRE      = lazyre.New(`(?i)(\d[\d.,]*\s?[a-z%/°€]{0,6}),\s+(?:not|no)\s+(\d[\d.,]*\s?[a-z%/°€]{0,6})\b`)
	xNotYRE       = lazyre.New(`(?i)((?:[^,;!?.]|\.\S)*\S),\s+(?:not|no)\s+(?:the\s+|el\s+|la\s+)?(\S+?)[.:;!?]?(?:\s|$)`)
	insteadOfRE   = lazyre.New(`(?i)\b(` + valuePart + `{1,40}?)\s+instead\s+of\s+(` + valuePart + `{1,40})`)
	correctionRE  = lazyre.New(`(?i)(?:^|[.!?;:,]\s+|\n)(actually|wait|hold on|correction|scratch that|i meant|no,? i mean|what i mean is|en realidad|correcci[oó]n|quise decir|perd[oó]n|espera|mejor)\b[,:]?\s*(` + valuePart + `{1,120})`)
	insteadTailRE = lazyre.New(`(?i)^(` + valuePart + `{3,120}?)\s+(?:instead|en su lugar|en vez de eso)\b`)
	// insteadAskRE is the marker closing a question, after other sentences
	// ("I gave the wrong ID. Could you change the one from New York to
	// Chicago instead?", "¿Puede cambiar la de Nueva York en su lugar?"):
	// the question is the new plan. Only at a question's end: an "instead"
	// inside a clause ("cancel it instead, and I'll rebook") is a plan
	// changed, not a value.
	insteadAskRE = lazyre.New(`(?i)(?:^|[.!?;:]\s+)¿?(` + valuePart + `{3,120}?)\s+(?:instead|en su lugar|en vez de eso)\s*\?`)
)

// correction finds a user turn that redirects the agent: "actually …",
// "wait, …", "not X but Y", "Y, not X", "Y instead of X", "… instead",
// a question that closes with "instead?",
// Spanish "no X sino Y", "en realidad …", and any turn that follows an
// interruption.
func (s *Scanner) correction(idx int, text string, afterInterrupt bool) {
	if len(s.corrections) >= maxCorrections {
		return
	}
	flat := strings.Join(strings.Fields(text), " ")
	add := func(old, new string) {
		old, new = cleanValue(old), cleanValue(new)
		if new == "" || s.commandForValue(old, new) {
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
		} else if q := insteadAskRE.FindStringSubmatch(flat); q != nil {
			add("", q[1])
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
	// a dash that separates the marker from the value ("actually — use
	// X", "wait - X"), never one that opens it ("-v", "--fast")
	for _, d := range []string{"—", "–", "--", "-"} {
		if rest, ok := strings.CutPrefix(v, d); ok && strings.HasPrefix(rest, " ") {
			v = strings.TrimSpace(rest)
			break
		}
	}
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

// commandName reports a value that is a bare command or tool name the
// session ran: the name of a tool it called, or the first word of a shell
// command in a call's arguments.
func (s *Scanner) commandName(v string) bool {
	if v == "" || strings.ContainsAny(v, " /.") {
		return false
	}
	return s.commands[strings.ToLower(v)]
}

// commandForValue reports a correction whose one side is a command the
// session ran and whose other is a single value that is not one
// ("ingress-v2, not kubectl"): the command is no value the user replaced.
// Two commands ("pnpm, not npm") or a phrase ("use pnpm") stay.
func (s *Scanner) commandForValue(old, new string) bool {
	single := func(v string) bool { return v != "" && !strings.Contains(v, " ") }
	return single(old) && single(new) && s.commandName(old) != s.commandName(new)
}
