package summarizers

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

var (
	// constraintRE finds an instruction that limits what the agent may do
	// (matched on accent-folded text, so "sólo" is "solo").
	constraintRE = regexp.MustCompile(`(?i)\b(?:do not|don't|dont|never|only|read[- ]?only|must not|mustn't|not allowed|without|unless|approval|go-ahead|freeze|pinned|solo|nunca|no (?:toques|cambies|hagas)|nada de|sin)\b`)
	// pathRE finds file-like tokens: a name with a known extension, with or
	// without directories, or an absolute path of two or more parts.
	pathRE = regexp.MustCompile(`(?:\.{0,2}/)?(?:[\w.@-]+/)*[\w@-][\w.@-]*\.(?:ya?ml|json|jsonl|go|py|rb|rs|java|kt|ts|tsx|js|mjs|sql|conf|cfg|ini|toml|env|log|txt|md|csv|tsv|sh|pem|crt|key|lock|xml|html|css|proto|tf|tfvars|bak|gz|zip|tar|db|sqlite|parquet|ipynb|dockerfile|service|properties|gradle)\b|/(?:[\w.@-]+/)+[\w.@-]+`)
	// digestRE finds a content digest.
	digestRE = regexp.MustCompile(`\b(?:sha256|sha1|md5):[0-9a-fA-F]{7,}\b`)
	// quantityRE finds a number with a unit.
	quantityRE = regexp.MustCompile(`(?i)\b\d+(?:[.,]\d+)*(?:\s?k)?\s?(?:%|(?:percent|por ciento|ms|s|sec|secs|seconds|segundos|min|mins|minutes|minutos|h|hours|horas|days|días|dias|tokens|kb|mb|gb|tb|kib|mib|gib|bytes|req/s|rps|qps|connections|conexiones|retries|replicas|requests|users|rows|filas)\b)`)
	// sentenceRE splits text into sentences.
	sentenceRE = regexp.MustCompile(`[.!?;]+(?:\s+|$)|\n+`)
)

// Caps on the lists of an extractive summary (newest kept).
const (
	maxVerified  = 40
	maxNextSteps = 2
)

// NewExtractive returns the `extractive` baseline: a structured summary
// (docs/formats.md §3) built by rules from the events alone, merged with the
// previous summary in iterative mode:
//
//   - goal: the request's goal.
//   - constraints: every sentence of a user or system event containing an
//     instruction word (do not, don't, never, only, read-only, must not, not
//     allowed, without, unless, approval, go-ahead, freeze, pinned; solo,
//     nunca, nada de, sin), accents folded, citing that event's seq
//     (deduplicated).
//   - pending: every tool call with no result among the events it has seen,
//     or with a timeout result: op_id = the call id, status unknown,
//     description = name(args). A pending entry of the previous summary is
//     dropped when its result (not a timeout) arrives.
//   - errors: every tool result with status error, resolution "unresolved".
//   - artifacts: every file-like token (a name with a known extension, or an
//     absolute path) of any event, exactly as written, first occurrence; a
//     digest (sha256:…) travels with the path when an event names it with
//     exactly one path. Tokens inside a URL are not paths.
//   - verified: every sentence with a number and a unit (80 %, 30 s, 50,000
//     tokens) from a user or tool event, citing it; the newest 40 are kept.
//     The same from an assistant event is not evidence: it goes to text.
//   - next_steps: the last sentences of the last assistant statement.
//   - text: the last user request and the assistant's numbers.
//
// It never writes hypotheses, decisions or corrections: it cannot tell a
// refuted hypothesis from a live one, nor a corrected value from the old
// one. When the document exceeds the budget (see budget), it drops the text,
// then the oldest verified claims; constraints, pending operations and
// artifacts are never dropped.
func NewExtractive() Summarizer {
	counter := tokens.Default()
	return builtin{name: "extractive", fn: func(req *Request) (*summary.Summary, error) {
		prevText, prev := previousText(req.PreviousSummary)
		s := &summary.Summary{SchemaVersion: summary.SchemaVersion, CoversThrough: req.Cut, Goal: req.Goal}
		if prev != nil && !prev.TextOnly() {
			s.Constraints = append(s.Constraints, prev.Constraints...)
			s.Verified = append(s.Verified, prev.Verified...)
			s.Pending = append(s.Pending, prev.Pending...)
			s.Artifacts = append(s.Artifacts, prev.Artifacts...)
			s.Errors = append(s.Errors, prev.Errors...)
		}
		extract(s, req.Events)
		eventsText := req.EventsText()
		limit := budget(req, counter, eventsText, prevText)
		size := func() int {
			b, _ := json.Marshal(s)
			return counter.Count(string(b))
		}
		total := size()
		if total > limit && s.Text != "" {
			s.Text = ""
			total = size()
		}
		// Drop the oldest verified claims, each costing its own tokens and
		// a few for its JSON wrapper, without counting the whole again.
		for len(s.Verified) > 0 && total > limit {
			total -= counter.Count(s.Verified[0].Claim) + 8
			s.Verified = s.Verified[1:]
		}
		return s, nil
	}}
}

