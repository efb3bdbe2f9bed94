package redact

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// DefaultKeyVars are the environment variables that hold the API keys of
// the providers compact-eval speaks to, known before any registration.
var DefaultKeyVars = []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY"}

// MinKeyLen is the shortest key value Keys hides: shorter values ("EMPTY",
// "none", what local servers accept) are no secret, and hiding them would
// blank ordinary words everywhere.
const MinKeyLen = 8

var keys = struct {
	sync.Mutex
	vars   []string          // registered variable names, defaults first
	values map[string]string // value → id, registered directly
	// the Redactor of the last values seen, and those values
	last  *Redactor
	lastK []Secret
}{vars: slices.Clone(DefaultKeyVars), values: map[string]string{}}

// RegisterKeyVar adds environment variables that hold API keys: an
// endpoint's api_key_env, a provider's default variable. Exec processes do
// not inherit them (unless a config passes one explicitly), and their
// values are hidden in everything written. Registering a name twice is
// harmless.
func RegisterKeyVar(names ...string) {
	keys.Lock()
	defer keys.Unlock()
	for _, n := range names {
		if n != "" && !slices.Contains(keys.vars, n) {
			keys.vars = append(keys.vars, n)
		}
	}
}

// KeyVars returns the names of the variables that hold API keys: the
// defaults, then those registered, in order.
func KeyVars() []string {
	keys.Lock()
	defer keys.Unlock()
	return slices.Clone(keys.vars)
}

// IsKeyVar reports whether name holds an API key.
func IsKeyVar(name string) bool {
	keys.Lock()
	defer keys.Unlock()
	return slices.Contains(keys.vars, name)
}

// RegisterKey adds a key value read some other way than from the process
// environment (through an injected getenv), shown as [redacted:ID]. Values
// shorter than MinKeyLen are ignored.
func RegisterKey(id, value string) {
	if len([]rune(value)) < MinKeyLen {
		return
	}
	keys.Lock()
	defer keys.Unlock()
	keys.values[value] = id
}

// KeyValues returns the key values known now: those of the registered
// variables in the process environment and those registered directly,
// each at least MinKeyLen characters.
func KeyValues() []Secret {
	keys.Lock()
	defer keys.Unlock()
	return keyValuesLocked()
}

func keyValuesLocked() []Secret {
	var out []Secret
	for _, n := range keys.vars {
		if v := os.Getenv(n); len([]rune(v)) >= MinKeyLen {
			out = append(out, Secret{ID: n, Value: v})
		}
	}
	for v, id := range keys.values {
		out = append(out, Secret{ID: id, Value: v})
	}
	slices.SortFunc(out, func(a, b Secret) int { return strings.Compare(a.ID+"\x00"+a.Value, b.ID+"\x00"+b.Value) })
	return slices.CompactFunc(out, func(a, b Secret) bool { return a.Value == b.Value })
}

// Keys returns the Redactor of every key value known now (KeyValues); nil
// when there is none. Keys have no public runs.
func Keys() *Redactor {
	keys.Lock()
	defer keys.Unlock()
	cur := keyValuesLocked()
	if keys.last != nil && slices.Equal(cur, keys.lastK) || len(cur) == 0 && len(keys.lastK) == 0 {
		return keys.last
	}
	keys.last, keys.lastK = New(cur), cur
	return keys.last
}

// HoldsKey reports whether an environment entry (NAME=VALUE) carries an API
// key: its name is a key variable, or its value holds a known key value,
// as written or in any other writing of the same letters and digits (its
// Skeleton: with separators between its characters, in groups, in other
// case or with lookalike letters), since a program reads any of them back
// as the key. A piece of a key is not enough: an environment is passed
// whole or not at all, and a variable dropped for sharing eight characters
// with a key would break the program more often than it would hide one.
func HoldsKey(entry string, known []Secret) bool {
	name, value, _ := strings.Cut(entry, "=")
	if IsKeyVar(name) {
		return true
	}
	var skel string
	for _, k := range known {
		if strings.Contains(value, k.Value) {
			return true
		}
		ks := Skeleton(k.Value)
		if len(ks) < MinKeyLen {
			continue // too few letters and digits to be told apart by them
		}
		if skel == "" {
			skel = Skeleton(value)
		}
		if strings.Contains(skel, ks) {
			return true
		}
	}
	return false
}

// KeyPrefixes start the keys of common services, longest first where one
// starts another. They say what kind of key follows, not what key: the
// secret check counts a value's prefix as public (a summary may say "a
// Stripe live key, sk_live_…"). The import's suggestions
// (importer/suggest) keep a narrower list of their own: publishable keys
// (pk_…) are no secret, and a bare sk_ or rk_ starts identifiers too.
var KeyPrefixes = []string{"sk-ant-", "sk-proj-", "sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_",
	"whsec_", "github_pat_", "ghp_", "gho_", "ghs_", "ghu_", "glpat-", "xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-",
	"AKIA", "ASIA", "AIza", "hf_", "npm_", "sk-", "sk_", "pk_", "rk_"}

