package suggest

import (
	"math"
	"strings"
)

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
