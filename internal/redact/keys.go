package redact

import (
	"os"
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
// key: its name is a key variable, or its value holds a known key value.
func HoldsKey(entry string, known []Secret) bool {
	name, value, _ := strings.Cut(entry, "=")
	if IsKeyVar(name) {
		return true
	}
	for _, k := range known {
		if strings.Contains(value, k.Value) {
			return true
		}
	}
	return false
}
