// Package config reads compact-eval.yaml, the optional file that declares
// what a run evaluates: the summarizers under test (by spec, or by type,
// model and command, with prompt, parameters and endpoint), the endpoints,
// the agent, trials, jobs, the exec timeout and the gates.
//
//	summarizers:
//	  - builtin:extractive                 # a spec alone
//	  - name: small-model
//	    type: openai                       # or: spec: openai:gpt-4o-mini
//	    model: gpt-4o-mini
//	    prompt: prompts/summarize.tmpl     # relative to this file
//	    params: {temperature: 0, seed: 7, max_tokens: 2000}
//	    endpoint: local
//	  - name: ours
//	    type: exec
//	    command: python3 compact.py --structured   # or a list of words
//	    env: [ANTHROPIC_API_KEY]           # key variables it may see (default: none)
//	  - name: ours-v2                       # a stable name: baselines pair by it
//	    spec: exec:python3 compact.py --v2
//	  - ours-v3=exec:python3 compact.py --v3  # the same, as --summarizer takes it
//	endpoints:
//	  - name: local
//	    base_url: http://localhost:8000/v1
//	    api_key_env: LOCAL_LLM_KEY         # the NAME of a variable, never a key
//	scenarios: [scenarios/, extra/one.yaml]  # relative to this file
//	progress: plain                        # auto (default), tty, plain or none (run --progress)
//	prices:                                # USD per million tokens, for run --dry-run's cost
//	  small-model: {input: 0.15, output: 0.6}   # by target name, or by spec (openai:gpt-4o)
//	agent: openai:gpt-4o                   # or a mapping like a summarizer
//	judge: openai:gpt-4o                   # optional model judge (run --judge), a spec or a mapping
//	judge_scope: uncertain                 # ask it only where a check cannot tell (default), or all (--judge-scope)
//	recall: true                           # the recall arm (run --recall), or {calls: 4, events: 5, tokens: 1500} (--recall-budget)
//	trials: 3
//	jobs: 8
//	exec_timeout: 30s
//	gates:
//	  min_pass: {constraint: 1, all: 0.9}  # or a single rate for all, or "constraint=1,all=0.9"
//	  baseline: baseline/result.json       # relative to this file
//	  judge: true                          # a contradicted judge verdict fails its invariant (--judge-gate)
//	  uncertain: miss                      # an uncertain outcome: miss (default), skip or pass (--uncertain)
//
// The file is read strictly, like a scenario: unknown and duplicate fields,
// wrong types and bad values are refused, and every problem is reported as
// "file:line:col: message" (a scenarios.ErrorList). API keys never go in the
// file: an endpoint names the environment variable that holds its key, and a
// literal key (an api_key field, or a key-like api_key_env) is refused
// without being echoed. Every api_key_env named is registered as a key
// variable (redact.RegisterKeyVar): exec processes do not inherit it and its
// value is hidden in every output.
//
// # Keys and exec targets
//
// An exec summarizer, agent or judge inherits the harness's environment
// without the variables that hold API keys (OPENAI_API_KEY,
// ANTHROPIC_API_KEY, every api_key_env) and without any variable whose value
// holds one. A program that needs a key of its own gets it by name with env,
// a list of variable names passed to that target only.
//
// # Precedence
//
// A flag given on the command line wins over the file; the file wins over
// the flag's default. Lists are replaced, not merged: one --summarizer flag
// replaces the file's whole summarizers list, --agent replaces agent,
// --min-pass replaces gates.min_pass, --baseline gates.baseline, and
// scenario paths on the command line replace scenarios. Scalars
// (--trials, -j, --exec-timeout) follow Pick, with FlagsSet telling which
// flags were given.
package config

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/providers"
	"github.com/compact-eval/compact-eval/reports"

	"github.com/compact-eval/compact-eval/result"

	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/internal/didyoumean"
	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/internal/yamlnode"
	"github.com/compact-eval/compact-eval/scenarios"
)

// DefaultFile is the config file a run reads from the current directory when
// no --config is given (and it exists).
const DefaultFile = "compact-eval.yaml"

// MaxFileSize bounds a config file; a larger one is refused unread.
const MaxFileSize = 1 << 20

