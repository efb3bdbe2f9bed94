package guard

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Claude Code hook events the guard answers (docs/guard.md, "Claude Code").
const (
	HookPreCompact   = "PreCompact"
	HookPostCompact  = "PostCompact"
	HookSessionStart = "SessionStart"
)

// HookInput is the JSON Claude Code writes on a hook's stdin: the fields
// every event carries, and those of PreCompact (trigger,
// custom_instructions), PostCompact (trigger, compact_summary) and
// SessionStart (source: startup, resume, clear or compact). Other fields
// are ignored.
type HookInput struct {
	SessionID          string  `json:"session_id"`
	TranscriptPath     string  `json:"transcript_path"`
	Cwd                string  `json:"cwd"`
	HookEventName      string  `json:"hook_event_name"`
	Source             string  `json:"source,omitempty"`
	Trigger            string  `json:"trigger,omitempty"`
	CustomInstructions *string `json:"custom_instructions,omitempty"`
	CompactSummary     string  `json:"compact_summary,omitempty"`
}

// ReadHookInput reads a hook's stdin. An input that is not one JSON
// object, or that names no event or no transcript, is an *InputError.
func ReadHookInput(r io.Reader) (*HookInput, error) {
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return nil, err
	}
	var in HookInput
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, inputErrorf("the hook input is not a JSON object: %v", err)
	}
	if in.HookEventName == "" {
		return nil, inputErrorf("the hook input names no hook_event_name")
	}
	return &in, nil
}

// Transcript is the transcript's path, relative paths read from the
// hook's cwd.
func (in *HookInput) Transcript() string {
	p := in.TranscriptPath
	if p != "" && !filepath.IsAbs(p) && in.Cwd != "" {
		p = filepath.Join(in.Cwd, p)
	}
	return p
}

// HookOutput is the JSON a hook prints on stdout for Claude Code: the
// fields every event reads (continue, stopReason, systemMessage) and
// SessionStart's hookSpecificOutput.additionalContext, the text Claude
// Code adds to the context of the session it starts.
type HookOutput struct {
	Continue           *bool         `json:"continue,omitempty"`
	StopReason         string        `json:"stopReason,omitempty"`
	SystemMessage      string        `json:"systemMessage,omitempty"`
	HookSpecificOutput *HookSpecific `json:"hookSpecificOutput,omitempty"`
}

// HookSpecific is hookSpecificOutput.
type HookSpecific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// HookOptions says what a hook checks against and whether it may stop
// the agent.
type HookOptions struct {
	Options
	// Block stops the agent (continue: false, with the reason) after a
	// compaction that lost an invariant, where the event allows it
	// (SessionStart); FailUncertain does so for an uncertain verdict too.
	Block, FailUncertain bool
}

// HookResponse is what a hook prints: JSON for Claude Code (nil: print
// nothing), or, for PreCompact, plain text Claude Code hands to the
// compaction as instructions; Note is one line for stderr, which Claude
// Code shows in its debug output only.
type HookResponse struct {
	JSON    *HookOutput
	Text    string
	Note    string
	Verdict *Verdict
}

