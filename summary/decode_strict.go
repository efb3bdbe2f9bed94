package summary

import (
	"encoding/json"
	"unicode/utf8"
)

// strictDecode reads raw as a summary document of the plainest shape: one
// object whose properties are those of the contract (extensions excepted),
// each given once, with the JSON type the Summary type wants, strings
// without escapes or with escapes encoding/json decodes, and whole
// non-negative numbers for the integers. It is what fastValid's
// json.Decoder (DisallowUnknownFields) would decode, written out for the
// one type: the Decoder's buffering and reflection were a sixth of a check
// run. Anything else (extensions, a duplicate or unknown property, a
// null, a float, a sign, a type mismatch, invalid UTF-8, data after the
// object) returns ok false, and fastValid asks the Decoder, which stays
// the authority. sv and ct report whether schema_version and
// covers_through were present.
func strictDecode(raw []byte) (s Summary, sv, ct bool, ok bool) {
	// One copy of the document; each plain string field is a piece of it
	// rather than a copy of its own (a summary has a hundred or more).
	d := strictDec{b: raw, s: string(raw)}
	s, sv, ct = d.summary()
	d.ws()
	return s, sv, ct, !d.bad && d.i == len(d.b)
}

type strictDec struct {
	b   []byte
	s   string // string(b)
	i   int
	bad bool
}

func (d *strictDec) fail() { d.bad = true }

func (d *strictDec) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek returns the next byte after whitespace (0 at the end).
func (d *strictDec) peek() byte {
	d.ws()
	if d.i >= len(d.b) {
		return 0
	}
	return d.b[d.i]
}

func (d *strictDec) expect(c byte) {
	if d.bad || d.peek() != c {
		d.fail()
		return
	}
	d.i++
}

// str reads a string literal.
func (d *strictDec) str() string {
	if d.bad || d.peek() != '"' {
		d.fail()
		return ""
	}
	start := d.i
	d.i++
	escaped, ascii := false, true
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			lit := d.b[start:d.i]
			if escaped {
				var s string
				if json.Unmarshal(lit, &s) != nil {
					d.fail()
				}
				return s
			}
			body := lit[1 : len(lit)-1]
			if !ascii && !utf8.Valid(body) {
				d.fail() // the Decoder would replace the bad bytes
				return ""
			}
			return d.s[start+1 : d.i-1]
		case c == '\\':
			escaped = true
			d.i += 2
			continue
		case c < 0x20:
			d.fail()
			return ""
		case c >= utf8.RuneSelf:
			ascii = false
		}
		d.i++
	}
	d.fail()
	return ""
}

// num reads a whole non-negative number that fits an int.
func (d *strictDec) num() int {
	if d.bad {
		return 0
	}
	d.ws()
	start, n := d.i, 0
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		n = n*10 + int(d.b[d.i]-'0')
		d.i++
	}
	digits := d.i - start
	if digits == 0 || digits > 18 || digits > 1 && d.b[start] == '0' {
		d.fail()
		return 0
	}
	if d.i < len(d.b) {
		switch d.b[d.i] {
		case '.', 'e', 'E':
			d.fail()
		}
	}
	return n
}

// object reads an object, calling field for each property; a property
// given twice or with an escape in its name fails (seen holds up to 64
// keys by their index in keys).
func (d *strictDec) object(keys []string, field func(k int)) {
	d.expect('{')
	if d.bad {
		return
	}
	if d.peek() == '}' {
		d.i++
		return
	}
	var seen uint64
	for !d.bad {
		d.peek()
		start := d.i
		name := d.str()
		// A name must be written plainly: fastValid finds "source_seq" and
		// "resolved_by" in the bytes (to refuse a 0), which an escaped name
		// such as "source_s\u0065q" would hide from it.
		if d.i-start != len(name)+2 {
			d.fail()
			return
		}
		d.expect(':')
		k := -1
		for j, n := range keys {
			if n == name {
				k = j
				break
			}
		}
		if k < 0 || seen&(1<<k) != 0 {
			d.fail()
			return
		}
		seen |= 1 << k
		field(k)
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return
		default:
			d.fail()
		}
	}
}

// array reads an array, calling elem for each element.
func (d *strictDec) array(elem func()) {
	d.expect('[')
	if d.bad {
		return
	}
	if d.peek() == ']' {
		d.i++
		return
	}
	for !d.bad {
		elem()
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			return
		default:
			d.fail()
		}
	}
}

// list reads an array of T, each element read by one; like encoding/json,
// an empty array gives an empty, non-nil slice.
func list[T any](d *strictDec, one func(*T)) []T {
	out := []T{}
	d.array(func() {
		var x T
		one(&x)
		out = append(out, x)
	})
	return out
}