// File is a parsed config file. Zero fields were not set in the file.
type File struct {
	// Path is the name given to Load or Parse.
	Path string
	// Summarizers are the summarizers under test, in file order; nil when the
	// file declares none.
	Summarizers []Target
	// Endpoints are the named OpenAI-compatible endpoints, in file order.
	Endpoints []Endpoint
	// Agent is the agent that answers probes; nil when the file declares none.
	Agent *Target
	// Judge is the model judge asked beside the checks; nil when the file
	// declares none (no judge).
	Judge *Target
	// JudgeScope is judge_scope: which invariants the judge is asked about
	// (result.JudgeScopeUncertain or result.JudgeScopeAll); "": not set.
	JudgeScope string
	// Trials is how many times each scenario runs per summarizer; 0: not set.
	Trials int
	// Jobs is the number of units run at once (-j); 0: not set.
	Jobs int
	// ExecTimeout bounds one exec call; 0: not set.
	ExecTimeout time.Duration
	// Gates are the CI gates the file asks for.
	Gates Gates
	// Scenarios are the scenario paths (files or folders), resolved
	// against the file's folder; nil: not set.
	Scenarios []string
	// Progress is progress: how a run reports progress on stderr (auto,
	// tty, plain or none; run --progress); "": not set (auto).
	Progress string
	// Prices are the prices of model targets, by target name or spec as
	// written, for the cost run --dry-run estimates; nil: none given.
	Prices map[string]Price
	// Recall is recall: the recall arm (run --recall) and its budget;
	// nil: not set.
	Recall *Recall
}

// Recall is the recall key: whether the recall arm is asked and, when it
// is, its budget per probe (run --recall-budget). A zero limit takes the
// default.
type Recall struct {
	On                    bool
	Calls, Events, Tokens int
}

// Price is what a model charges, in US dollars per million tokens.
type Price struct {
	// Input is the price of a million prompt tokens; Output of a million
	// completion tokens. Zero is free.
	Input, Output float64
}

// Target is a summarizer or an agent under test.
type Target struct {
	// Name is the name reports use, and by which a baseline pairs the
	// summarizer across runs; it defaults to Spec.Raw. Unique among the
	// summarizers of a file.
	Name string
	// Spec is what to run, from `spec`, or built from type, model and command
	// (Raw is then the equivalent spec string).
	Spec providers.Spec
	// Prompt is the prompt template file of an openai target, resolved
	// against the config file's folder; "": the built-in prompt.
	Prompt string
	// Params are the model parameters of an openai target.
	Params Params
	// Endpoint names an entry of File.Endpoints; "": the default endpoint
	// (OPENAI_BASE_URL and OPENAI_API_KEY).
	Endpoint string
	// Env names key variables an exec target may see (by default exec
	// processes get no API key variable); nil: none.
	Env []string
	// Pos is where the entry is written.
	Pos result.Pos
}

// Params are model parameters. Nil or zero fields leave the endpoint's default.
type Params struct {
	// Temperature in [0, 2]; nil: not sent.
	Temperature *float64
	// Seed for endpoints that support reproducible sampling; nil: not sent.
	Seed *int
	// MaxTokens bounds the completion; 0: not sent.
	MaxTokens int
}

// Endpoint is a named OpenAI-compatible endpoint.
type Endpoint struct {
	// Name is what targets refer to; unique in the file.
	Name string
	// BaseURL is the API root, such as http://localhost:8000/v1 (http or
	// https, no credentials in it).
	BaseURL string
	// APIKeyEnv is the name of the environment variable that holds the
	// endpoint's key; "": the endpoint gets no key (OPENAI_API_KEY is never
	// sent to a named endpoint, so that it cannot reach another host).
	APIKeyEnv string
	// Pos is where the entry is written.
	Pos result.Pos
}

// APIKey reads the endpoint's key from the variable APIKeyEnv names,
// through getenv (for example os.Getenv). It is "" when APIKeyEnv is "", and
// an error when the variable is unset or empty.
func (e Endpoint) APIKey(getenv func(string) string) (string, error) {
	if e.APIKeyEnv == "" {
		return "", nil
	}
	key := getenv(e.APIKeyEnv)
	if key == "" {
		return "", fmt.Errorf("endpoint %q: environment variable %s is not set", e.Name, e.APIKeyEnv)
	}
	return key, nil
}

// TargetOptions returns base with what the file says about target t: for an
// openai target, its endpoint (base URL and key, read through getenv), prompt
// file and parameters; for an exec target, the key variables env lets it
// see; builtin targets take base unchanged. A
// target without an endpoint keeps base's endpoint (flags, then
// OPENAI_BASE_URL and OPENAI_API_KEY).
func (f *File) TargetOptions(t Target, base providers.Options, getenv func(string) string) (providers.Options, error) {
	opts := base
	if t.Spec.Kind == providers.KindExec {
		opts.PassEnv = append(slices.Clone(base.PassEnv), t.Env...)
	}
	if !providers.ModelKind(t.Spec.Kind) {
		return opts, nil
	}
	o := &opts.OpenAI
	if t.Prompt != "" {
		o.PromptFile = t.Prompt
	}
	if t.Params.Temperature != nil {
		v := float32(*t.Params.Temperature)
		o.Temperature = &v
	}
	if t.Params.Seed != nil {
		v := *t.Params.Seed
		o.Seed = &v
	}
	if t.Params.MaxTokens != 0 {
		o.MaxTokens = t.Params.MaxTokens
	}
	if t.Endpoint == "" {
		return opts, nil
	}
	e, ok := f.Endpoint(t.Endpoint)
	if !ok {
		return opts, fmt.Errorf("%s: no endpoint named %q", t.Name, t.Endpoint)
	}
	key, err := e.APIKey(getenv)
	if err != nil {
		return opts, fmt.Errorf("%s: %w", t.Name, err)
	}
	o.BaseURL, o.APIKey, o.Endpoint = e.BaseURL, key, e.Name
	// The named endpoint's key or none: never the ambient OPENAI_* or
	// ANTHROPIC_* values.
	o.Getenv = func(k string) string {
		switch k {
		case "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL":
			return ""
		}
		return getenv(k)
	}
	return opts, nil
}

