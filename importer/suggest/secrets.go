package suggest

import (
	"math"
	"strings"
)

// tokens splits text into key-like tokens with a byte loop (no regular
// expression: this runs over every byte of the log).
func (s *Scanner) secretTokens(idx int, text string) {
	s.secretGroups(idx, text)
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

// Keys written in groups, as people read them out or paste them from a
// dashboard ("Qx7m Pz4K vR9w Lt2N Bc8Y Hd1F"): one token to the secret
// check, which reads a value by its letters and digits, but no token of
// 19 characters or more to secretTokens.
const (
	minGroups   = 4 // fewer is a phrase, not a key read out
	minGroupLen = 3
	maxGroupLen = 8
)

// secretGroups suggests the keys text writes in groups: minGroups groups
// or more of letters and digits, all of one length (the last may be
// shorter), each pair between one space, tab or no-break space (the same
// one throughout), words at either end left out (all lower case, all upper
// case or capitalised letters: the prose around the key) and at most one
// inside, that joined read as a key (isSecret). The
// suggestion keeps the writing of the log, which HoldsEvidence finds in a
// sentence and the secret check reads as the joined key.
func (s *Scanner) secretGroups(idx int, text string) {
	if !strings.ContainsAny(text, " \t\u00a0") {
		return
	}
	groups := alnumRuns(text)
	for i := 0; i < len(groups); {
		j := groupChain(text, groups, i)
		// Words at either end are the prose around the key.
		a, b := i, j
		for a < b && isWord(text[groups[a][0]:groups[a][1]]) {
			a++
		}
		for b > a && isWord(text[groups[b-1][0]:groups[b-1][1]]) {
			b--
		}
		if b-a >= minGroups {
			chain := text[groups[a][0]:groups[b-1][1]]
			var joined strings.Builder
			words := 0
			for _, g := range groups[a:b] {
				joined.WriteString(text[g[0]:g[1]])
				if isWord(text[g[0]:g[1]]) {
					words++
				}
			}
			if words <= 1 && isSecret(joined.String()) {
				s.addSecret(idx, chain)
			}
		}
		i = max(j, i+1)
	}
}

// alnumRuns returns the [start, end) of every run of ASCII letters and
// digits in text that no other token byte touches (a run inside a path, a
// key_name or a dotted version is no group).
func alnumRuns(text string) [][2]int {
	var out [][2]int
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && isAlnum(text[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && (start == 0 || !tokenBytes[text[start-1]]) && (i == len(text) || !tokenBytes[text[i]] || sentenceEnd(text, i)) {
			out = append(out, [2]int{start, i})
		}
		start = -1
	}
	return out
}

// groupChain returns the end (exclusive) of the chain of groups that starts
// at groups[i]: groups of one length within the bounds, one shorter last
// group allowed, each after the one separator that follows groups[i].
func groupChain(text string, groups [][2]int, i int) int {
	n := groups[i][1] - groups[i][0]
	if n < minGroupLen || n > maxGroupLen {
		return i + 1
	}
	sep := ""
	j := i + 1
	for ; j < len(groups); j++ {
		gap := text[groups[j-1][1]:groups[j][0]]
		if gap != " " && gap != "\t" && gap != "\u00a0" || sep != "" && gap != sep {
			break
		}
		sep = gap
		m := groups[j][1] - groups[j][0]
		if m > n {
			break
		}
		if m < n {
			j++ // a shorter group ends the chain
			break
		}
	}
	return j
}

// sentenceEnd reports a full stop at text[i] that ends a sentence (the
// text's end or a byte no token holds follows it), not a dotted name's.
func sentenceEnd(text string, i int) bool {
	return text[i] == '.' && (i+1 == len(text) || !tokenBytes[text[i+1]])
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isWord reports letters only, all lower case, all upper case or one
// capital and lower case: a word of prose, not a group of a key.
func isWord(g string) bool {
	upper := 0
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case c >= '0' && c <= '9':
			return false
		case c >= 'A' && c <= 'Z':
			upper++
		}
	}
	return upper == 0 || upper == len(g) || upper == 1 && g[0] >= 'A' && g[0] <= 'Z'
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
	if isSecret(tok) {
		s.addSecret(idx, tok)
	}
}

// addSecret keeps tok as a suggested secret, first seen at event idx.
func (s *Scanner) addSecret(idx int, tok string) {
	if _, ok := s.secretIdx[tok]; !ok {
		if len(s.secrets) >= maxSecrets {
			if !s.seen["s:"+tok] && len(s.seen) < 4*MaxPaths {
				s.seen["s:"+tok] = true
				s.pushOut("secret", "") // never named
			}
			return
		}
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