// extract adds what the rules find in events to s.
func extract(s *summary.Summary, events []scenarios.Event) {
	seenConstraint := map[string]bool{}
	for _, c := range s.Constraints {
		seenConstraint[textmatch.Fold(strings.ToLower(c.Text))] = true
	}
	seenPath := map[string]int{} // path → index in s.Artifacts
	for i, a := range s.Artifacts {
		seenPath[a.Path] = i
	}
	// Results seen here resolve calls, old or new.
	results := map[string]*scenarios.Event{}
	for i := range events {
		if r := events[i].ToolResult; r != nil {
			results[r.CallID] = &events[i]
		}
	}
	var pending []summary.Pending
	for _, p := range s.Pending {
		if r, ok := results[p.OpID]; ok && r.ToolResult.Status != scenarios.StatusTimeout {
			continue
		}
		pending = append(pending, p)
	}
	s.Pending = pending
	var lastUser, lastAssistant *scenarios.Event
	var assistantNumbers []string
	for i := range events {
		e := &events[i]
		text := e.Text
		if e.ToolResult != nil {
			text = e.ToolResult.Text
		}
		switch {
		case e.Role == scenarios.RoleUser && e.Text != "":
			lastUser = e
		case e.Role == scenarios.RoleAssistant && e.Text != "":
			lastAssistant = e
		}
		sentences := splitSentences(text)
		if e.Role == scenarios.RoleUser || e.Role == scenarios.RoleSystem {
			for _, sn := range sentences {
				if !constraintRE.MatchString(textmatch.Fold(sn)) {
					continue
				}
				k := textmatch.Fold(strings.ToLower(sn))
				if seenConstraint[k] {
					continue
				}
				seenConstraint[k] = true
				s.Constraints = append(s.Constraints, summary.Constraint{Text: sn, SourceSeq: e.Seq})
			}
		}
		for _, sn := range sentences {
			if !strings.ContainsAny(sn, "0123456789") || !quantityRE.MatchString(sn) {
				continue
			}
			if e.Role == scenarios.RoleUser || e.Role == scenarios.RoleTool {
				s.Verified = append(s.Verified, summary.Claim{Claim: clip.String(sn, 240), SourceSeq: e.Seq})
			} else {
				assistantNumbers = append(assistantNumbers, clip.String(sn, 160))
			}
		}
		if c := e.ToolCall; c != nil {
			r, ok := results[c.ID]
			if !ok || r.ToolResult.Status == scenarios.StatusTimeout {
				s.Pending = append(s.Pending, summary.Pending{OpID: c.ID, Description: c.Name + transcript.Args(c.Args), Status: summary.PendingUnknown, SourceSeq: e.Seq})
			}
			text += " " + transcript.Args(c.Args)
		}
		if r := e.ToolResult; r != nil && r.Status == scenarios.StatusError {
			s.Errors = append(s.Errors, summary.ErrorNote{Text: clip.String(r.Text, 240), Resolution: "unresolved", SourceSeq: e.Seq})
		}
		paths := findPaths(text)
		digest := ""
		if strings.Contains(text, ":") {
			digest = digestRE.FindString(text)
		}
		for _, p := range paths {
			p = strings.TrimRight(p, ".,:;")
			withDigest := digest != "" && len(paths) == 1
			if i, ok := seenPath[p]; ok {
				if withDigest && s.Artifacts[i].Digest == "" {
					s.Artifacts[i].Digest = digest
				}
				continue
			}
			seenPath[p] = len(s.Artifacts)
			a := summary.ArtifactRef{Path: p, SourceSeq: e.Seq}
			if withDigest {
				a.Digest = digest
			}
			s.Artifacts = append(s.Artifacts, a)
		}
	}
	if n := len(s.Verified); n > maxVerified {
		s.Verified = s.Verified[n-maxVerified:]
	}
	if lastAssistant != nil {
		ss := splitSentences(lastAssistant.Text)
		s.NextSteps = ss[max(0, len(ss)-maxNextSteps):]
	}
	var text []string
	if lastUser != nil {
		text = append(text, "Last user request (#"+itoa(lastUser.Seq)+"): "+clip.String(lastUser.Text, 300))
	}
	if len(assistantNumbers) > 0 {
		if len(assistantNumbers) > 5 {
			assistantNumbers = assistantNumbers[len(assistantNumbers)-5:]
		}
		text = append(text, "The assistant noted (unverified): "+strings.Join(assistantNumbers, " | "))
	}
	s.Text = strings.Join(text, "\n")
}

func splitSentences(text string) []string {
	var out []string
	for _, p := range sentenceRE.Split(text, -1) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// findPaths returns the file-like tokens of text, exactly as written. A
// token that is part of a URL is not a path.
func findPaths(text string) []string {
	var out []string
	for _, word := range strings.Fields(text) {
		if strings.Contains(word, "://") {
			continue
		}
		if !strings.ContainsAny(word, "./") {
			continue // every path has an extension or a slash
		}
		for _, loc := range pathRE.FindAllStringIndex(word, -1) {
			if loc[0] > 0 && !strings.ContainsRune("\"'`(<[{=", rune(word[loc[0]-1])) {
				continue // the middle of a longer token
			}
			out = append(out, word[loc[0]:loc[1]])
		}
	}
	return out
}