// Gates are the CI gates of docs/formats.md §6.
type Gates struct {
	// MinPass maps a check type ("all", "invariant", "structural",
	// "decisions", an invariant type or a structural check) to the minimum
	// pass rate in [0, 1]; nil: no min-pass gate. It is what
	// reports.MinPass.Rates holds.
	MinPass map[string]float64
	// Baseline is a saved result to gate against, resolved against the
	// config file's folder; "": no baseline gate.
	Baseline string
	// Judge, when set, makes a contradicted judge verdict fail the
	// invariant (--judge-gate); it needs a judge.
	Judge bool
	// Uncertain is how the gates count an uncertain outcome
	// (--uncertain): miss, skip or pass; "": not set (miss).
	Uncertain reports.UncertainAs
}

// Endpoint returns the endpoint named name.
func (f *File) Endpoint(name string) (Endpoint, bool) {
	for _, e := range f.Endpoints {
		if e.Name == name {
			return e, true
		}
	}
	return Endpoint{}, false
}

// Load reads and parses the config file at path.
func Load(path string) (*File, error) {
	fh, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	defer fh.Close()
	if st, err := fh.Stat(); err == nil && st.Size() > MaxFileSize {
		return nil, fmt.Errorf("%s: config file is %d bytes, more than the %d allowed", path, st.Size(), MaxFileSize)
	}
	data, err := io.ReadAll(io.LimitReader(fh, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return Parse(path, data)
}

// LoadDefault loads DefaultFile from dir when it exists, and returns nil,
// nil when it does not.
func LoadDefault(dir string) (*File, error) {
	path := filepath.Join(dir, DefaultFile)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return Load(path)
}

// Parse parses a config file's content; name is its path, used in error
// positions and to resolve relative prompt and baseline paths. Prompt files
// must exist. Every problem is reported, as a scenarios.ErrorList.
func Parse(name string, data []byte) (*File, error) {
	p := newParser(name)
	f := &File{Path: name}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: config file is %d bytes, more than the %d allowed", name, len(data), MaxFileSize)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return f, nil // an empty file sets nothing
		}
		return nil, p.yamlError(data, err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		p.Errorf(&extra, "a config file holds one YAML document")
	case !errors.Is(err, io.EOF):
		return nil, p.yamlError(data, err) // a second document that does not parse
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return f, nil
	}
	p.checkAliases(root)
	if len(p.errs) == 0 {
		p.top(f, root)
	}
	if err := p.errs.Err(); err != nil {
		return nil, err
	}
	return f, nil
}

// Pick returns flagValue when the flag was set on the command line, else
// fileValue when the file set it (is not the zero value), else flagValue
// (the flag's default).
func Pick[T comparable](flagSet bool, flagValue, fileValue T) T {
	var zero T
	if flagSet || fileValue == zero {
		return flagValue
	}
	return fileValue
}

// FlagsSet returns the names of the flags set on fs's command line (after
// fs.Parse).
func FlagsSet(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

type parser struct {
	yamlnode.Decoder
	file string
	dir  string
	errs scenarios.ErrorList
}

func newParser(file string) *parser {
	p := &parser{file: file, dir: filepath.Dir(file)}
	p.Report = func(at yamlnode.Pos, msg string) {
		p.errs = append(p.errs, &scenarios.Error{File: p.file, Pos: result.Pos(at), Msg: msg})
	}
	// Brief never echoes a value: a wrong one may be a secret.
	p.Describe = yamlnode.Brief
	p.Terse = true
	p.Unknown = forbiddenField
	return p
}

func pos(n *yaml.Node) result.Pos { return result.Pos(yamlnode.PosOf(n)) }

// yamlError positions a syntax error of the YAML parser at the problem
// (yamlnode.SyntaxPos).
func (p *parser) yamlError(data []byte, err error) error {
	at, msg := yamlnode.SyntaxPos(data, err)
	return scenarios.ErrorList{{File: p.file, Pos: result.Pos(at), Msg: "invalid YAML: " + strings.TrimPrefix(msg, "yaml: ")}}
}

func (p *parser) checkAliases(n *yaml.Node) {
	aliases, _ := yamlnode.Aliases(n, 0)
	for _, a := range aliases {
		p.Errorf(a, "YAML aliases are not allowed in a config file")
	}
}

// forbiddenField explains fields that look like a place for a secret.
func forbiddenField(name string) string {
	switch strings.ToLower(name) {
	case "api_key", "apikey", "key", "token", "secret", "password", "authorization":
		return fmt.Sprintf("field %q: API keys never go in this file; set api_key_env to the name of the environment variable that holds the key", name)
	}
	return ""
}

func (p *parser) integer(n *yaml.Node, what string, min int) (int, bool) {
	if !p.Scalar(n, what, "an integer", "!!int") {
		return 0, false
	}
	// Plain decimal only (strconv.Atoi), unlike scenario files.
	v, err := strconv.Atoi(n.Value)
	if err != nil || v < min {
		p.Errorf(n, "%s: want an integer ≥ %d, got %s", what, min, n.Value)
		return 0, false
	}
	return v, true
}

func (p *parser) number(n *yaml.Node, what string) (float64, bool) {
	if !p.Scalar(n, what, "a number", "!!int", "!!float") {
		return 0, false
	}
	// Plain decimal only (strconv.ParseFloat): no .inf or .nan.
	v, err := strconv.ParseFloat(n.Value, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		p.Errorf(n, "%s: %q is not a finite number", what, n.Value)
		return 0, false
	}
	return v, true
}

// Keys are the keys the file takes, by where they are: "" the top level,
// "summarizers[]" a summarizer written as a mapping (an agent and a judge
// take the same keys), "summarizers[].params" its model parameters,
// "endpoints[]" an endpoint, "gates" the gates. The JSON Schema of the file
// (SchemaJSON) has exactly these keys, and a test holds them equal.
var Keys = map[string][]string{
	"":                     {"version", "summarizers", "endpoints", "agent", "judge", "judge_scope", "trials", "jobs", "exec_timeout", "gates", "scenarios", "progress", "prices", "recall"},
	"summarizers[]":        {"name", "spec", "type", "model", "command", "prompt", "params", "endpoint", "env", "pass_env"},
	"summarizers[].params": {"temperature", "seed", "max_tokens"},
	"endpoints[]":          {"name", "base_url", "api_key_env"},
	"gates":                {"min_pass", "baseline", "judge", "uncertain"},
	"recall":               {"calls", "events", "tokens"},
}

func (p *parser) top(f *File, root *yaml.Node) {
	fields := p.Fields(root, "config", Keys[""]...)
	if fd, ok := fields["version"]; ok {
		if v, ok := p.integer(fd.Value, "version", 0); ok && v != 1 {
			p.Errorf(fd.Value, "version: unsupported version %d (this compact-eval reads version 1)", v)
		}
	}
	if fd, ok := fields["endpoints"]; ok {
		f.Endpoints = p.endpoints(fd.Value)
	}
	if fd, ok := fields["summarizers"]; ok {
		f.Summarizers = p.summarizers(fd.Value, f.Endpoints)
	}
	if fd, ok := fields["agent"]; ok {
		if t, ok := p.target(fd.Value, "agent", f.Endpoints); ok {
			f.Agent = &t
		}
	}
	if fd, ok := fields["judge"]; ok {
		if t, ok := p.target(fd.Value, "judge", f.Endpoints); ok {
			switch {
			case t.Spec.Kind == providers.KindBuiltin:
				p.Errorf(fd.Value, "judge: there is no builtin judge (valid: openai:MODEL, exec:COMMAND)")
			case t.Prompt != "":
				p.Errorf(fd.Value, "judge.prompt: a judge asks with its own prompts (recorded as prompt_digest); remove prompt")
			default:
				f.Judge = &t
			}
		}
	}
	if fd, ok := fields["judge_scope"]; ok {
		if p.Scalar(fd.Value, "judge_scope", "uncertain or all", "!!str") {
			switch v := fd.Value.Value; v {
			case result.JudgeScopeUncertain, result.JudgeScopeAll:
				f.JudgeScope = v
			default:
				p.Errorf(fd.Value, "judge_scope: %q: want uncertain (ask the judge only where a check cannot tell, the default) or all", v)
			}
		}
	}
	if fd, ok := fields["trials"]; ok {
		f.Trials, _ = p.integer(fd.Value, "trials", 1)
	}
	if fd, ok := fields["jobs"]; ok {
		f.Jobs, _ = p.integer(fd.Value, "jobs", 1)
	}
	if fd, ok := fields["exec_timeout"]; ok {
		f.ExecTimeout = p.duration(fd.Value, "exec_timeout")
	}
	if fd, ok := fields["gates"]; ok {
		f.Gates = p.gates(fd.Value)
	}
	if fd, ok := fields["scenarios"]; ok {
		f.Scenarios = p.paths(fd.Value, "scenarios")
	}
	if fd, ok := fields["prices"]; ok {
		f.Prices = p.prices(fd.Value)
	}
	if fd, ok := fields["recall"]; ok {
		f.Recall = p.recall(fd.Value)
	}
	if fd, ok := fields["progress"]; ok {
		if p.Scalar(fd.Value, "progress", "auto, tty, plain or none", "!!str") {
			switch v := fd.Value.Value; v {
			case "auto", "tty", "plain", "none":
				f.Progress = v
			default:
				p.Errorf(fd.Value, "progress: %q: want auto (a live line on a terminal, plain lines otherwise), tty, plain or none", v)
			}
		}
	}
}

// recall reads recall: true or false, or a mapping of the budget per
// probe ({calls, events, tokens}, each a positive whole number; those left
// out take the default), which turns the arm on.
func (p *parser) recall(n *yaml.Node) *Recall {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		return &Recall{On: n.Value == "true"}
	}
	if n.Kind != yaml.MappingNode {
		p.Errorf(n, "recall: want true, false or a budget per probe like {calls: 4, events: 5, tokens: 1500}")
		return nil
	}
	fields := p.Fields(n, "recall", Keys["recall"]...)
	r := &Recall{On: true}
	for name, dst := range map[string]*int{"calls": &r.Calls, "events": &r.Events, "tokens": &r.Tokens} {
		if fd, ok := fields[name]; ok {
			*dst, _ = p.integer(fd.Value, "recall."+name, 1)
		}
	}
	return r
}

// prices reads prices: a mapping from a target's name or spec to its
// input and output prices in USD per million tokens.
func (p *parser) prices(n *yaml.Node) map[string]Price {
	if n.Kind != yaml.MappingNode {
		p.Errorf(n, "prices: want a mapping from a target's name or spec to {input: USD per million tokens, output: …}")
		return nil
	}
	out := map[string]Price{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		what := "prices." + k.Value
		if _, dup := out[k.Value]; dup {
			p.Errorf(k, "prices: %q is priced twice", k.Value)
			continue
		}
		fields := p.Fields(v, what, "input", "output")
		if fields == nil {
			continue
		}
		var pr Price
		for name, dst := range map[string]*float64{"input": &pr.Input, "output": &pr.Output} {
			fd, ok := fields[name]
			if !ok {
				p.Errorf(v, "%s: missing %s (USD per million tokens)", what, name)
				continue
			}
			if x, ok := p.number(fd.Value, what+"."+name); ok {
				if x < 0 {
					p.Errorf(fd.Value, "%s.%s: a price must not be negative", what, name)
				}
				*dst = x
			}
		}
		out[k.Value] = pr
	}
	return out
}

// paths reads a path or a list of paths, each resolved against the file's
// folder.
func (p *parser) paths(n *yaml.Node, what string) []string {
	if n.Kind == yaml.ScalarNode {
		if s, ok := p.String(n, what); ok {
			return []string{p.resolve(s)}
		}
		return nil
	}
	var out []string
	p.Items(n, what, func(item *yaml.Node, w string) {
		if s, ok := p.String(item, w); ok {
			out = append(out, p.resolve(s))
		}
	})
	if n.Kind == yaml.SequenceNode && len(n.Content) == 0 {
		p.Errorf(n, "%s: empty list", what)
	}
	return out
}

func (p *parser) duration(n *yaml.Node, what string) time.Duration {
	if !p.Scalar(n, what, "a duration such as 30s or 2m", "!!str") {
		return 0
	}
	d, err := time.ParseDuration(n.Value)
	if err != nil {
		p.Errorf(n, "%s: %q is not a duration such as 30s or 2m", what, n.Value)
		return 0
	}
	if d <= 0 {
		p.Errorf(n, "%s: want a positive duration, got %s", what, n.Value)
		return 0
	}
	return d
}

var envName = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)

