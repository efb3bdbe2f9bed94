package suggest

import (
	"regexp"
	"sort"
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
)

// A value the user names by a part of it: "please use the credit card
// ending in 9725", "la tarjeta que termina en 9725". The call after it
// passes the value itself (credit_card_9879898), which a tool result
// showed beside the part ({"last_four": "9725", "id":
// "credit_card_9879898"}) or which ends with it. When that call replaces
// the value the tool's last call passed for the same argument, the turn
// is a correction: the user's value, in the user's words (9725), replaced
// the old one; the call's value is the link, named in the comment. A part
// the call's value holds nowhere, or a call that passes the same value as
// before (the first choice, not a change), makes none.

// namedPartRE finds a value named by its last digits.
var namedPartRE = lazyre.New(`(?i)\b(?:ending|ends|that\s+ends)\s+(?:in|with)\s+(\d{3,8})\b|\blast\s+(?:four|4|five|5|six|6)(?:\s+digits)?(?:\s+(?:of|is|are))?\s+(\d{3,8})\b|\b(?:termina|terminada|terminado|acaba|acabada|acabado)\s+en\s+(\d{3,8})\b`)

// digitFieldRE is a string of digits as a JSON value.
var digitFieldRE = regexp.MustCompile(`"(\d{3,8})"`)

// Bounds of the named-part state.
const (
	maxPartDigits = 128 // digit strings remembered with the ids beside them
	maxPartIDs    = 2   // ids in one object: more and the object is a list
)

// namedPart is a user turn that named a value by a part, waiting for the
// call that passes the value.
type namedPart struct {
	idx          int
	digits, text string
	calls        int
}

// partSight remembers, in a tool result, each innermost JSON object's
// digit strings with the ids it holds: the record a part names.
func (s *Scanner) partSight(text string) {
	t := strings.TrimSpace(text)
	if t == "" || t[0] != '{' && t[0] != '[' {
		return
	}
	if len(t) > maxScanChars {
		t = t[:maxScanChars]
	}
	open := -1
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '{':
			open = i
		case '}':
			if open >= 0 {
				s.partObject(t[open : i+1])
				open = -1
			}
		}
	}
}

// partObject records obj's digit strings against its ids.
func (s *Scanner) partObject(obj string) {
	ds := digitFieldRE.FindAllStringSubmatch(obj, 4)
	if len(ds) == 0 {
		return
	}
	ids := idCandidates(obj)
	if len(ids) == 0 || len(ids) > maxPartIDs {
		return
	}
	if s.partIDs == nil {
		s.partIDs = map[string][]string{}
	}
	for _, d := range ds {
		if _, ok := s.partIDs[d[1]]; !ok && len(s.partIDs) >= maxPartDigits {
			continue
		}
		for _, id := range ids {
			if !inList(s.partIDs[d[1]], id) && len(s.partIDs[d[1]]) < maxPartIDs {
				s.partIDs[d[1]] = append(s.partIDs[d[1]], id)
			}
		}
	}
}

// namedPartTurn arms the rule for a user turn that names a value by a
// part.
func (s *Scanner) namedPartTurn(idx int, text string) {
	m := namedPartRE.FindStringSubmatch(text)
	if m == nil {
		return
	}
	d := m[1] + m[2] + m[3]
	s.named = &namedPart{idx: idx, digits: d, text: strings.Join(strings.Fields(text), " ")}
}

// namesPart reports a value that the digits name: it ends with them, or a
// tool result showed it beside them.
func (s *Scanner) namesPart(v, digits string) bool {
	return strings.HasSuffix(v, digits) && len(v) > len(digits) || inList(s.partIDs[digits], v)
}

// namedCall reads a structured call against an armed named part, before
// the call becomes its tool's last: the argument that passes the value
// the part names, changed from the tool's last call, is the correction.
func (s *Scanner) namedCall(idx int, name string, args structArgs) {
	np := s.named
	if np == nil {
		return
	}
	np.calls++
	if np.calls > maxRetryGap {
		s.named = nil
		return
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, ok := scalar(args[k])
		if !ok || !s.namesPart(v, np.digits) {
			continue
		}
		s.named = nil
		old, ok := scalar(s.lastArgs[name][k])
		if !ok || old == v {
			return // the tool's first call, or the same value: a choice, no change
		}
		if s.failedWith(name, k, old) {
			// The old value failed: the failures' own rules say so (a
			// refuted attempt names every value tried), and a correction
			// that named it again would state it beside the new one.
			old = "TODO(author): the value or plan it replaces"
		}
		if len(s.corrections) >= maxCorrections {
			return
		}
		c := Correction{Idx: np.idx, Old: old, New: np.digits, Subject: k, Text: np.text, Named: v, NamedIdx: idx}
		if st := s.settle; st != nil && (st.corr >= 0 && s.corrections[st.corr].Idx == np.idx || st.corr < 0 && st.idx == np.idx) {
			s.settle = nil // the same turn: its value is this one
		}
		for i, o := range s.corrections {
			if o.Idx == np.idx && o.Subject == "" {
				s.corrections[i] = c // the same turn read in words: the value says more
				return
			}
		}
		s.corrections = append(s.corrections, c)
		return
	}
}

// failedWith reports a value of an argument that the tool's open chain of
// failed tries passed.
func (s *Scanner) failedWith(name, key, v string) bool {
	ch := s.chains[name]
	if ch == nil {
		return false
	}
	for _, t := range ch.tries {
		if w, ok := scalar(t.args[key]); ok && w == v {
			return true
		}
	}
	return false
}
