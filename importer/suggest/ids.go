package suggest

import (
	"encoding/json"
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
)

// An identifier the task depends on: a user id, an order or reservation
// id, a payment method's id, a ticket number, that the user gave or a
// tool returned and a later call passes on. Lose it and the agent has to
// ask again, or acts on the wrong record. It is suggested as an artifact
// of one name: a summary must name it exactly.

// ID is an identifier first seen in the event at Idx (a user turn or a
// tool result) and passed to the call at UseIdx.
type ID struct {
	Value       string
	Idx, UseIdx int
}

// maxIDs bounds the identifiers suggested.
const maxIDs = 8

// notIDRE are words shaped like an identifier that name no record: a
// quantity with its unit ("500ms", "11am"), a versioned name ("python3",
// "sha256"), a date or a time, a uuid, a digest.
var notIDRE = lazyre.New(`^(?:\d+(?:[a-z]{1,3}|[A-Z]{1,3})|[a-z]+\d{1,3}|\d{4}-\d{2}-\d{2}.*|\d{1,2}-\d{1,2}-\d{2,4}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-fA-F]{16,})$`)

// apiIDPrefixes are the identifiers of an API's own objects, never of the
// task's: a call's, a message's, a request's.
var apiIDPrefixes = []string{"call_", "call-", "toolu_", "msg_", "req_", "chatcmpl-", "resp_", "fc_", "run-", "step-"}

// idCandidates returns the words of text that may be identifiers: six
// characters or more, a letter and a digit, none of notIDRE's shapes.
func idCandidates(text string) []string {
	if len(text) > maxScanChars {
		text = text[:maxScanChars]
	}
	var out []string
	// A byte scan, not a regexp: this runs on every result and user turn.
	// A word is a run of letters, digits, "_" and "-" not inside a path or
	// a dotted name: not after ".", "/", "@" or ":", not before "/" or
	// "@", and before "." only at a sentence's end.
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && idByte(text[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start < 0 {
			continue
		}
		w := text[start:i]
		ok := len(w) >= 6 && len(w) <= 64
		if ok && start > 0 && strings.IndexByte("./@:", text[start-1]) >= 0 {
			ok = false
		}
		if ok && i < len(text) {
			switch c := text[i]; {
			case c == '/' || c == '@':
				ok = false
			case c == '.':
				ok = i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n'
			}
		}
		start = -1
		if !ok {
			continue
		}
		if w = strings.Trim(w, "_-"); isIDWord(w) {
			out = append(out, w)
		}
	}
	return out
}

// idByte marks the bytes of an identifier.
func idByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// isIDWord reports a word that may be an identifier: six characters or
// more, a letter and a digit, none of notIDRE's shapes, no API's own id.
func isIDWord(w string) bool {
	if len(w) < 6 || !strings.ContainsAny(w, "0123456789") || !strings.ContainsAny(strings.ToLower(w), "abcdefghijklmnopqrstuvwxyz") || notIDRE.MatchString(w) {
		return false
	}
	for _, p := range apiIDPrefixes {
		if strings.HasPrefix(strings.ToLower(w), p) {
			return false
		}
	}
	return true
}

// idSight notes the identifiers a user turn (user true) or a tool result
// shows.
func (s *Scanner) idSight(idx int, text string, user bool) {
	if s.idSeen == nil {
		s.idSeen, s.idByUser = map[string]int{}, map[string]bool{}
	}
	for _, w := range idCandidates(text) {
		if _, ok := s.idSeen[w]; !ok && len(s.idSeen) < MaxPaths {
			s.idSeen[w] = idx
		}
		if user && len(s.idByUser) < MaxPaths {
			s.idByUser[w] = true
		}
	}
}

// idUse records the identifiers a call passes on that an earlier user
// turn or tool result showed: those the task depends on. A key the secret
// rules found is a secret, not an identifier. A call that only looks a
// record up by an id a tool listed (its one argument is the id) is the
// agent browsing, not depending on it: the id counts when a later call
// acts on it, or when the user gave it. A value inside an object the
// call passes counts when its key names an id (a payment's payment_id):
// the others (a flight's number among a trip's legs, a line of an order)
// are the call's data, not a record it acts on.
func (s *Scanner) idUse(idx int, args string, raw []byte) {
	named, structured := namedIDs(raw)
	for _, w := range idCandidates(args) {
		if structured && !named[w] {
			continue
		}
		first, ok := s.idSeen[w]
		if !ok || first >= idx || s.seen["id:"+w] {
			continue
		}
		if _, secret := s.secretIdx[w]; secret {
			continue
		}
		if !s.idByUser[w] && lookupOf(raw, w) {
			continue
		}
		s.seen["id:"+w] = true
		if len(s.ids) == maxIDs {
			s.pushOut("id", w)
			continue
		}
		s.ids = append(s.ids, ID{Value: w, Idx: first, UseIdx: idx})
	}
}

// namedIDs are the identifiers a call's arguments may name the records
// it depends on with: the words of its top-level string fields and lists
// of strings, and, inside the objects it passes, of the fields named as
// ids (payment_id, paymentId, id); structured is false when the arguments
// are not a JSON object, and every word counts.
func namedIDs(args []byte) (named map[string]bool, structured bool) {
	var m map[string]any
	if len(args) > 1<<16 || json.Unmarshal(args, &m) != nil {
		return nil, false
	}
	named = map[string]bool{}
	add := func(s string) {
		for _, w := range idCandidates(s) {
			named[w] = true
		}
	}
	var nested func(v any, depth int)
	nested = func(v any, depth int) {
		if depth > 8 {
			return
		}
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				nested(e, depth+1)
			}
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && idKey(k) {
					add(s)
					continue
				}
				nested(e, depth+1)
			}
		}
	}
	for _, v := range m {
		switch x := v.(type) {
		case string:
			add(x)
		case []any:
			for _, e := range x {
				if s, ok := e.(string); ok {
					add(s)
				} else {
					nested(e, 1)
				}
			}
		default:
			nested(x, 1)
		}
	}
	return named, true
}

// idKey reports a key that names an identifier: "id", or one ending in
// "_id" or "Id".
func idKey(k string) bool {
	return k == "id" || k == "ID" || strings.HasSuffix(k, "_id") || strings.HasSuffix(k, "Id") || strings.HasSuffix(k, "ID")
}

// lookupOf reports a call whose arguments are the id alone: one field,
// its value the id ({"reservation_id": "LQ940Q"}).
func lookupOf(args []byte, id string) bool {
	var m map[string]json.RawMessage
	if len(args) > 4096 || json.Unmarshal(args, &m) != nil || len(m) != 1 {
		return false
	}
	for _, v := range m {
		var s string
		return json.Unmarshal(v, &s) == nil && strings.TrimSpace(s) == id
	}
	return false
}

// IDs returns the identifiers the task depends on, in the order calls
// first passed them on.
func (s *Scanner) IDs() []ID { return s.ids }