func (p *parser) endpoints(n *yaml.Node) []Endpoint {
	var out []Endpoint
	seen := map[string]int{}
	p.Items(n, "endpoints", func(item *yaml.Node, what string) {
		fields := p.Fields(item, what, Keys["endpoints[]"]...)
		if fields == nil {
			return
		}
		e := Endpoint{Pos: pos(item)}
		if fd, ok := fields["name"]; !ok {
			p.Errorf(item, "%s: missing name", what)
		} else if name, ok := p.String(fd.Value, what+".name"); ok {
			if line, dup := seen[name]; dup {
				p.Errorf(fd.Value, "%s.name: endpoint %q is already declared at line %d", what, name, line)
			}
			seen[name] = fd.Value.Line
			e.Name = name
		}
		if fd, ok := fields["base_url"]; !ok {
			p.Errorf(item, "%s: missing base_url", what)
		} else if raw, ok := p.String(fd.Value, what+".base_url"); ok {
			u, err := url.Parse(raw)
			switch {
			case err != nil:
				// Do not echo the URL: it might hold credentials.
				p.Errorf(fd.Value, "%s.base_url: not a URL", what)
			case u.User != nil:
				p.Errorf(fd.Value, "%s.base_url: credentials are not allowed in the URL; set api_key_env", what)
			case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
				p.Errorf(fd.Value, "%s.base_url: want an http or https URL with a host, such as http://localhost:8000/v1", what)
			default:
				e.BaseURL = raw
			}
		}
		if fd, ok := fields["api_key_env"]; ok {
			if fd.Value.Kind != yaml.ScalarNode || fd.Value.Tag != "!!str" || !envName.MatchString(fd.Value.Value) {
				// Never echo the value: it may be the key itself.
				p.Errorf(fd.Value, "%s.api_key_env: want the NAME of an environment variable (upper case, such as OPENAI_API_KEY), not a key: API keys never go in this file", what)
			} else {
				e.APIKeyEnv = fd.Value.Value
				redact.RegisterKeyVar(e.APIKeyEnv)
			}
		}
		out = append(out, e)
	})
	return out
}