var (
	summaryKeys    = []string{"schema_version", "covers_through", "goal", "constraints", "decisions", "verified", "hypotheses", "pending", "artifacts", "corrections", "errors", "next_steps", "text", "approvals", "handoff"}
	statementKeys  = []string{"text", "source_seq"}
	constraintKeys = []string{"text", "source_seq", "target", "scope", "condition", "expires", "status"}
	claimKeys      = []string{"claim", "source_seq"}
	hypothesisKeys = []string{"claim", "source_seq", "status", "resolved_by"}
	pendingKeys    = []string{"op_id", "description", "status", "source_seq"}
	artifactKeys   = []string{"path", "digest", "status", "source_seq"}
	correctionKeys = []string{"subject", "value", "supersedes", "source_seq"}
	errorKeys      = []string{"text", "resolution", "source_seq"}
	approvalKeys   = []string{"text", "source_seq", "approver", "scope", "resource", "expires", "status", "invalidated_by"}
	handoffKeys    = []string{"previous_session", "reason", "source_seq", "approved_artifacts", "unresolved"}
)

func (d *strictDec) summary() (s Summary, sv, ct bool) {
	statement := func(x *Statement) {
		d.object(statementKeys, func(k int) {
			switch k {
			case 0:
				x.Text = d.str()
			case 1:
				x.SourceSeq = d.num()
			}
		})
	}
	d.object(summaryKeys, func(k int) {
		switch k {
		case 0:
			s.SchemaVersion, sv = d.num(), true
		case 1:
			s.CoversThrough, ct = d.num(), true
		case 2:
			s.Goal = d.str()
		case 3:
			s.Constraints = list(d, func(x *Constraint) {
				d.object(constraintKeys, func(k int) {
					switch k {
					case 0:
						x.Text = d.str()
					case 1:
						x.SourceSeq = d.num()
					case 2:
						x.Target = d.str()
					case 3:
						x.Scope = d.str()
					case 4:
						x.Condition = d.str()
					case 5:
						x.Expires = d.str()
					case 6:
						x.Status = d.str()
					}
				})
			})
		case 4:
			s.Decisions = list(d, statement)
		case 5:
			s.Verified = list(d, func(x *Claim) {
				d.object(claimKeys, func(k int) {
					switch k {
					case 0:
						x.Claim = d.str()
					case 1:
						x.SourceSeq = d.num()
					}
				})
			})
		case 6:
			s.Hypotheses = list(d, func(x *Hypothesis) {
				d.object(hypothesisKeys, func(k int) {
					switch k {
					case 0:
						x.Claim = d.str()
					case 1:
						x.SourceSeq = d.num()
					case 2:
						x.Status = d.str()
					case 3:
						x.ResolvedBy = d.num()
					}
				})
			})
		case 7:
			s.Pending = list(d, func(x *Pending) {
				d.object(pendingKeys, func(k int) {
					switch k {
					case 0:
						x.OpID = d.str()
					case 1:
						x.Description = d.str()
					case 2:
						x.Status = d.str()
					case 3:
						x.SourceSeq = d.num()
					}
				})
			})
		case 8:
			s.Artifacts = list(d, func(x *ArtifactRef) {
				d.object(artifactKeys, func(k int) {
					switch k {
					case 0:
						x.Path = d.str()
					case 1:
						x.Digest = d.str()
					case 2:
						x.Status = d.str()
					case 3:
						x.SourceSeq = d.num()
					}
				})
			})
		case 9:
			s.Corrections = list(d, func(x *Correction) {
				d.object(correctionKeys, func(k int) {
					switch k {
					case 0:
						x.Subject = d.str()
					case 1:
						x.Value = d.str()
					case 2:
						x.Supersedes = d.str()
					case 3:
						x.SourceSeq = d.num()
					}
				})
			})
		case 10:
			s.Errors = list(d, func(x *ErrorNote) {
				d.object(errorKeys, func(k int) {
					switch k {
					case 0:
						x.Text = d.str()
					case 1:
						x.Resolution = d.str()
					case 2:
						x.SourceSeq = d.num()
					}
				})
			})
		case 11:
			s.NextSteps = list(d, func(x *string) { *x = d.str() })
		case 12:
			s.Text = d.str()
		case 13:
			s.Approvals = list(d, d.approval)
		case 14:
			s.Handoff = d.handoff()
		}
	})
	return s, sv, ct
}

// approval reads an approvals[] entry (contract 1.3).
func (d *strictDec) approval(x *Approval) {
	d.object(approvalKeys, func(k int) {
		switch k {
		case 0:
			x.Text = d.str()
		case 1:
			x.SourceSeq = d.num()
		case 2:
			x.Approver = d.str()
		case 3:
			x.Scope = d.str()
		case 4:
			x.Resource = d.str()
		case 5:
			x.Expires = d.str()
		case 6:
			x.Status = d.str()
		case 7:
			x.InvalidatedBy = d.num()
		}
	})
}

// handoff reads the handoff object (contract 1.3).
func (d *strictDec) handoff() *Handoff {
	h := &Handoff{}
	str := func(x *string) { *x = d.str() }
	d.object(handoffKeys, func(k int) {
		switch k {
		case 0:
			h.PreviousSession = d.str()
		case 1:
			h.Reason = d.str()
		case 2:
			h.SourceSeq = d.num()
		case 3:
			h.ApprovedArtifacts = list(d, str)
		case 4:
			h.Unresolved = list(d, str)
		}
	})
	return h
}
