package selftest

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/compact-eval/compact-eval/internal/quantity"
	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// sentenceBreak ends a sentence: ., !, ? or ; before whitespace or the
// end, or a line break. A full stop or semicolon inside a token (db.yaml,
// 10.42.7.19, db;dur=1650) is not followed by whitespace and so does not
// end one.
var sentenceBreak = regexp.MustCompile(`[.!?;]+(\s+|$)|\n+`)

// sentences splits text into its sentences, each with its end punctuation
// removed and its whitespace folded; empty ones are dropped.
func sentences(text string) []string {
	var out []string
	start := 0
	for _, loc := range sentenceBreak.FindAllStringIndex(text, -1) {
		if s := cleanSentence(text[start:loc[0]]); s != "" {
			out = append(out, s)
		}
		start = loc[1]
	}
	if s := cleanSentence(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

func cleanSentence(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// window returns the shortest run of consecutive sentences of text (the
// earliest among equals) in which pred holds, joined with "; ". It is how
// the oracle quotes a fact: the sentence that states it, not the message
// around it.
func window(text string, pred func(folded string) bool) (string, bool) {
	ss := sentences(text)
	folded := make([]string, len(ss))
	for i, s := range ss {
		folded[i] = textmatch.Fold(s)
	}
	for size := 1; size <= len(ss); size++ {
		for i := 0; i+size <= len(ss); i++ {
			if pred(strings.Join(folded[i:i+size], "; ")) {
				return strings.Join(ss[i:i+size], "; "), true
			}
		}
	}
	return "", false
}

// matchesAny reports whether one of patterns matches folded text.
func matchesAny(patterns []string) func(string) bool {
	return func(folded string) bool {
		_, _, ok := textmatch.FindAny(patterns, folded)
		return ok
	}
}

// respell writes every quantity of text whose unit compact-eval knows in its
// canonical spelling ("30 seconds" → "30 s", "50,000 tokens" → "50000
// tokens", "1.8ms" → "1.8 ms"). It is the oracle's paraphrase: the same
// fact in other words, so that a pattern that accepts only the session's
// own spelling of a number is found out. Rates (rows/s) and units the
// package does not know keep their spelling.
func respell(text string) string {
	qs := quantity.Parse(text)
	if len(qs) == 0 {
		return text
	}
	quoted := quotedRe.FindAllStringIndex(text, -1)
	inQuotes := func(i int) bool {
		for _, q := range quoted {
			if i >= q[0] && i < q[1] {
				return true
			}
		}
		return false
	}
	var b strings.Builder
	last := 0
	for _, q := range qs {
		if q.Unit == "" || strings.Contains(q.Unit, "/") || !quantity.Known(q.Unit) || !endsWord(text, q.End) || inQuotes(q.Start) {
			continue
		}
		canon := quantity.Format(q.Value, q.Unit)
		if canon == q.Text {
			continue
		}
		b.WriteString(text[last:q.Start])
		b.WriteString(canon)
		last = q.End
	}
	b.WriteString(text[last:])
	return b.String()
}

// quotedRe finds quoted strings: what is quoted is quoted verbatim (a
// citation's quoted strings must occur in the event it cites).
var quotedRe = regexp.MustCompile("\"[^\"]*\"|`[^`]*`|“[^”]*”|'[^'\\s][^']*'")

// endsWord reports whether a quantity ending at i ends a word (so that
// "5s-old" or "30sec_limit" are left alone).
func endsWord(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r := rune(s[i])
	return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-')
}

// oneClause turns text into a single clause: sentence punctuation, colons,
// semicolons, dashes and parentheses inside it become commas, so that a
// word placed before or after it reads on all of it (an inverted rule must
// be inverted everywhere, not in its first sentence only).
func oneClause(text string) string {
	r := strings.NewReplacer(". ", ", ", "; ", ", ", ": ", ", ", " — ", ", ", " – ", ", ", " - ", ", ", "(", "", ")", "", "! ", ", ", "? ", ", ")
	return strings.TrimRight(r.Replace(text), ".;:!? ")
}