func (p *parser) summarizers(n *yaml.Node, endpoints []Endpoint) []Target {
	if n.Kind == yaml.SequenceNode && len(n.Content) == 0 {
		// An empty list is a mistake, not a request for the defaults.
		p.Errorf(n, "summarizers: the list is empty; name at least one summarizer, or leave the key out to run the built-in ones")
		return nil
	}
	var out []Target
	seen := map[string]int{}
	p.Items(n, "summarizers", func(item *yaml.Node, what string) {
		t, ok := p.target(item, what, endpoints)
		if !ok {
			return
		}
		if line, dup := seen[t.Name]; dup {
			p.Errorf(item, "%s: name %q is already used at line %d; give each summarizer its own name", what, t.Name, line)
			return
		}
		seen[t.Name] = item.Line
		out = append(out, t)
	})
	return out
}

// scalarTarget reads a target written as one string: a summarizer or a
// judge as --summarizer and --judge take it (a spec, or NAME=SPEC), an
// agent as --agent does (a spec).
func (p *parser) scalarTarget(n *yaml.Node, what string) (Target, bool) {
	t := Target{Pos: pos(n)}
	raw, ok := p.String(n, what)
	if !ok {
		return t, false
	}
	if what != "agent" {
		parsed, err := ParseTarget(raw)
		if err != nil {
			p.Errorf(n, "%s: %v", what, err)
			return t, false
		}
		parsed.Pos = t.Pos
		return parsed, true
	}
	spec, err := providers.ParseSpec(raw)
	if err != nil {
		p.Errorf(n, "%s: %v", what, err)
		return t, false
	}
	t.Spec, t.Name = spec, spec.Raw
	return t, true
}

