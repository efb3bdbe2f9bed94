package redact

import (
	"strings"
	"testing"
)

// A tool that prints a long key in a narrow column (a terminal, a wrapped
// log, base64 in a YAML manifest) splits it across lines. That printout is
// the secret itself, not a public part of it: a summary that copies it,
// line break included, leaks the whole key.
func TestWrappedSecretInTheSessionIsNotPublic(t *testing.T) {
	wrapped := stripe[:28] + "\n" + stripe[28:]
	sessionWrapped := []string{
		"401 Unauthorized: Invalid API Key provided: sk_live_****************************7Hq2",
		"$ kubectl get secret stripe -o yaml\ndata:\n  key: " + wrapped,
	}
	r := New([]Secret{{ID: "stripe", Value: stripe}}, sessionWrapped...)
	for name, summary := range map[string]string{
		"wrapped as the tool printed it": "The key is " + wrapped + ".",
		"wrapped elsewhere":              "The key is " + stripe[:20] + "\n  " + stripe[20:] + ".",
		"whole":                          "The key is " + stripe + ".",
		"the wrapped tail alone":         "It ends in " + stripe[28:] + ".",
	} {
		out := r.String(summary)
		for _, part := range []string{stripe[:20], stripe[20:28], stripe[28:40], stripe[40:]} {
			if strings.Contains(out, part) {
				t.Errorf("%s: %q is still there: %q", name, part, out)
			}
		}
	}
	// The masked form the tool printed stays public.
	if masked := "sk_live_****************************7Hq2"; r.Contains("it printed " + masked) {
		t.Errorf("the masked form %q counts as a leak", masked)
	}
}
