package main

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/providers"
)

// modelEndpoint is where a model target sends its requests and where its
// key comes from, as the run will build it.
type modelEndpoint struct {
	// role and name say which target: "summarizer openai:gpt-4o".
	role, name string
	// urlVar is the variable the endpoint was read from ("" for a config
	// endpoint or a provider's public default); url the endpoint.
	urlVar, url string
	// endpoint is the config endpoint's name, "" when the ambient variables
	// are used.
	endpoint string
	// keyVar is the variable that holds the key ("" when the endpoint is
	// a config endpoint without api_key_env: it gets no key).
	keyVar string
	// public is true when the endpoint is the provider's public API, which
	// refuses every request without a key.
	public bool
}

// ambient are the variables of the provider APIs: base URL, key, default.
var ambient = map[string]struct{ urlVar, keyVar, def string }{
	providers.KindOpenAI:    {"OPENAI_BASE_URL", "OPENAI_API_KEY", llm.DefaultBaseURL},
	providers.KindResponses: {"OPENAI_BASE_URL", "OPENAI_API_KEY", llm.DefaultBaseURL},
	providers.KindAnthropic: {"ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", providers.DefaultAnthropicBaseURL},
}

// publicHosts are the provider APIs that need a key.
var publicHosts = []string{"api.openai.com", "api.anthropic.com"}

// endpointOf is the endpoint of a model target t (role summarizer, agent or
// judge), read as providers and the config file read it.
func endpointOf(file *config.File, role string, t config.Target, getenv func(string) string) modelEndpoint {
	a := ambient[t.Spec.Kind]
	e := modelEndpoint{role: role, name: t.Name}
	if t.Endpoint != "" && file != nil {
		if ce, ok := file.Endpoint(t.Endpoint); ok {
			e.endpoint, e.url, e.keyVar = ce.Name, ce.BaseURL, ce.APIKeyEnv
			e.public = isPublic(e.url)
			return e
		}
	}
	e.keyVar = a.keyVar
	if v := getenv(a.urlVar); v != "" {
		e.urlVar, e.url = a.urlVar, v
	} else {
		e.url = a.def
	}
	e.public = isPublic(e.url)
	return e
}

func isPublic(endpoint string) bool {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil {
		return false
	}
	for _, h := range publicHosts {
		if strings.EqualFold(u.Hostname(), h) {
			return true
		}
	}
	return false
}

// modelTargets are the model-backed targets of a run's settings, with their
// role: the summarizers, the agent and the judge.
func modelTargets(s config.Settings) (roles []string, targets []config.Target) {
	add := func(role string, t config.Target) {
		if providers.ModelKind(t.Spec.Kind) {
			roles, targets = append(roles, role), append(targets, t)
		}
	}
	for _, t := range s.Summarizers {
		add("summarizer", t)
	}
	add("agent", s.Agent)
	if s.Judge != nil {
		add("judge", *s.Judge)
	}
	return roles, targets
}

// preflight checks, before any request, that every model target of the
// run has a well-formed endpoint and the key its endpoint needs: an
// endpoint of the config file that names api_key_env needs that variable
// set; a provider's public API (OPENAI_BASE_URL or ANTHROPIC_BASE_URL unset,
// or naming it) needs OPENAI_API_KEY or ANTHROPIC_API_KEY. An endpoint of
// one's own given by the ambient variable may go without a key (local
// servers need none). Each problem is one line naming the target and the
// variable, never a value.
func preflight(file *config.File, s config.Settings, getenv func(string) string) error {
	var errs []error
	seen := map[string]bool{}
	roles, targets := modelTargets(s)
	for i, t := range targets {
		e := endpointOf(file, roles[i], t, getenv)
		var msg string
		switch {
		case !wellFormed(e.url):
			// Never print the URL: it may hold credentials.
			msg = fmt.Sprintf("%s %s: %s is not an http or https URL with a host, such as http://localhost:8000/v1", e.role, e.name, e.urlVar)
		case e.keyVar != "" && getenv(e.keyVar) == "" && e.endpoint != "":
			msg = fmt.Sprintf("%s %s: %s is not set: endpoint %q of the config file takes its key from it (api_key_env)", e.role, e.name, e.keyVar, e.endpoint)
		case e.keyVar != "" && getenv(e.keyVar) == "" && e.public:
			msg = fmt.Sprintf("%s %s: %s is not set, and %s refuses requests without a key: export %s (or set %s to an endpoint that needs none)",
				e.role, e.name, e.keyVar, llm.Host(e.url), e.keyVar, ambient[t.Spec.Kind].urlVar)
		}
		if msg != "" && !seen[msg] {
			seen[msg] = true
			errs = append(errs, errors.New(msg))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return inputError{errors.Join(errs...)}
}

// wellFormed reports whether endpoint is an http or https URL with a host.
func wellFormed(endpoint string) bool {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