// keyPrefixes are what looksLikeKey reads as a key's start: KeyPrefixes, a
// JWT's start and a bearer token.
var keyPrefixes = append(slices.Clone(KeyPrefixes), "eyJ", "Bearer ")

// keyPrefix returns the prefix of KeyPrefixes that value starts with, ""
// when none does.
func keyPrefix(value string) string {
	for _, p := range KeyPrefixes {
		if strings.HasPrefix(value, p) {
			return p
		}
	}
	return ""
}

// keyFlag matches the names of flags and settings whose value is a key.
var keyFlag = regexp.MustCompile(`(?i)^-{0,2}([a-z0-9]+[-_])*(api[-_]?key|key|token|secret|passw(or)?d|pass|auth|bearer|credentials?|access[-_]?key)$`)

// CommandLineTag is what a credential of a command line is shown as.
const CommandLineTag = "[redacted:command-line-key]"

// userinfo matches the credentials of a URL (scheme://user:password@host):
// the password is the second group. query matches a query parameter whose
// name is a key's, as keyFlag reads names (?api_key=…, &access_token=…,
// ;X-Amz-Signature=…, but not ?monkey=): its value is the second group.
var (
	userinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:'"]*):([^\s/?#@'"]+)@`)
	query    = regexp.MustCompile(`(?i)([?&;](?:[a-z0-9]+[-_.])*(?:api[-_]?key|key|token|secret|passw(?:or)?d|pass|pwd|auth|signature|sig|credentials?)=)([^&#\s'"]+)`)
)

// CommandLine returns a command line or a spec as it may be written
// anywhere (a spec recorded, an error that quotes it): the password of
// every URL's userinfo and the value of every query parameter named like a
// key replaced by CommandLineTag, however short, and every key the harness
// knows hidden as everywhere (Keys: with separators between its characters
// too, or in any writing the finder reads). CheckCommand registers the
// credentials of MinKeyLen characters or more as keys, so that they are
// hidden in whatever else the run writes (what the program prints of its
// own arguments); a shorter one is hidden in the command line only, as
// short key values are (they would blank ordinary words elsewhere).
func CommandLine(s string) string {
	if strings.Contains(s, "@") {
		s = userinfo.ReplaceAllString(s, "$1:"+CommandLineTag+"@")
	}
	if strings.Contains(s, "=") {
		s = query.ReplaceAllString(s, "${1}"+CommandLineTag)
	}
	return Keys().String(s)
}

// KeysInArgument returns the values in one word of a command line that
// look like keys, prev being the word before it: the value of --key=VALUE
// or of a word after a key flag (--api-key VALUE, --token VALUE), a word
// with the prefix of a service's keys (sk-, ghp_, AKIA, …), or a long word
// mixing upper case, lower case and digits with no path in it. Such values
// are hidden as keys everywhere (RegisterKey), however they got there (an
// unexported shell variable, a file's content).
func KeysInArgument(prev, word string) []string {
	var out []string
	add := func(v string) {
		v = strings.Trim(v, `"'`)
		if len([]rune(v)) >= MinKeyLen && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	if name, value, ok := strings.Cut(word, "="); ok && keyFlag.MatchString(name) {
		add(value)
	}
	if strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") && keyFlag.MatchString(prev) || strings.EqualFold(prev, "bearer") {
		add(word)
	}
	for _, m := range userinfo.FindAllStringSubmatch(word, -1) {
		add(m[2])
	}
	for _, m := range query.FindAllStringSubmatch(word, -1) {
		add(m[2])
	}
	for _, part := range strings.FieldsFunc(word, func(r rune) bool { return strings.ContainsRune("=:, \t\"'", r) }) {
		if looksLikeKey(part) {
			add(part)
		}
	}
	return out
}

// looksLikeKey reports whether s has the shape of a key: a service's
// prefix and 16 characters or more, or 24 or more characters of letters of
// both cases and digits (and - _ .), without a path separator.
func looksLikeKey(s string) bool {
	if len(s) < 16 {
		return false
	}
	for _, p := range keyPrefixes {
		if strings.HasPrefix(s, p) && len(s) >= len(p)+12 {
			return true
		}
	}
	if len(s) < 24 || strings.ContainsAny(s, `/\`) {
		return false
	}
	var lower, upper, digit bool
	for _, c := range s {
		switch {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z':
			upper = true
		case '0' <= c && c <= '9':
			digit = true
		case c == '-' || c == '_' || c == '.' || c == '+':
		default:
			return false
		}
	}
	return lower && upper && digit
}
