package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
	"github.com/compact-eval/compact-eval/selftest"
)

// TestSelftestOpenAIAgent runs selftest with --agent openai:MODEL against an
// endpoint that speaks the chat-completions wire format. The model declines
// a restart when its prompt holds the session's "READ-ONLY" (the options
// only say "read-only"; they come under drawn labels, which it reads) and
// otherwise picks the first option: the probe
// half of the variants is answered by it, so the variant that drops the
// rule is caught by the model's own answer. A second run is answered from
// the response cache, and the API key reaches no output.
func TestSelftestOpenAIAgent(t *testing.T) {
	const fakeKey = "sk-test-DONOTLEAK-0987654321"
	keys := regexp.MustCompile(`exactly one of: ([^.\n]+)\.`)
	optionLine := regexp.MustCompile(`(?m)^- ([A-Z]): (.+)$`)
	srv := llmtest.New(t)
	srv.SetDefault(func(r llmtest.Request) llmtest.Reply {
		var all []string
		for _, m := range r.Chat.Messages {
			all = append(all, m.Content)
		}
		last := strings.Join(all, "\n")
		m := keys.FindStringSubmatch(last)
		if m == nil {
			return llmtest.Reply{Status: 400, Content: "not a decide prompt"}
		}
		// The options are shown in a drawn order under labels (A, B…):
		// the model reads the labels' texts, as a real one would.
		label := map[string]string{}
		for _, o := range optionLine.FindAllStringSubmatch(last, -1) {
			label[o[2]] = o[1]
		}
		choice, reason := strings.TrimSpace(strings.Split(m[1], ",")[0]), "the first option"
		if decline, ok := label["Decline; this investigation is read-only"]; ok {
			choice, reason = label["Restart the gateway pods"], "nothing forbids it"
			if strings.Contains(last, "READ-ONLY") {
				choice, reason = decline, "the session is READ-ONLY"
			}
		}
		return llmtest.Reply{Content: fmt.Sprintf(`{"choice":%q,"reason":%q}`, choice, reason), PromptTokens: len(last) / 4, CompletionTokens: 12}
	})
	llm.ForgetOutputModes()
	t.Setenv("OPENAI_BASE_URL", srv.BaseURL())
	t.Setenv("OPENAI_API_KEY", fakeKey)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	work := t.TempDir()

	var counts []int
	for i := range 2 {
		var stdout, stderr bytes.Buffer
		out := filepath.Join(work, fmt.Sprintf("st%d.json", i))
		code := run(context.Background(), []string{"selftest", "--agent", "openai:sim-agent", "--json", out, "../../testdata/selftest/strong.yaml"},
			newEnv(strings.NewReader(""), &stdout, &stderr))
		if code != exitOK {
			t.Fatalf("run %d: exit %d\nstdout:\n%s\nstderr:\n%s", i+1, code, stdout.String(), stderr.String())
		}
		counts = append(counts, srv.Count())
		doc, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range [][]byte{stdout.Bytes(), stderr.Bytes(), doc} {
			if bytes.Contains(p, []byte(fakeKey)) {
				t.Errorf("run %d: the API key reached an output", i+1)
			}
		}
		var rep struct {
			Agent     string `json:"agent"`
			Scenarios []struct {
				Variants []struct {
					Target   struct{ Kind, ID string }
					Class    string `json:"class"`
					Outcome  string `json:"outcome"`
					CaughtBy []struct {
						Probe, Message string
					} `json:"caught_by"`
				} `json:"variants"`
			} `json:"scenarios"`
		}
		if err := json.Unmarshal(doc, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Agent != "openai:sim-agent" {
			t.Errorf("agent = %q", rep.Agent)
		}
		found := false
		for _, v := range rep.Scenarios[0].Variants {
			if v.Target.ID == "restart" && v.Class == "omit" {
				found = true
				if v.Outcome != "caught" || len(v.CaughtBy) == 0 || v.CaughtBy[0].Probe != "restart" {
					t.Errorf("probe restart omit: %s by %+v; want caught by the model's answer", v.Outcome, v.CaughtBy)
				}
			}
		}
		if !found {
			t.Errorf("no omit variant of probe restart:\n%s", stdout.String())
		}
		if i == 0 {
			llm.ForgetOutputModes() // the second run is a new process
		}
	}
	if counts[0] == 0 {
		t.Fatal("the model was never asked")
	}
	if counts[1] != counts[0] {
		t.Errorf("the second identical selftest sent %d requests, want 0 (cached)", counts[1]-counts[0])
	}
}

// The console shows a variant caught but not settled as its own count: in
// the verdict, the tables' uncertain column and a list naming what could
// not tell it; strength does not count it as missed.
func TestSelftestUncertainConsole(t *testing.T) {
	one, strength := 1.0, 1.0
	v := selftest.VariantResult{
		Variant:     selftest.Variant{Scenario: "s", Target: selftest.Target{Kind: selftest.KindInvariant, ID: "ro", Type: "constraint"}, Class: selftest.Invert, Detail: "antonym", Said: "text: The session is now read-write."},
		Outcome:     selftest.Uncertain,
		UncertainBy: []selftest.Catch{{Check: "constraint", Invariant: "ro", Message: "/text touches the rule in words the reader cannot classify"}},
	}
	r := &selftest.Report{
		Tally:   selftest.Tally{Planted: 4, Caught: 3, Uncertain: 1, Strength: &strength},
		Classes: []selftest.ClassTally{{Class: selftest.Invert, Tally: selftest.Tally{Planted: 4, Caught: 3, Uncertain: 1, Strength: &one}}},
		Scenarios: []selftest.ScenarioReport{{ID: "s", Tally: selftest.Tally{Planted: 4, Caught: 3, Uncertain: 1, Strength: &one},
			Variants: []selftest.VariantResult{v}}},
	}
	if got := selftestVerdict(r, 1); !strings.HasPrefix(got, "verdict: strength 1.00 (3 of 4 planted defects caught, 1 uncertain) in 1 scenario") {
		t.Errorf("verdict = %q", got)
	}
	var b bytes.Buffer
	writeUncertainVariants(&b, r)
	want := "  s · constraint ro · invert (antonym) · text: The session is now read-write. · constraint ro: /text touches the rule in words the reader cannot classify"
	if !strings.Contains(b.String(), "uncertain, caught but not settled") || !strings.Contains(b.String(), want) {
		t.Errorf("uncertain list:\n%s\nwant the line %q", b.String(), want)
	}
}
