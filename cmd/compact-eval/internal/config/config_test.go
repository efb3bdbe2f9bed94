package config

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/scenarios"
)

func ptr[T any](v T) *T { return &v }

func TestParseGood(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "summarize.tmpl"), []byte("Summarize {{.Cut}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, DefaultFile)
	tests := []struct {
		name string
		in   string
		want *File
	}{
		{
			name: "empty file",
			in:   "",
			want: &File{Path: name},
		},
		{
			name: "comments only",
			in:   "# nothing yet\n",
			want: &File{Path: name},
		},
		{
			name: "everything",
			in: `version: 1
summarizers:
  - builtin:extractive
  - name: small
    type: openai
    model: gpt-4o-mini
    prompt: summarize.tmpl
    params: {temperature: 0.2, seed: 7, max_tokens: 2000}
    endpoint: local
  - name: ours
    type: exec
    command: python3 'my compactor.py' --structured
  - name: listed
    type: exec
    command: [./bin/compact, --mode, "a b"]
  - name: by-spec
    spec: openai:llama3
    endpoint: local
endpoints:
  - name: local
    base_url: http://localhost:8000/v1
    api_key_env: LOCAL_LLM_KEY
  - {name: open, base_url: "https://gateway.example/v1?api-version=2"}
agent:
  spec: openai:gpt-4o
  params: {temperature: 0}
trials: 3
jobs: 8
exec_timeout: 30s
gates:
  min_pass: {constraint: 1, all: 0.9, schema: "95%"}
  baseline: base/result.json
`,
			want: &File{
				Path: name,
				Summarizers: []Target{
					{Name: "builtin:extractive", Spec: providers.Spec{Kind: "builtin", Name: "extractive", Raw: "builtin:extractive"}, Pos: result.Pos{Line: 3, Col: 5}},
					{
						Name: "small", Spec: providers.Spec{Kind: "openai", Name: "gpt-4o-mini", Raw: "openai:gpt-4o-mini"},
						Prompt: filepath.Join(dir, "summarize.tmpl"),
						Params: Params{Temperature: ptr(0.2), Seed: ptr(7), MaxTokens: 2000}, Endpoint: "local",
						Pos: result.Pos{Line: 4, Col: 5},
					},
					{
						Name: "ours", Spec: providers.Spec{Kind: "exec", Command: []string{"python3", "my compactor.py", "--structured"}, Raw: "exec:python3 'my compactor.py' --structured"},
						Pos: result.Pos{Line: 10, Col: 5},
					},
					{
						Name: "listed", Spec: providers.Spec{Kind: "exec", Command: []string{"./bin/compact", "--mode", "a b"}, Raw: "exec:./bin/compact --mode 'a b'"},
						Pos: result.Pos{Line: 13, Col: 5},
					},
					{
						Name: "by-spec", Spec: providers.Spec{Kind: "openai", Name: "llama3", Raw: "openai:llama3"}, Endpoint: "local",
						Pos: result.Pos{Line: 16, Col: 5},
					},
				},
				Endpoints: []Endpoint{
					{Name: "local", BaseURL: "http://localhost:8000/v1", APIKeyEnv: "LOCAL_LLM_KEY", Pos: result.Pos{Line: 20, Col: 5}},
					{Name: "open", BaseURL: "https://gateway.example/v1?api-version=2", Pos: result.Pos{Line: 23, Col: 5}},
				},
				Agent: &Target{
					Name: "openai:gpt-4o", Spec: providers.Spec{Kind: "openai", Name: "gpt-4o", Raw: "openai:gpt-4o"},
					Params: Params{Temperature: ptr(0.0)}, Pos: result.Pos{Line: 25, Col: 3},
				},
				Trials: 3, Jobs: 8, ExecTimeout: 30 * time.Second,
				Gates: Gates{
					MinPass:  map[string]float64{"constraint": 1, "all": 0.9, "schema": 0.95},
					Baseline: filepath.Join(dir, "base/result.json"),
				},
			},
		},
		{
			name: "agent as a spec, min_pass as one rate",
			in:   "agent: exec:./agent.sh --fast\ngates: {min_pass: 0.8}\n",
			want: &File{
				Path: name,
				Agent: &Target{Name: "exec:./agent.sh --fast", Spec: providers.Spec{Kind: "exec", Command: []string{"./agent.sh", "--fast"}, Raw: "exec:./agent.sh --fast"},
					Pos: result.Pos{Line: 1, Col: 8}},
				Gates: Gates{MinPass: map[string]float64{"all": 0.8}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(name, []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseBad(t *testing.T) {
	const key = "sk-test-DONOTLEAK-1234567890abcdef"
	tests := []struct {
		name string
		in   string
		want []string // one line per problem, without the file name
	}{
		{
			// Issue 26, finding 7: an empty list silently ran the defaults.
			name: "empty summarizers",
			in:   "summarizers: []\n",
			want: []string{`1:14: summarizers: the list is empty; name at least one summarizer, or leave the key out to run the built-in ones`},
		},
		{
			name: "unknown fields everywhere",
			in: `summarizers:
  - name: a
    spec: builtin:none
    colour: blue
endpoints:
  - {name: e, base_url: "http://x", region: eu}
trails: 3
gates: {min_pass: 1, baseline_file: x}
`,
			want: []string{
				`4:5: unknown field "colour"`,
				`6:37: unknown field "region"`,
				`7:1: unknown field "trails" (did you mean "trials"?)`,
				`8:22: unknown field "baseline_file"`,
			},
		},
		{
			name: "literal keys are refused and never echoed",
			in: `endpoints:
  - name: e
    base_url: http://localhost:1/v1
    api_key: ` + key + `
  - name: f
    base_url: http://localhost:2/v1
    api_key_env: ` + key + `
  - name: g
    base_url: https://user:` + key + `@example.com/v1
summarizers:
  - {spec: "openai:m", endpoint: e, token: ` + key + `}
`,
			want: []string{
				`4:5: field "api_key": API keys never go in this file; set api_key_env to the name of the environment variable that holds the key`,
				`7:18: endpoints[1].api_key_env: want the NAME of an environment variable (upper case, such as OPENAI_API_KEY), not a key: API keys never go in this file`,
				`9:15: endpoints[2].base_url: credentials are not allowed in the URL; set api_key_env`,
				`11:37: field "token": API keys never go in this file; set api_key_env to the name of the environment variable that holds the key`,
			},
		},
		{
			name: "scenario paths",
			in: `scenarios: [a, "", 3, [x]]
`,
			want: []string{
				`1:16: scenarios[1]: empty`,
				`1:20: scenarios[2]: want a string, got a number`,
				`1:23: scenarios[3]: want a string, got a list`,
			},
		},
		{
			name: "no scenario paths",
			in: `scenarios: []
`,
			want: []string{`1:12: scenarios: empty list`},
		},
		{
			name: "targets",
			in: `summarizers:
  - nonsense
  - {spec: "openai:m", type: openai}
  - {name: x}
  - {type: openai}
  - {type: exec, command: "python3 'unterminated"}
  - {type: exec, model: m, command: [run]}
  - {type: builtin, model: none}
  - {type: magic}
  - {spec: "builtin:none", prompt: p.tmpl, endpoint: e, params: {seed: 1}}
  - {spec: "openai:m", prompt: missing.tmpl, endpoint: nowhere}
  - {spec: "openai:m", model: other}
  - builtin:none
  - builtin:none
  - {type: exec, command: []}
  - {type: openai, model: m, params: {temperature: 3, seed: -1, max_tokens: 0, top_p: 1}}
agent: [a, b]
`,
			want: []string{
				`2:5: summarizers[0]: spec "nonsense": want builtin:NAME, exec:COMMAND, openai:MODEL, anthropic:MODEL, openai-responses:MODEL or recorded`,
				`3:24: summarizers[1]: give spec or type, not both`,
				`4:5: summarizers[2]: want spec (such as openai:gpt-4o-mini) or type (exec, openai, anthropic or openai-responses)`,
				`5:12: summarizers[3]: type openai needs a model`,
				`6:27: summarizers[4].command: unterminated ' quote`,
				`7:18: summarizers[5].model: an exec target has no model`,
				`8:12: summarizers[6].type: write a builtin as spec: builtin:NAME`,
				`9:12: summarizers[7].type: unknown type "magic" (valid: exec, openai, anthropic, openai-responses)`,
				`10:28: summarizers[8].prompt: only openai targets take a prompt`,
				`10:44: summarizers[8].endpoint: only model targets (openai, anthropic, openai-responses) use an endpoint`,
				`10:57: summarizers[8].params: only model targets (openai, anthropic, openai-responses) take model parameters`,
				`11:32: summarizers[9].prompt: stat DIR/missing.tmpl: no such file or directory`,
				`11:56: summarizers[9].endpoint: no endpoint named "nowhere" (declared: none)`,
				`12:24: summarizers[10].model: not allowed with spec (the spec already says it)`,
				`14:5: summarizers[12]: name "builtin:none" is already used at line 13; give each summarizer its own name`,
				`15:27: summarizers[13].command: empty`,
				`16:52: summarizers[14].params.temperature: want a value in [0, 2], got 3`,
				`16:61: summarizers[14].params.seed: want an integer ≥ 0, got -1`,
				`16:77: summarizers[14].params.max_tokens: want an integer ≥ 1, got 0`,
				`16:80: unknown field "top_p"`,
				`17:8: agent: want a mapping, got a list`,
			},
		},
		{
			name: "scalars and gates",
			in: `version: 2
trials: 0
jobs: many
exec_timeout: 30
gates:
  min_pass: {constraint: 1.5, everything: 1, all: "ninety%", schema: 90%}
  baseline: {}
  uncertain: ignore
`,
			want: []string{
				`1:10: version: unsupported version 2 (this compact-eval reads version 1)`,
				`2:9: trials: want an integer ≥ 1, got 0`,
				`3:7: jobs: want an integer, got a string`,
				`4:15: exec_timeout: want a duration such as 30s or 2m, got a number`,
				`6:26: gates.min_pass.constraint: want a rate in [0, 1] (write 0.9 or "90%"), got 1.5`,
				`6:31: gates.min_pass: unknown check type "everything" (valid: all, invariant, structural, decisions, recall, schema, coverage, references, evidence, tail, compression, provenance, paths, unresolved, stale_pending, grounding, constraint, refuted_hypothesis, artifact, pending_operation, correction, quantity, secret, approval, goal, next_step, handoff)`,
				`6:51: gates.min_pass.all: want a rate in [0, 1] or a percentage, got "ninety%"`,
				`7:13: gates.baseline: want a string, got a mapping`,
				`8:14: gates.uncertain: "ignore": want miss (count it as not passed, the default), skip (leave it out) or pass (count it as passed)`,
			},
		},
		{
			name: "endpoints",
			in: `endpoints:
  - {name: a, base_url: "ftp://x"}
  - {name: a, base_url: "http://ok"}
  - {base_url: "http://ok", api_key_env: lower_case}
  - just-a-string
exec_timeout: -1s
`,
			want: []string{
				`2:25: endpoints[0].base_url: want an http or https URL with a host, such as http://localhost:8000/v1`,
				`3:12: endpoints[1].name: endpoint "a" is already declared at line 2`,
				`4:5: endpoints[2]: missing name`,
				`4:42: endpoints[2].api_key_env: want the NAME of an environment variable (upper case, such as OPENAI_API_KEY), not a key: API keys never go in this file`,
				`5:5: endpoints[3]: want a mapping, got a string`,
				`6:15: exec_timeout: want a positive duration, got -1s`,
			},
		},
		{
			name: "aliases, documents",
			in: `trials: 1
trials: 2
jobs: &j 2
agent: *j
---
jobs: 3
`,
			// Aliases stop the reading: nothing after them is trusted.
			want: []string{
				`4:8: YAML aliases are not allowed in a config file`,
				`5:1: a config file holds one YAML document`,
			},
		},
		{
			name: "duplicates",
			in:   "trials: 1\ntrials: 2\ngates: {min_pass: {all: 1, all: 0.5}}\n",
			want: []string{
				`2:1: duplicate field "trials" (first at line 1)`,
				`3:28: gates.min_pass: duplicate check type "all"`,
			},
		},
		{
			name: "not a mapping",
			in:   "- a\n- b\n",
			want: []string{`1:1: config: want a mapping, got a list`},
		},
		{
			name: "syntax error",
			in:   "trials: [1\njobs: 2\n",
			want: []string{`2:5: invalid YAML: did not find expected ',' or ']' (inside the '[' at line 1, column 9: is it closed?)`},
		},
		{
			// yaml.v3 says line 1 here (the line before the '{') and in the
			// next case (the line of the value before the tab).
			name: "syntax error at the problem",
			in:   "trials: 2\njudge: {type: openai, model: gpt: 4o}\n",
			want: []string{`2:33: invalid YAML: did not find expected ',' or '}' (a ': ' in a plain value starts a key: put the value in quotes)`},
		},
		{
			name: "a tab",
			in:   "trials: 2\n\tjobs: 2\n",
			want: []string{`2:1: invalid YAML: found a tab character that violates indentation (a tab cannot indent YAML: indent with spaces)`},
		},
		{
			name: "a second document that does not parse",
			in:   "trials: 2\n---\njobs: [2\n",
			want: []string{`3:7: invalid YAML: did not find expected ',' or ']' (this '[' is never closed by a ']')`},
		},
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "cfg.yaml")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse(name, []byte(tc.in))
			var list scenarios.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("got %+v, %v: want a scenarios.ErrorList", f, err)
			}
			var got []string
			for _, e := range list {
				msg := strings.TrimPrefix(e.Error(), name+":")
				got = append(got, strings.ReplaceAll(msg, dir, "DIR"))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "DONOTLEAK") {
				t.Errorf("an error echoes the key: %v", err)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	if f, err := LoadDefault(dir); f != nil || err != nil {
		t.Fatalf("LoadDefault in an empty folder = %v, %v; want nil, nil", f, err)
	}
	if err := os.WriteFile(filepath.Join(dir, DefaultFile), []byte("trials: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := LoadDefault(dir)
	if err != nil || f.Trials != 2 {
		t.Fatalf("LoadDefault = %+v, %v; want trials 2", f, err)
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil || !strings.Contains(err.Error(), "reading config: open") {
		t.Errorf("Load of a missing file: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, MaxFileSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "more than the 1048576 allowed") {
		t.Errorf("Load of a big file: %v", err)
	}
}

func TestPickAndFlags(t *testing.T) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	trials := fs.Int("trials", 1, "")
	jobs := fs.Int("j", 2, "")
	timeout := fs.Duration("exec-timeout", providers.DefaultExecTimeout, "")
	if err := fs.Parse([]string{"-trials", "5"}); err != nil {
		t.Fatal(err)
	}
	set := FlagsSet(fs)
	file := &File{Trials: 3, Jobs: 8}
	got := []any{
		Pick(set["trials"], *trials, file.Trials),             // flag given: the flag
		Pick(set["j"], *jobs, file.Jobs),                      // file set: the file
		Pick(set["exec-timeout"], *timeout, file.ExecTimeout), // neither: the default
	}
	want := []any{5, 8, providers.DefaultExecTimeout}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Pick (-want +got):\n%s", diff)
	}
}

func TestTargetOptions(t *testing.T) {
	const data = `endpoints:
  - {name: local, base_url: "http://localhost:8000/v1", api_key_env: LOCAL_KEY}
  - {name: nokey, base_url: "http://localhost:9000/v1"}
  - {name: unset, base_url: "http://localhost:7000/v1", api_key_env: UNSET_KEY}
summarizers:
  - {name: tuned, spec: "openai:m", endpoint: local, params: {temperature: 0.5, seed: 3, max_tokens: 100}}
  - {name: plain, spec: "openai:m"}
  - {name: local-nokey, spec: "openai:m", endpoint: nokey}
  - {name: broken, spec: "openai:m", endpoint: unset}
  - {name: ours, type: exec, command: run}
`
	f, err := Parse("cfg.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OPENAI_API_KEY": "ambient-key", "OPENAI_BASE_URL": "http://ambient", "LOCAL_KEY": "local-key"}
	getenv := func(k string) string { return env[k] }
	base := providers.Options{ExecTimeout: time.Minute, OpenAI: providers.OpenAIOptions{MaxRetries: 2, Temperature: ptr(float32(1))}}

	type view struct {
		BaseURL, APIKey, Endpoint string
		Temperature               *float32
		Seed                      *int
		MaxTokens, MaxRetries     int
		AmbientKey, AmbientURL    string // what the options' Getenv shows
		ExecTimeout               time.Duration
	}
	look := func(o providers.Options) view {
		v := view{BaseURL: o.OpenAI.BaseURL, APIKey: o.OpenAI.APIKey, Endpoint: o.OpenAI.Endpoint,
			Temperature: o.OpenAI.Temperature, Seed: o.OpenAI.Seed, MaxTokens: o.OpenAI.MaxTokens,
			MaxRetries: o.OpenAI.MaxRetries, ExecTimeout: o.ExecTimeout}
		ge := o.OpenAI.Getenv
		if ge == nil {
			ge = getenv
		}
		v.AmbientKey, v.AmbientURL = ge("OPENAI_API_KEY"), ge("OPENAI_BASE_URL")
		return v
	}
	tests := []struct {
		target  int
		want    view
		wantErr string
	}{
		{0, view{BaseURL: "http://localhost:8000/v1", APIKey: "local-key", Endpoint: "local", Temperature: ptr(float32(0.5)), Seed: ptr(3), MaxTokens: 100, MaxRetries: 2, ExecTimeout: time.Minute}, ""},
		{1, view{Temperature: ptr(float32(1)), MaxRetries: 2, AmbientKey: "ambient-key", AmbientURL: "http://ambient", ExecTimeout: time.Minute}, ""},
		{2, view{BaseURL: "http://localhost:9000/v1", Endpoint: "nokey", Temperature: ptr(float32(1)), MaxRetries: 2, ExecTimeout: time.Minute}, ""},
		{3, view{}, `broken: endpoint "unset": environment variable UNSET_KEY is not set`},
		{4, view{Temperature: ptr(float32(1)), MaxRetries: 2, AmbientKey: "ambient-key", AmbientURL: "http://ambient", ExecTimeout: time.Minute}, ""},
	}
	for _, tc := range tests {
		tg := f.Summarizers[tc.target]
		t.Run(tg.Name, func(t *testing.T) {
			got, err := f.TargetOptions(tg, base, getenv)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, look(got)); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
	if *base.OpenAI.Temperature != 1 {
		t.Errorf("TargetOptions changed base's temperature to %v", *base.OpenAI.Temperature)
	}
}

// An exec target sees no API key variable unless env names it; the names
// are checked, never echoed, and only exec targets take them. Every
// api_key_env becomes a key variable that exec processes do not inherit.
func TestExecEnv(t *testing.T) {
	const data = `endpoints:
  - {name: local, base_url: "http://localhost:8000/v1", api_key_env: CONFIG_TEST_LOCAL_KEY}
summarizers:
  - {name: ours, type: exec, command: run, env: [ANTHROPIC_API_KEY, CONFIG_TEST_LOCAL_KEY]}
  - {name: plain, spec: "exec:run"}
`
	f, err := Parse("cfg.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if !redact.IsKeyVar("CONFIG_TEST_LOCAL_KEY") {
		t.Error("the api_key_env variable is not registered as a key variable")
	}
	for i, want := range [][]string{{"ANTHROPIC_API_KEY", "CONFIG_TEST_LOCAL_KEY"}, nil} {
		o, err := f.TargetOptions(f.Summarizers[i], providers.Options{}, func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, o.PassEnv); d != "" {
			t.Errorf("%s: PassEnv (-want +got):\n%s", f.Summarizers[i].Name, d)
		}
		if d := cmp.Diff(want, o.ExecOptions().PassEnv); d != "" {
			t.Errorf("%s: exec options PassEnv (-want +got):\n%s", f.Summarizers[i].Name, d)
		}
	}

	const key = "sk-test-DONOTLEAK-env-0123456789"
	_, err = Parse("cfg.yaml", []byte(`summarizers:
  - {name: a, spec: "openai:m", env: [OPENAI_API_KEY]}
  - {name: b, type: exec, command: run, env: [`+key+`, lower_case]}
  - {name: c, type: exec, command: run, env: OPENAI_API_KEY}
`))
	var el scenarios.ErrorList
	if !errors.As(err, &el) {
		t.Fatalf("error %v, want positioned problems", err)
	}
	var got []string
	for _, e := range el {
		got = append(got, fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg))
	}
	want := []string{
		`2:33: summarizers[0].env: only exec targets take env (the key variables an exec program may see)`,
		`3:47: summarizers[1].env[0]: want the NAME of an environment variable (upper case, such as ANTHROPIC_API_KEY), not a value`,
		`3:81: summarizers[1].env[1]: want the NAME of an environment variable (upper case, such as ANTHROPIC_API_KEY), not a value`,
		`4:46: summarizers[2].env: want a list of environment variable names, such as [ANTHROPIC_API_KEY]`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
	if strings.Contains(err.Error(), key) {
		t.Error("the error echoes a key given as a name")
	}
}

// TestProviderTargetOptions: an anthropic or openai-responses target takes an
// endpoint like an openai one; its key is the endpoint's, never an ambient
// provider variable.
func TestProviderTargetOptions(t *testing.T) {
	const data = `endpoints:
  - {name: claude, base_url: "https://gateway.example/anthropic/v1", api_key_env: GW_KEY}
summarizers:
  - {name: a, type: anthropic, model: claude-x, endpoint: claude, params: {max_tokens: 900}}
  - {name: r, spec: "openai-responses:gpt-x"}
`
	f, err := Parse("cfg.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ANTHROPIC_API_KEY": "ambient-ant", "ANTHROPIC_BASE_URL": "http://ambient", "OPENAI_API_KEY": "ambient-oai", "GW_KEY": "gw-key"}
	getenv := func(k string) string { return env[k] }
	base := providers.Options{OpenAI: providers.OpenAIOptions{Getenv: getenv}}
	targets := f.Summarizers
	if len(targets) != 2 || targets[0].Spec.Raw != "anthropic:claude-x" || targets[1].Spec.Kind != providers.KindResponses {
		t.Fatalf("targets %+v", targets)
	}
	o, err := f.TargetOptions(targets[0], base, getenv)
	if err != nil {
		t.Fatal(err)
	}
	c := o.OpenAI.ProviderClientConfig(providers.KindAnthropic)
	if c.BaseURL != "https://gateway.example/anthropic/v1" || c.APIKey != "gw-key" || c.KeyHeader != "x-api-key" || o.OpenAI.MaxTokens != 900 {
		t.Errorf("anthropic target: %+v", c)
	}
	o, err = f.TargetOptions(targets[1], base, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if c := o.OpenAI.ProviderClientConfig(providers.KindResponses); c.APIKey != "ambient-oai" || c.KeyHeader != "" {
		t.Errorf("responses target without endpoint: %+v", c)
	}
	if c := base.OpenAI.ProviderClientConfig(providers.KindAnthropic); c.APIKey != "ambient-ant" || c.BaseURL != "http://ambient" {
		t.Errorf("anthropic defaults: %+v", c)
	}
}
