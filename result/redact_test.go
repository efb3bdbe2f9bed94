package result_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/result"
)

func TestRedactUnit(t *testing.T) {
	secret := `tok"en\with-quote-0123456789`
	// Every free-text field a program's output can reach holds the secret:
	// an exec summarizer or agent that echoes its input to stderr, an error
	// that quotes the reply, a warning.
	u := result.Unit{
		Error:    "failed with " + secret,
		Warnings: []string{"warned about " + secret},
		Generations: []result.Generation{{
			Summary: []byte(`{"schema_version":1,"covers_through":3,"text":"see tok\"en\\with-quote-0123456789 and tok\"en\\w"}`),
			Checks: []result.CheckResult{{Check: "secret", Status: result.Fail, Message: "leaked " + secret[:8],
				Evidence: []result.Evidence{{Pointer: "/text", Text: secret, Pattern: secret, Note: "near " + secret}},
				Judge: &result.Judgement{Verdict: "kept", Quote: "quoted " + secret, Reason: "because " + secret, Error: "judge said " + secret,
					Call: result.Call{Stderr: "judge stderr " + secret, Extra: map[string]string{"echo": secret}}}}},
			Call:         result.Call{Stderr: "stdin was " + secret, Extra: map[string]string{"echo": secret}},
			Error:        "reply quoted " + secret,
			InstallError: "refused " + secret,
		}},
		Probes: []result.Probe{{
			Full:      result.Decision{Reason: "I used " + secret},
			Compacted: result.Decision{Error: "agent said " + secret, Call: result.Call{Stderr: "agent stderr " + secret, Extra: map[string]string{"echo": secret}}},
			Diff:      "- " + secret,
		}},
	}
	result.RedactUnit(&u, redact.New([]redact.Secret{{ID: "k", Value: secret}, {ID: "empty", Value: ""}}))
	want := `{"schema_version":1,"covers_through":3,"text":"see [redacted:k] and [redacted:k]"}`
	if d := cmp.Diff(want, string(u.Generations[0].Summary)); d != "" {
		t.Errorf("summary (-want +got):\n%s", d)
	}
	g, ev, cd := u.Generations[0], u.Generations[0].Checks[0].Evidence[0], u.Probes[0].Compacted
	got := []string{u.Error, u.Warnings[0], g.Checks[0].Message, ev.Text, ev.Pattern, ev.Note, g.Call.Stderr, g.Call.Extra["echo"], g.Error, g.InstallError,
		u.Probes[0].Full.Reason, cd.Error, cd.Call.Stderr, cd.Call.Extra["echo"], u.Probes[0].Diff}
	j := g.Checks[0].Judge
	got = append(got, j.Quote, j.Reason, j.Error, j.Call.Stderr, j.Call.Extra["echo"])
	wantS := []string{"failed with [redacted:k]", "warned about [redacted:k]", "leaked [redacted:k]", "[redacted:k]", "[redacted:k]", "near [redacted:k]",
		"stdin was [redacted:k]", "[redacted:k]", "reply quoted [redacted:k]", "refused [redacted:k]",
		"I used [redacted:k]", "agent said [redacted:k]", "agent stderr [redacted:k]", "[redacted:k]", "- [redacted:k]",
		"quoted [redacted:k]", "because [redacted:k]", "judge said [redacted:k]", "judge stderr [redacted:k]", "[redacted:k]"}
	if d := cmp.Diff(wantS, got); d != "" {
		t.Errorf("redacted strings (-want +got):\n%s", d)
	}
	if u.Generations[0].Checks[0].Evidence[0].Pointer != "/text" {
		t.Errorf("pointer changed: %q", u.Generations[0].Checks[0].Evidence[0].Pointer)
	}
}
