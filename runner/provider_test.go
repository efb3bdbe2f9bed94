package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/testkit/providerfake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

// providerRun runs the built-in suite with one provider summarizer and the
// agent of the same kind against fake, caching in cache.
func providerRun(t *testing.T, fake *providerfake.Server, kind, cache string) *result.Result {
	t.Helper()
	o := providers.OpenAIOptions{BaseURL: fake.URL + "/v1", APIKey: "sk-test-canary-0123456789", CacheDir: cache}
	if kind == providers.KindAnthropic {
		fake.AnthropicKey = o.APIKey
	} else {
		fake.OpenAIKey = o.APIKey
	}
	spec := providers.Spec{Kind: kind, Name: "model-x", Raw: kind + ":model-x"}
	s, err := summarizers.New(spec, providers.Options{OpenAI: o})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agents.New(spec, providers.Options{OpenAI: o})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Summarizers: []Summarizer{{Name: spec.Raw, Summarizer: s}}, Agent: a, AgentName: spec.Raw,
		Out: filepath.Join(t.TempDir(), "run"), Now: fixedNow, Jobs: 4}
	res, err := Run(context.Background(), builtinSuite(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reports.Read(res.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestProviderSuiteEndToEnd runs the built-in suite through each provider's
// compaction and agent: every unit completes, the compacted arm replays the
// provider's item (the fake refuses one that is not sent back verbatim),
// the readable Anthropic summary is checked like any text summary, the
// opaque OpenAI one skips its text checks with the documented reason and is
// measured by the provider's usage, and a rerun is served from the cache.
func TestProviderSuiteEndToEnd(t *testing.T) {
	for _, kind := range []string{providers.KindAnthropic, providers.KindResponses} {
		t.Run(kind, func(t *testing.T) {
			fake := providerfake.New()
			defer fake.Close()
			var replayed, full atomic.Int64
			fake.Answer = func(q providerfake.Question) string {
				if q.Compacted {
					replayed.Add(1)
				} else {
					full.Add(1)
				}
				return q.Keys[len(q.Keys)-1]
			}
			cache := t.TempDir()
			r := providerRun(t, fake, kind, cache)
			first := len(fake.Requests())
			// Every request carries an output limit, but the compact
			// endpoint's, which takes none.
			for _, rq := range fake.Requests() {
				var body struct {
					MaxTokens       int `json:"max_tokens"`
					MaxOutputTokens int `json:"max_output_tokens"`
				}
				json.Unmarshal(rq.Body, &body)
				if max(body.MaxTokens, body.MaxOutputTokens) < 1 && !strings.HasSuffix(rq.Path, "/responses/compact") {
					t.Fatalf("%s: a request without an output limit: %.200s", rq.Path, rq.Body)
				}
			}
			gens, textRan, leaked := 0, 0, 0
			for _, u := range r.Units {
				if u.Status != result.UnitOK {
					t.Errorf("%s: status %s: %s", u.Scenario.ID, u.Status, u.Error)
				}
				for _, g := range u.Generations {
					if !g.Installed {
						t.Errorf("%s g%d not installed: %s", u.Scenario.ID, g.N, g.InstallError)
						continue
					}
					gens++
					if g.Call.Spec != kind+":model-x" || g.Call.Usage.CompletionTokens == 0 {
						t.Errorf("%s g%d provenance %+v", u.Scenario.ID, g.N, g.Call)
					}
					for _, c := range g.Checks {
						opaque := c.Status == result.Skip && strings.HasPrefix(c.Message, checks.OpaqueReason)
						switch {
						case kind == providers.KindAnthropic && opaque:
							t.Errorf("%s: %s skipped as opaque on a readable summary", u.Scenario.ID, c.Check)
						case kind == providers.KindResponses && c.Kind == result.KindInvariant && c.Check == result.TypeSecret && opaque:
							t.Errorf("%s: secret %s skipped on an opaque summary; its readable items can leak", u.Scenario.ID, c.Invariant)
						case kind == providers.KindResponses && c.Kind == result.KindInvariant && c.Check != result.TypeSecret && !opaque:
							t.Errorf("%s: invariant %s %s (%s) on an opaque summary; want skip %q", u.Scenario.ID, c.Invariant, c.Status, c.Message, checks.OpaqueReason)
						case kind == providers.KindResponses && (c.Check == result.CheckSchema || c.Check == result.CheckCoverage) && c.Status != result.Pass:
							t.Errorf("%s: %s %s (%s); the shape checks still apply", u.Scenario.ID, c.Check, c.Status, c.Message)
						case kind == providers.KindResponses && c.Check == result.CheckCompression:
							if c.Metrics["summary_tokens"] <= 0 || !strings.HasPrefix(c.Message, "provider-reported") {
								t.Errorf("%s: compression %s %v, want the provider's figure", u.Scenario.ID, c.Message, c.Metrics)
							}
						}
						if c.Kind == result.KindInvariant && c.Status != result.Skip {
							textRan++
						}
						if c.Check == "secret" && c.Status == result.Fail {
							leaked++ // a reply that copied a secret is never cached
						}
					}
				}
			}
			if gens == 0 {
				t.Fatal("no generation in the whole suite")
			}
			// Every unit holds what its plan says: an opaque summary's
			// skipped checks are outcomes too.
			g := reports.Gate(r, reports.GateOptions{MinPass: reports.MinPass{Rates: map[string]float64{"all": 0}}, AllowEmpty: true})
			for _, l := range g.Lines {
				if strings.HasPrefix(l, "FAIL evidence") {
					t.Errorf("an honest run fails on its plan: %s", l)
				}
			}
			t.Logf("%s: %d units, %d generations, %d requests (%d compacted-arm and %d full-arm decisions asked)", kind, len(r.Units), gens, first, replayed.Load(), full.Load())
			if kind == providers.KindAnthropic && textRan == 0 {
				t.Error("no invariant check ran on the readable summaries")
			}
			if replayed.Load() == 0 || full.Load() == 0 {
				t.Errorf("replayed %d, full %d decisions: want both arms asked", replayed.Load(), full.Load())
			}
			// the rerun is answered from the cache: not one request, but for
			// the compactions that copied a secret (never cached)
			r2 := providerRun(t, fake, kind, cache)
			if n := len(fake.Requests()) - first; n != leaked {
				t.Errorf("cached rerun sent %d requests, want %d (the leaking compactions)", n, leaked)
			}
			if kind == providers.KindAnthropic && leaked == 0 {
				t.Error("the fake's copy-everything summary leaked no secret: the secret check did not run")
			}
			if len(r2.Units) != len(r.Units) {
				t.Errorf("rerun has %d units, want %d", len(r2.Units), len(r.Units))
			}
		})
	}
}

// TestForgedOpaqueSummary: a summarizer that is not OpenAI's compaction
// cannot dodge the text checks by calling its document an opaque provider
// item: the invariants run on it (and fail, it has no text), while the
// same document from the openai-responses summarizer skips them.
func TestForgedOpaqueSummary(t *testing.T) {
	list := builtinSuite(t)
	forge := func(spec string) summarizers.Summarizer {
		return summarizers.Func(func(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
			doc := fmt.Sprintf(`{"schema_version":1,"covers_through":%d,"extensions":{"provider_compaction":{"provider":"openai-responses","model":"m","opaque":true,"output":[],"tokens":5}}}`, req.Cut)
			return &summarizers.Response{Summary: json.RawMessage(doc), Call: result.Call{Spec: spec}}, nil
		})
	}
	for _, tc := range []struct {
		spec       string
		wantOpaque bool
	}{{"exec:./forger", false}, {"openai-responses:m", true}} {
		opts := baseOptions(t, filepath.Join(t.TempDir(), "run"))
		opts.Summarizers = []Summarizer{{Name: "s", Summarizer: forge(tc.spec)}}
		res, err := Run(context.Background(), list[:3], opts)
		if err != nil {
			t.Fatal(err)
		}
		r, err := reports.Read(res.ResultPath)
		if err != nil {
			t.Fatal(err)
		}
		inv := 0
		for _, u := range r.Units {
			for _, g := range u.Generations {
				for _, c := range g.Checks {
					if c.Kind != result.KindInvariant {
						continue
					}
					inv++
					opaque := c.Status == result.Skip && c.Message == checks.OpaqueReason
					if opaque != tc.wantOpaque {
						t.Errorf("%s: %s/%s %s %q", tc.spec, u.Scenario.ID, c.Invariant, c.Status, c.Message)
					}
				}
			}
		}
		if inv == 0 {
			t.Fatalf("%s: no invariant checked", tc.spec)
		}
	}
}

// TestOpaqueSummaryLeak: the encrypted item of an opaque compaction cannot
// be searched, but the items OpenAI keeps readable beside it (the user
// messages of /responses/compact's output) can. A secret copied there fails
// the secret check; a clean opaque summary passes it.
func TestOpaqueSummaryLeak(t *testing.T) {
	var sc *scenarios.Scenario
	for _, s := range builtinSuite(t) {
		if len(s.Secrets()) > 0 {
			sc = s
			break
		}
	}
	if sc == nil {
		t.Fatal("no built-in scenario has a secret")
	}
	var secret string
	for _, v := range sc.Secrets() {
		secret = v
	}
	for _, leak := range []bool{false, true} {
		kept := "please look at the gateway"
		if leak {
			kept = "the key was " + secret
		}
		sum := summarizers.Func(func(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
			item, _ := json.Marshal(kept)
			doc := fmt.Sprintf(`{"schema_version":1,"covers_through":%d,"extensions":{"provider_compaction":{"provider":"openai-responses","model":"m","opaque":true,"output":[{"type":"message","role":"user","content":[{"type":"input_text","text":%s}]},{"type":"compaction","id":"cmp_1","encrypted_content":"gAAAAB3xq9"}],"tokens":5}}}`, req.Cut, item)
			return &summarizers.Response{Summary: json.RawMessage(doc), Call: result.Call{Spec: "openai-responses:m"}}, nil
		})
		opts := baseOptions(t, filepath.Join(t.TempDir(), "run"))
		opts.Summarizers = []Summarizer{{Name: "s", Summarizer: sum}}
		res, err := Run(context.Background(), []*scenarios.Scenario{sc}, opts)
		if err != nil {
			t.Fatal(err)
		}
		r, err := reports.Read(res.ResultPath)
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, g := range r.Units[0].Generations {
			for _, c := range g.Checks {
				if c.Check != result.TypeSecret {
					continue
				}
				seen++
				want := result.Pass
				if leak {
					want = result.Fail
				}
				if c.Status != want {
					t.Errorf("leak %v: g%d secret %s %q, want %s", leak, g.N, c.Status, c.Message, want)
				}
			}
		}
		if seen == 0 {
			t.Fatalf("leak %v: no secret check ran", leak)
		}
	}
}
