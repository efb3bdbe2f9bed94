package main

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
	"github.com/compact-eval/compact-eval/providers"
)

func target(t *testing.T, raw string) config.Target {
	t.Helper()
	s, err := providers.ParseSpec(raw)
	if err != nil {
		t.Fatal(err)
	}
	return config.Target{Name: raw, Spec: s}
}

// Each case: the environment, the targets, and the one problem (or none)
// pre-flight reports.
func TestPreflight(t *testing.T) {
	file, err := config.Parse("cfg.yaml", []byte(`endpoints:
  - {name: keyed, base_url: "https://gateway.example/v1", api_key_env: GW_KEY}
  - {name: open, base_url: "http://localhost:8000/v1"}
`))
	if err != nil {
		t.Fatal(err)
	}
	withEndpoint := func(raw, ep string) config.Target {
		tg := target(t, raw)
		tg.Endpoint = ep
		return tg
	}
	tests := []struct {
		name string
		env  map[string]string
		sums []config.Target
		want string // "" when the run may go
	}{
		{"offline targets need nothing", nil, []config.Target{target(t, "builtin:mask"), target(t, "exec:./sum")}, ""},
		{"the public API needs its key", nil, []config.Target{target(t, "openai:m")}, "summarizer openai:m: OPENAI_API_KEY is not set"},
		{"the public API named by the variable needs it too", map[string]string{"OPENAI_BASE_URL": "https://API.openai.com/v1"}, []config.Target{target(t, "openai-responses:m")}, "OPENAI_API_KEY is not set"},
		{"an endpoint of one's own may go without a key", map[string]string{"OPENAI_BASE_URL": "http://localhost:8000/v1"}, []config.Target{target(t, "openai:m")}, ""},
		{"a key set is enough", map[string]string{"ANTHROPIC_API_KEY": "k"}, []config.Target{target(t, "anthropic:m")}, ""},
		{"a malformed endpoint is named by its variable", map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": "localhost:8000"}, []config.Target{target(t, "anthropic:m")}, "ANTHROPIC_BASE_URL is not an http or https URL"},
		{"a config endpoint's api_key_env must be set", map[string]string{"OPENAI_API_KEY": "k"}, []config.Target{withEndpoint("openai:m", "keyed")}, `GW_KEY is not set: endpoint "keyed"`},
		{"a config endpoint without api_key_env needs no key", nil, []config.Target{withEndpoint("openai:m", "open")}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := config.Settings{Summarizers: tc.sums, Agent: target(t, "builtin:reference")}
			err := preflight(file, s, func(k string) string { return tc.env[k] })
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want %q", err, tc.want)
			case err != nil && exitCode(err) != exitUsage: // 2, as bad usage
				t.Errorf("exit code %d, want %d", exitCode(err), exitUsage)
			}
		})
	}
}