// Hook answers one Claude Code hook call:
//
//   - SessionStart with source compact (the session rebuilt from a
//     compaction's summary): checks the transcript's latest compaction
//     against the history before it; when something is lost or
//     uncertain, the verdict goes to the user (systemMessage) and the
//     invariants, restated from their source events, into the context
//     (additionalContext); with Block, a loss also stops the agent.
//     When nothing could be checked (no invariant applies, or the
//     transcript records no compaction) the user is told so, and
//     nothing is added to the context.
//   - PostCompact: checks compact_summary the same way and tells the
//     user (systemMessage): the event cannot add context or block.
//   - PreCompact: no summary exists yet; the invariants the history
//     states are printed as text, which Claude Code passes to the
//     compaction as custom instructions. It never blocks.
//
// Any other event, or SessionStart from another source, prints nothing.
func Hook(in *HookInput, opts HookOptions) (*HookResponse, error) {
	switch in.HookEventName {
	case HookSessionStart:
		if in.Source != "compact" {
			return &HookResponse{Note: fmt.Sprintf("SessionStart from %q, not after a compaction: nothing to check", in.Source)}, nil
		}
	case HookPostCompact, HookPreCompact:
	default:
		return &HookResponse{Note: fmt.Sprintf("the guard does not answer %s hooks", in.HookEventName)}, nil
	}
	if in.TranscriptPath == "" {
		return nil, inputErrorf("the %s hook input names no transcript_path", in.HookEventName)
	}
	s, err := ReadFile(in.Transcript(), ReadOptions{Format: string(importer.FormatClaudeCode)})
	if err != nil {
		return nil, err
	}
	if in.HookEventName == HookPreCompact {
		text, n := Instructions(s, opts.Options)
		if n == 0 {
			return &HookResponse{Note: "no invariant of the history to keep: nothing to ask"}, nil
		}
		return &HookResponse{Text: text, Note: fmt.Sprintf("asked the compaction to keep %s", plural(n, "fact", "facts"))}, nil
	}
	b, ok := s.Latest()
	if in.HookEventName == HookPostCompact && strings.TrimSpace(in.CompactSummary) != "" {
		if !ok || strings.TrimSpace(b.Recorded.Summary) != strings.TrimSpace(in.CompactSummary) {
			// The transcript does not hold this compaction yet: its
			// summary replaced the whole history read.
			b, err = s.NewBoundary([]byte(in.CompactSummary), 0, "compact_summary")
			if err != nil {
				return nil, err
			}
			ok = true
		}
	}
	if !ok {
		// Claude Code says it compacted; the guard cannot find it. Not
		// a loss, but the user must know nothing was checked.
		why := "Claude Code reports a compaction, but the transcript records none: nothing was checked"
		return &HookResponse{JSON: &HookOutput{SystemMessage: "compact-eval guard: UNCERTAIN: " + why}, Note: why}, nil
	}
	v, err := Check(s, b, opts.Options)
	if err != nil {
		return nil, err
	}
	resp := &HookResponse{Verdict: v, Note: "guard: " + strings.ToUpper(string(v.Status)) + ": " + v.Reason}
	if v.Status == Kept {
		return resp, nil
	}
	bad := v.Status == Lost || v.Status == Uncertain && opts.FailUncertain
	restated := Restatement(v)
	out := &HookOutput{SystemMessage: "compact-eval guard: " + v.Reason}
	if v.Kept+v.Lost+v.Uncertain == 0 && restated == "" {
		out.SystemMessage += " (write the project's invariants in " + DefaultInvariantsFile + ")"
	}
	if in.HookEventName == HookSessionStart {
		if restated != "" {
			out.SystemMessage += "; restated into the context"
			out.HookSpecificOutput = &HookSpecific{HookEventName: HookSessionStart, AdditionalContext: restated}
		}
		if opts.Block && bad {
			no := false
			out.Continue = &no
			out.StopReason = "compact-eval guard stopped the session: " + v.Reason + "."
			if restated != "" {
				out.StopReason += " The lost invariants are restated in the context; check them before you continue."
			}
		}
	}
	resp.JSON = out
	return resp, nil
}

// Instructions is the text a compaction should keep: every invariant
// the history before its last event states (the project's, and the
// suggestions opts asks for), each restated from its source; and how
// many there are.
func Instructions(s *Session, opts Options) (string, int) {
	groups, _, err := invariantsFor(s, opts)
	if err != nil {
		return "", 0
	}
	sc := *s.Scenario
	var lines []string
	seen := map[string]bool{}
	secret := false
	for _, g := range groups {
		keep, _ := lintGroup(&sc, g)
		for _, o := range keep {
			if _, ok := scenarios.Pointer(o.inv).(*scenarios.Secret); ok {
				secret = true
				continue
			}
			r := restate(&sc, o.inv)
			if !seen[r] {
				seen[r] = true
				lines = append(lines, fmt.Sprintf("%d. %s", len(lines)+1, r))
			}
		}
	}
	if secret {
		lines = append(lines, fmt.Sprintf("%d. Copy no secret of the history (an API key, a token, a password) into the summary.", len(lines)+1))
	}
	if len(lines) == 0 {
		return "", 0
	}
	red := redactor(s, &sc)
	return red.String("The summary must keep these facts of the history (compact-eval guard checks it after the compaction):\n" + strings.Join(lines, "\n")), len(lines)
}
