package polarity

import (
	"regexp"
	"testing"
)

// TestJudgeMatchEndingBeforeAMark is the panic a real Claude Code log
// found (slice bounds out of range in judgeIn): a match that ends in the
// space before a clause mark, so the clause after the mark starts past the
// match's end.
func TestJudgeMatchEndingBeforeAMark(t *testing.T) {
	for _, text := range []string{"the CDN ; ruled out: it adds latency", "the CDN — no. it is fine", "x CDN ,; y"} {
		re := regexp.MustCompile(`CDN `)
		loc := re.FindStringIndex(text)
		_ = New(text).Judge(loc[0], loc[1], re, Negation, Retraction, Hedge)
	}
}
