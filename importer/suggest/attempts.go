package suggest

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/compact-eval/compact-eval/scenarios"
)

// A refuted attempt: the agent ran the same call (one tool, one command or
// one file) and it failed again and again, then something else worked: a
// retried edit the tool refused three times before another one applied, a
// workaround that kept failing. A summary that reports the failed attempt
// as done, or drops that it failed, misleads the agent into running it a
// fourth time. It is suggested as a refuted hypothesis: the attempt is the
// claim (the call), its first error the refutation.

// Attempt is a call that failed at least twice (Fails) under one
// signature before another call of its tool, or on its file, worked.
type Attempt struct {
	CallIdx, ErrIdx int // the first failed call and its error
	FixIdx          int // the call that worked
	Fails           int
	Signature, Fix  string // what was attempted, and what worked
	Pattern         string
	// Values are the values a structured call's attempt tried and that
	// failed (retries.go); nil for a command's or a file's.
	Values []string
}

// maxAttempts bounds the refuted attempts suggested; maxOpenSigs the
// calls whose result is awaited. A failure is the result's status, or
// its text when the tool writes failures as text (toolfailures.txt).
const (
	maxAttempts = 4
	maxOpenSigs = 256
	minFails    = 2
)

// tries is the record of one signature's failures.
type tries struct {
	name, sig, path string
	callIdx, errIdx int
	fails           int
	done            bool // reported, or it worked in the end
}

// callSig is a call's signature: its tool and the first line of its
// command (or input), at most six words, else the file it names.
type callSig struct {
	name, sig, path string
}

// signature returns what a call attempts: the first line of its command
// or input ("edit 287:295", "git commit -m wip"), else its tool and the
// file it acts on ("Edit lib/x.ex"); "" when the call names nothing that
// tells one attempt from another.
func signature(name string, args []byte) callSig {
	cs := callSig{name: strings.ToLower(name)}
	var m map[string]json.RawMessage
	if len(args) > 1<<16 || json.Unmarshal(args, &m) != nil {
		return cs // a call that writes a large file is known by its path alone below
	}
	for _, k := range []string{"file_path", "path", "filePath", "file"} {
		var v string
		if json.Unmarshal(m[k], &v) == nil && v != "" {
			cs.path = v
			break
		}
	}
	for _, k := range []string{"command", "cmd", "input", "code"} {
		var s string
		if json.Unmarshal(m[k], &s) != nil {
			var list []string // Codex: ["bash", "-lc", "…"]
			if json.Unmarshal(m[k], &list) == nil {
				s = strings.Join(list, " ")
			}
		}
		if strings.TrimSpace(s) != "" {
			line := strings.TrimSpace(s)
			if i := strings.IndexByte(line, '\n'); i >= 0 {
				line = line[:i]
			}
			words := strings.Fields(line)
			if len(words) > 6 {
				words = words[:6]
			}
			cs.sig = strings.Join(words, " ")
			return cs
		}
	}
	if cs.path != "" {
		cs.sig = name + " " + cs.path
	}
	return cs
}

// specific reports a signature that names one attempt, not a habit: two
// words or more, one of them a number, a path, a flag or a range.
func specific(sig string) bool {
	words := strings.Fields(sig)
	if len(words) < 2 {
		return false
	}
	for _, w := range words[1:] {
		if strings.ContainsAny(w, "0123456789/.:-=") {
			return true
		}
	}
	return false
}

// attemptCall notes a call's signature until its result comes.
func (s *Scanner) attemptCall(idx int, name string, args []byte) {
	if s.sigs == nil {
		s.sigs = map[int]callSig{}
	}
	if len(s.sigs) < maxOpenSigs {
		s.sigs[idx] = signature(name, args)
	}
}

// attemptResult reads a result against its call's signature: an error
// adds a failure; a call that works after an attempt failed minFails
// times, of the attempt's tool or on its file, refutes it.
func (s *Scanner) attemptResult(idx int, e Event) {
	cs, ok := s.sigs[e.CallIdx]
	if !ok || e.Status == "" {
		return
	}
	delete(s.sigs, e.CallIdx)
	if cs.sig == "" {
		return
	}
	key := cs.name + "\x00" + cs.sig
	if e.Status != scenarios.StatusOK || failsByText(e.Text) {
		t := s.tried[key]
		if t == nil {
			if len(s.tried) >= maxOpenSigs {
				return
			}
			if s.tried == nil {
				s.tried = map[string]*tries{}
			}
			t = &tries{name: cs.name, sig: cs.sig, path: cs.path, callIdx: e.CallIdx, errIdx: idx}
			s.tried[key] = t
		}
		t.fails++
		return
	}
	if t := s.tried[key]; t != nil {
		t.done = true // the attempt itself worked in the end: no refutation
	}
	for _, t := range s.tried {
		if t.done || t.fails < minFails || t.sig == cs.sig || !(t.name == cs.name || t.path != "" && t.path == cs.path) || !specific(t.sig) {
			continue
		}
		t.done = true
		if len(s.attempts) == maxAttempts {
			s.pushOut("attempt", t.sig)
			continue
		}
		s.attempts = append(s.attempts, Attempt{CallIdx: t.callIdx, ErrIdx: t.errIdx, FixIdx: e.CallIdx,
			Fails: t.fails, Signature: t.sig, Fix: cs.sig, Pattern: sigPattern(t.sig)})
	}
}

// sigPattern is a signature's words, each quoted, joined by \W+.
func sigPattern(sig string) string {
	var parts []string
	for _, w := range strings.Fields(strings.ToLower(sig)) {
		w = strings.Trim(w, `"'`+"`")
		if w != "" {
			parts = append(parts, regexp.QuoteMeta(w))
		}
	}
	return strings.Join(parts, `\W+`)
}

// Attempts returns the refuted attempts found, in the order they were
// refuted.
func (s *Scanner) Attempts() []Attempt { return s.attempts }