// target reads a summarizer or agent: a spec string, or a mapping.
func (p *parser) target(n *yaml.Node, what string, endpoints []Endpoint) (Target, bool) {
	t := Target{Pos: pos(n)}
	if n.Kind == yaml.ScalarNode {
		return p.scalarTarget(n, what)
	}
	n0 := len(p.errs)
	fields := p.Fields(n, what, Keys["summarizers[]"]...)
	if fields == nil {
		return t, false
	}
	specF, hasSpec := fields["spec"]
	typeF, hasType := fields["type"]
	switch {
	case hasSpec && hasType:
		p.Errorf(typeF.Key, "%s: give spec or type, not both", what)
	case hasSpec:
		for _, k := range []string{"model", "command"} {
			if fd, ok := fields[k]; ok {
				p.Errorf(fd.Key, "%s.%s: not allowed with spec (the spec already says it)", what, k)
			}
		}
		if raw, ok := p.String(specF.Value, what+".spec"); ok {
			spec, err := providers.ParseSpec(raw)
			if err != nil {
				p.Errorf(specF.Value, "%s.spec: %v", what, err)
			}
			t.Spec = spec
		}
	case hasType:
		t.Spec = p.typed(what, typeF, fields)
	default:
		p.Errorf(n, "%s: want spec (such as openai:gpt-4o-mini) or type (exec, openai, anthropic or openai-responses)", what)
	}
	if fd, ok := fields["name"]; ok {
		t.Name, _ = p.String(fd.Value, what+".name")
	}
	if t.Name == "" {
		t.Name = t.Spec.Raw
	}
	openai := t.Spec.Kind == providers.KindOpenAI
	model := providers.ModelKind(t.Spec.Kind)
	if fd, ok := fields["prompt"]; ok {
		if !openai && t.Spec.Kind != "" {
			p.Errorf(fd.Key, "%s.prompt: only openai targets take a prompt", what)
		} else if path, ok := p.String(fd.Value, what+".prompt"); ok {
			t.Prompt = p.resolve(path)
			if st, err := os.Stat(t.Prompt); err != nil {
				p.Errorf(fd.Value, "%s.prompt: %v", what, err)
			} else if st.IsDir() {
				p.Errorf(fd.Value, "%s.prompt: %s is a folder, want a template file", what, path)
			} else if !st.Mode().IsRegular() {
				p.Errorf(fd.Value, "%s.prompt: %s %s", what, path, (&inputfile.NotRegularError{Mode: st.Mode()}).Reason())
			}
		}
	}
	if fd, ok := fields["params"]; ok {
		if !model && t.Spec.Kind != "" {
			p.Errorf(fd.Key, "%s.params: only model targets (openai, anthropic, openai-responses) take model parameters", what)
		} else {
			t.Params = p.params(fd.Value, what+".params")
		}
	}
	if fd, ok := fields["endpoint"]; ok {
		if !model && t.Spec.Kind != "" {
			p.Errorf(fd.Key, "%s.endpoint: only model targets (openai, anthropic, openai-responses) use an endpoint", what)
		} else if name, ok := p.String(fd.Value, what+".endpoint"); ok {
			t.Endpoint = name
			if !slices.ContainsFunc(endpoints, func(e Endpoint) bool { return e.Name == name }) {
				names := make([]string, len(endpoints))
				for i, e := range endpoints {
					names[i] = e.Name
				}
				p.Errorf(fd.Value, "%s.endpoint: no endpoint named %q (declared: %s)", what, name, orNone(names))
			}
		}
	}
	for _, key := range []string{"pass_env", "env"} {
		fd, ok := fields[key]
		if !ok {
			continue
		}
		if t.Spec.Kind != providers.KindExec && t.Spec.Kind != "" {
			p.Errorf(fd.Key, "%s.%s: only exec targets take %s (the key variables an exec program may see)", what, key, key)
		} else {
			t.Env = append(t.Env, p.envNames(fd.Value, what+"."+key)...)
		}
	}
	return t, len(p.errs) == n0
}

