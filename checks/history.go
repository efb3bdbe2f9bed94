package checks

import (
	"strings"

	"github.com/compact-eval/compact-eval/internal/polarity"
)

// A value quoted as history is not stated as current: "we first proposed
// 200 rows/s", "50 rows/s (antes 200 rows/s)", "200 rows/s was considered,
// then dropped". The correction check reads these frames here, in the
// clause that holds the value (clausesOf), on top of what internal/polarity
// reads ("was", "previously", "was replaced by", "en vez de"). It is a
// small local reading until the polarity reader has a history class of its
// own (issue 24, point 1); each row is tested by TestHistoryFrames.
var (
	// historyBefore frames a value that comes after them in its clause.
	historyBefore = []string{
		// English
		"first proposed", "proposed", "initially", "originally", "at first", "at the start",
		"earlier plan", "earlier proposal", "first proposal", "first plan", "initial plan", "initial proposal",
		"original plan", "old plan", "old value", "the old", "formerly", "previously", "before that",
		"was going to", "had planned", "we considered", "considered", "draft", "overridden", "superseded",
		"replaced", "retired", "dropped", "rejected", "discarded", "abandoned", "instead of", "rather than",
		// Spanish
		"antes", "anteriormente", "inicialmente", "originalmente", "en un principio", "al principio",
		"primera propuesta", "propuesta inicial", "propuesta original", "plan inicial", "plan original",
		"plan anterior", "valor anterior", "se propuso", "se considero",
		"considerado", "borrador", "antiguo", "antigua", "anulado", "anulada", "sustituido", "sustituida",
		"reemplazado", "reemplazada", "descartado", "descartada", "rechazado", "rechazada", "en lugar de",
		"en vez de",
	}
	// historyAfter frames a value that stands right before them.
	historyAfter = []string{
		// English
		"was considered", "was proposed", "was the first proposal", "was the initial plan", "was dropped",
		"was rejected", "was discarded", "was abandoned", "was overridden", "was superseded", "was replaced",
		"was retired", "had been proposed", "had been planned", "is no longer the plan",
		// Spanish
		"se considero", "se propuso", "se descarto", "fue descartado", "fue descartada", "quedo descartado",
		"quedo descartada", "fue rechazado", "fue rechazada", "fue propuesto", "fue propuesta",
		"fue sustituido", "fue sustituida", "fue reemplazado", "fue reemplazada", "era la propuesta inicial",
		"era el plan inicial",
	}
)

// historyFrame reports whether text frames text[start:end] as history (see
// historyBefore, historyAfter), with the cue as a polarity verdict of kind
// Former.
func historyFrame(text string, start, end int) (polarity.Verdict, bool) {
	low := asciiLower(text)
	cs, ce := 0, len(low)
	for _, sp := range clausesOf(low) {
		if start >= sp.start && start < sp.end {
			cs, ce = sp.start, max(sp.end, end)
			break
		}
	}
	before := " " + wordsOnly(strings.ToLower(foldText(low[cs:start]))) + " "
	for _, cue := range historyBefore {
		for off := 0; ; {
			i := strings.Index(before[off:], " "+cue+" ")
			if i < 0 {
				break
			}
			i += off
			if cue == "antes" && temporal(before[i+len(cue)+2:]) {
				// "antes del cierre": before a time, not formerly
				off = i + 1
				continue
			}
			return polarity.Verdict{Kind: polarity.Former, Cue: cue, At: cs + i}, true
		}
	}
	after := strings.TrimLeft(wordsOnly(strings.ToLower(foldText(low[end:min(ce, len(low))]))), " ")
	for _, cue := range historyAfter {
		if strings.HasPrefix(after, cue) && (len(after) == len(cue) || !wordish(rune(after[len(cue)]))) {
			return polarity.Verdict{Kind: polarity.Former, Cue: cue, At: end}, true
		}
	}
	return polarity.Verdict{}, false
}

// wordsOnly replaces every byte that is no letter, digit or space with a
// space: "(overridden" reads as " overridden".
func wordsOnly(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80) {
			b[i] = ' '
		}
	}
	return string(b)
}

// temporal reports whether rest, the text after "antes", makes it a
// preposition of time ("antes de", "antes del", "antes que").
func temporal(rest string) bool {
	for _, w := range []string{"de ", "del ", "que "} {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return false
}

// asciiLower lower-cases the ASCII letters of s, keeping its byte offsets.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// retiredArtifact reports whether ptr is a field of an artifacts[] entry
// whose status says it is not the one in use (stale, superseded, deleted):
// what such an entry names is not stated as current.
func (st *state) retiredArtifact(ptr string) (string, bool) {
	rest, ok := strings.CutPrefix(ptr, "/artifacts/")
	if !ok {
		return "", false
	}
	n := 0
	for i := 0; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
		n = n*10 + int(rest[i]-'0')
	}
	if n >= len(st.sum.Artifacts) {
		return "", false
	}
	switch s := st.sum.Artifacts[n].Status; s {
	case "stale", "superseded", "deleted":
		return s, true
	}
	return "", false
}
