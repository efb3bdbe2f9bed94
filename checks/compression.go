package checks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"sync"
	"unicode"
	"unsafe"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// CompressionCheck is the `compression` check: the summary is smaller than
// what it replaces.
//
// Rule: tokens(summary) ≤ max_ratio × tokens(replaced), where
// tokens(summary) counts the summary's compact JSON (Raw with insignificant
// whitespace removed) and tokens(replaced) is Gen.ReplacedTokens, or, when
// that is zero, the tokens of transcript.EventsText of the scenario events
// 1..Gen.Cut. max_ratio is the scenario's compaction.max_ratio (default
// 0.5). Counts use Input.Tokens (default o200k_base). Metrics carry
// summary_tokens, replaced_tokens, ratio and max_ratio. For a recorded
// compaction (the summary is the text the scenario records at the cut) the
// runner passes the log's count before it (pre_tokens) as ReplacedTokens;
// the message says so, and excerpt_tokens carries what the scenario's
// events hold of it; without a count, the message says the denominator
// may be an excerpt. Error when nothing
// was replaced (no cut). A text-only summary is judged like any other.
//
// A small ratio is compression only when something was kept: a summary
// with no content the agent reads (no string of its fields, goal and text
// included, holds a letter or a digit; extensions, which the agent never
// sees, do not count) fails, whatever its ratio: it keeps nothing of what
// it replaces, so its size measures nothing ("14 tokens of 1,406" is no
// summary, not good compression).
type CompressionCheck struct{}

// Check implements Check.
func (CompressionCheck) Check(in *Input) []result.CheckResult {
	st, res := structural(in, result.CheckCompression, false)
	if st == nil {
		return res
	}
	r := result.CheckResult{Check: result.CheckCompression, Kind: result.KindStructural}
	counter := in.Tokens
	if counter == nil {
		counter = tokens.Default()
	}
	replaced := in.Gen.ReplacedTokens
	if replaced == 0 && in.Scenario != nil && in.Gen.Cut > 0 {
		replaced = st.sd.replacedTokens(in.Gen.Cut, counter)
	}
	if replaced <= 0 {
		r.Status, r.Message = result.Error, "no replaced events to compare with (no cut and no replaced token count)"
		return []result.CheckResult{r}
	}
	summaryTokens := 0
	buf := compactBufs.Get().(*[]byte)
	if c := compactJSON(st, (*buf)[:0]); len(c) > 0 {
		// Count keeps no reference to its input: read c as a string in
		// place, and reuse its memory for the next summary.
		summaryTokens = counter.Count(unsafe.String(&c[0], len(c)))
		*buf = c
	}
	if cap(*buf) <= 1<<20 {
		compactBufs.Put(buf)
	}
	maxRatio := scenarios.DefaultMaxRatio
	if in.Scenario != nil {
		maxRatio = in.Scenario.Compaction.EffectiveMaxRatio()
	}
	ratio := float64(summaryTokens) / float64(replaced)
	r.Metrics = map[string]float64{
		"summary_tokens":  float64(summaryTokens),
		"replaced_tokens": float64(replaced),
		"ratio":           ratio,
		"max_ratio":       maxRatio,
	}
	r.Message = fmt.Sprintf("summary %d tokens / replaced %d tokens = %.2f (max %.2f, %s)", summaryTokens, replaced, ratio, maxRatio, counter.Name())
	if rc, ok := recordedHere(in, st); ok {
		// The agent's own compaction replaced its whole context: the
		// log's count is the denominator (the runner passes it); without
		// one, the scenario's events may be only an excerpt of it.
		if events := st.sd.replacedTokens(in.Gen.Cut, counter); rc.PreTokens > 0 && replaced == rc.PreTokens {
			r.Metrics["excerpt_tokens"] = float64(events)
			r.Message += fmt.Sprintf("; replaced is the log's count before the compaction, of which the scenario's events 1..%d hold %d tokens (an excerpt)", in.Gen.Cut, events)
		} else {
			r.Message += fmt.Sprintf("; the log gives no count before this compaction: replaced is the scenario's events 1..%d, an excerpt when the agent's context held more", in.Gen.Cut)
		}
	}
	r.Status = result.Pass
	switch {
	case !hasContent(st.sum):
		r.Status = result.Fail
		r.Message = fmt.Sprintf("the summary keeps nothing: no text and no entry with a word or a number (%d tokens for the %d replaced): an empty summary is no compression", summaryTokens, replaced)
	case float64(summaryTokens) > maxRatio*float64(replaced):
		r.Status = result.Fail
	}
	return []result.CheckResult{r}
}