// envNames reads a list of environment variable names.
func (p *parser) envNames(n *yaml.Node, what string) []string {
	if n.Kind != yaml.SequenceNode {
		p.Errorf(n, "%s: want a list of environment variable names, such as [ANTHROPIC_API_KEY]", what)
		return nil
	}
	var out []string
	for i, w := range n.Content {
		if w.Kind != yaml.ScalarNode || w.Tag != "!!str" || !envName.MatchString(w.Value) {
			// Never echo the value: it may be a key pasted by mistake.
			p.Errorf(w, "%s[%d]: want the NAME of an environment variable (upper case, such as ANTHROPIC_API_KEY), not a value", what, i)
			continue
		}
		out = append(out, w.Value)
	}
	return out
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// typed builds a spec from type, model and command.
func (p *parser) typed(what string, typeF yamlnode.Entry, fields map[string]yamlnode.Entry) providers.Spec {
	kind, ok := p.String(typeF.Value, what+".type")
	if !ok {
		return providers.Spec{}
	}
	model, hasModel := fields["model"]
	command, hasCommand := fields["command"]
	switch kind {
	case providers.KindOpenAI, providers.KindAnthropic, providers.KindResponses:
		if hasCommand {
			p.Errorf(command.Key, "%s.command: an %s target has no command", what, kind)
		}
		if !hasModel {
			p.Errorf(typeF.Value, "%s: type %s needs a model", what, kind)
			return providers.Spec{Kind: kind}
		}
		name, ok := p.String(model.Value, what+".model")
		if !ok {
			return providers.Spec{Kind: kind}
		}
		return providers.Spec{Kind: kind, Name: name, Raw: kind + ":" + name}
	case providers.KindExec:
		if hasModel {
			p.Errorf(model.Key, "%s.model: an exec target has no model", what)
		}
		if !hasCommand {
			p.Errorf(typeF.Value, "%s: type exec needs a command", what)
			return providers.Spec{Kind: kind}
		}
		words := p.command(command.Value, what+".command")
		if len(words) == 0 {
			return providers.Spec{Kind: kind}
		}
		if err := providers.CheckCommand(words); err != nil {
			p.Errorf(command.Value, "%s.command: %v", what, err)
			return providers.Spec{}
		}
		return providers.Spec{Kind: kind, Command: words, Raw: providers.ExecSpec(words)}
	case providers.KindBuiltin:
		p.Errorf(typeF.Value, "%s.type: write a builtin as spec: builtin:NAME", what)
	default:
		p.Errorf(typeF.Value, "%s.type: unknown type %q (valid: exec, openai, anthropic, openai-responses)", what, kind)
	}
	return providers.Spec{}
}

// command reads a command line: a string split like a spec, or a list of words.
func (p *parser) command(n *yaml.Node, what string) []string {
	switch n.Kind {
	case yaml.ScalarNode:
		s, ok := p.String(n, what)
		if !ok {
			return nil
		}
		words, err := providers.SplitCommand(s)
		if err != nil {
			p.Errorf(n, "%s: %v", what, err)
			return nil
		}
		return words
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			p.Errorf(n, "%s: empty", what)
			return nil
		}
		var words []string
		for i, w := range n.Content {
			if w.Kind != yaml.ScalarNode || w.Tag == "!!null" {
				p.Errorf(w, "%s[%d]: want a word, got %s", what, i, p.Describe(w))
				continue
			}
			words = append(words, w.Value)
		}
		if len(words) > 0 && words[0] == "" {
			p.Errorf(n.Content[0], "%s[0]: empty command name", what)
			return nil
		}
		return words
	}
	p.Errorf(n, "%s: want a command line or a list of words, got %s", what, p.Describe(n))
	return nil
}

func (p *parser) params(n *yaml.Node, what string) Params {
	var out Params
	fields := p.Fields(n, what, Keys["summarizers[].params"]...)
	if fd, ok := fields["temperature"]; ok {
		if v, ok := p.number(fd.Value, what+".temperature"); ok {
			if v < 0 || v > 2 {
				p.Errorf(fd.Value, "%s.temperature: want a value in [0, 2], got %s", what, fd.Value.Value)
			} else {
				out.Temperature = &v
			}
		}
	}
	if fd, ok := fields["seed"]; ok {
		if v, ok := p.integer(fd.Value, what+".seed", 0); ok {
			out.Seed = &v
		}
	}
	if fd, ok := fields["max_tokens"]; ok {
		out.MaxTokens, _ = p.integer(fd.Value, what+".max_tokens", 1)
	}
	return out
}

// gateKeys are the check types a min_pass gate may name (as reports reads them).
var gateKeys = reports.GateKeys()

func (p *parser) gates(n *yaml.Node) Gates {
	var g Gates
	fields := p.Fields(n, "gates", Keys["gates"]...)
	if fd, ok := fields["min_pass"]; ok {
		g.MinPass = map[string]float64{}
		switch fd.Value.Kind {
		case yaml.MappingNode:
			seen := map[string]bool{}
			for i := 0; i+1 < len(fd.Value.Content); i += 2 {
				k, v := fd.Value.Content[i], fd.Value.Content[i+1]
				switch {
				case seen[k.Value]:
					p.Errorf(k, "gates.min_pass: duplicate check type %q", k.Value)
				case !slices.Contains(gateKeys, k.Value):
					p.Errorf(k, "gates.min_pass: unknown check type %q%s (valid: %s)", k.Value, didyoumean.Suffix(k.Value, gateKeys, strconv.Quote), strings.Join(gateKeys, ", "))
				default:
					if r, ok := p.rate(v, "gates.min_pass."+k.Value); ok {
						g.MinPass[k.Value] = r
					}
				}
				seen[k.Value] = true
			}
			if len(fd.Value.Content) == 0 {
				p.Errorf(fd.Value, "gates.min_pass: empty")
			}
		case yaml.ScalarNode:
			if fd.Value.Tag == "!!str" && strings.Contains(fd.Value.Value, "=") {
				// the flag's own form: constraint=1,all=0.9
				m, err := reports.ParseMinPass(fd.Value.Value)
				if err != nil {
					p.Errorf(fd.Value, "gates.min_pass: %v", err)
				} else {
					g.MinPass = m.Rates
				}
			} else if r, ok := p.rate(fd.Value, "gates.min_pass"); ok {
				g.MinPass["all"] = r
			}
		default:
			p.Errorf(fd.Value, "gates.min_pass: want a rate or a mapping of check type to rate, got %s", p.Describe(fd.Value))
		}
	}
	if fd, ok := fields["baseline"]; ok {
		if path, ok := p.String(fd.Value, "gates.baseline"); ok {
			g.Baseline = p.resolve(path)
		}
	}
	if fd, ok := fields["judge"]; ok {
		if p.Scalar(fd.Value, "gates.judge", "true or false", "!!bool") {
			g.Judge = fd.Value.Value == "true"
		}
	}
	if fd, ok := fields["uncertain"]; ok {
		if p.Scalar(fd.Value, "gates.uncertain", "miss, skip or pass", "!!str") {
			if err := g.Uncertain.Set(fd.Value.Value); err != nil {
				p.Errorf(fd.Value, "gates.uncertain: %v", err)
			}
		}
	}
	return g
}

// rate reads a pass rate: a number in [0, 1] or a percentage string "90%".
func (p *parser) rate(n *yaml.Node, what string) (float64, bool) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		if pct, ok := strings.CutSuffix(strings.TrimSpace(n.Value), "%"); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(pct), 64)
			if err != nil || !(v >= 0 && v <= 100) { // NaN% too
				p.Errorf(n, "%s: want a rate in [0, 1] or a percentage, got %q", what, n.Value)
				return 0, false
			}
			return v / 100, true
		}
	}
	v, ok := p.number(n, what)
	if !ok {
		return 0, false
	}
	if !(v >= 0 && v <= 1) {
		p.Errorf(n, "%s: want a rate in [0, 1] (write 0.9 or \"90%%\"), got %s", what, n.Value)
		return 0, false
	}
	return v, true
}

// resolve makes a path from the file relative to the file's folder.
func (p *parser) resolve(path string) string {
	if filepath.IsAbs(path) || p.dir == "" {
		return path
	}
	return filepath.Join(p.dir, path)
}