// recordedHere returns the compaction the scenario records at this cut
// when the summary is its text: the agent's own compaction, audited.
func recordedHere(in *Input, st *state) (*scenarios.RecordedCompaction, bool) {
	if in.Scenario == nil || st.sum == nil {
		return nil, false
	}
	rc, ok := in.Scenario.RecordedAt(in.Gen.Cut)
	if !ok || st.sum.Text != rc.Summary {
		return nil, false
	}
	return rc, true
}

// hasContent reports whether some string of s the agent reads (every
// field but extensions) holds a letter or a digit.
func hasContent(s *summary.Summary) bool {
	for x := range readStrings(s) {
		if strings.IndexFunc(x, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			return true
		}
	}
	return false
}

// readStrings yields every string of s the agent reads (every field but
// extensions), without collecting them.
func readStrings(s *summary.Summary) iter.Seq[string] {
	return func(yield func(string) bool) {
		all := func(xs ...string) bool {
			for _, x := range xs {
				if !yield(x) {
					return false
				}
			}
			return true
		}
		if !all(s.Goal, s.Text) {
			return
		}
		for _, x := range s.Constraints {
			if !all(x.Text, x.Target, x.Scope, x.Condition, x.Expires) {
				return
			}
		}
		for _, x := range s.Decisions {
			if !all(x.Text) {
				return
			}
		}
		for _, x := range s.Verified {
			if !all(x.Claim) {
				return
			}
		}
		for _, x := range s.Hypotheses {
			if !all(x.Claim) {
				return
			}
		}
		for _, x := range s.Pending {
			if !all(x.OpID, x.Description) {
				return
			}
		}
		for _, x := range s.Artifacts {
			if !all(x.Path, x.Digest) {
				return
			}
		}
		for _, x := range s.Corrections {
			if !all(x.Subject, x.Value, x.Supersedes) {
				return
			}
		}
		for _, x := range s.Errors {
			if !all(x.Text, x.Resolution) {
				return
			}
		}
		for _, x := range s.Approvals {
			if !all(x.Text, x.Approver, x.Scope, x.Resource, x.Expires) {
				return
			}
		}
		if h := s.Handoff; h != nil {
			if !all(h.PreviousSession, h.Reason) || !all(h.ApprovedArtifacts...) || !all(h.Unresolved...) {
				return
			}
		}
		all(s.NextSteps...)
	}
}

// compactBufs are buffers for compactJSON, reused across summaries.
var compactBufs = sync.Pool{New: func() any { return new([]byte) }}

// compactJSON is the summary as compact JSON: Raw compacted, or the decoded
// summary marshalled when Raw is empty or cannot be compacted. It may
// append to buf.
func compactJSON(st *state, buf []byte) []byte {
	raw := st.in.Raw
	if st.readErr == nil && len(bytes.TrimSpace(raw)) > 0 {
		// raw decoded without error, so it is valid JSON: what json.Compact
		// would do is drop the whitespace outside strings, and nothing else.
		return dropSpace(buf, raw)
	}
	if len(raw) > 0 {
		var b bytes.Buffer
		b.Grow(len(raw))
		if json.Compact(&b, raw) == nil {
			return b.Bytes()
		}
	}
	out, _ := json.Marshal(st.sum)
	return out
}

// dropSpace returns valid JSON raw without its insignificant whitespace:
// json.Compact's output, without its scanner's cost.
func dropSpace(out, raw []byte) []byte {
	inString := false
	start := 0 // raw[start:i] is still to be copied
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case ' ', '\t', '\n', '\r':
			out = append(out, raw[start:i]...)
			start = i + 1
		}
	}
	return append(out, raw[start:]...)
}
