package agents_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/testkit/exectest"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
	"github.com/compact-eval/compact-eval/scenarios"
)

func freeTextScenario(t *testing.T) *scenarios.Scenario {
	t.Helper()
	data, err := os.ReadFile("../testdata/scenarios/good/free-text-probe.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.LoadBytes("free.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReferenceFreeText: the reference agent answers the expected answer
// when its requires occur in the context, and says it cannot tell when
// compaction lost them.
func TestReferenceFreeText(t *testing.T) {
	s := freeTextScenario(t)
	p := s.Probes[0]
	full := agents.FullContext(s)
	d, err := agents.Reference{}.Decide(context.Background(), agents.ProbeRequest(s, p, agents.ArmFull, full))
	if err != nil || d.Answer != p.Answer || d.Choice != "" {
		t.Fatalf("full arm: %+v, %v; want the expected answer", d, err)
	}
	lossy := agents.Context{Rules: s.Rules, Goal: s.Goal, Summary: []byte(`{"schema_version":1,"covers_through":3,"text":"a report goes out"}`)}
	d, err = agents.Reference{}.Decide(context.Background(), agents.ProbeRequest(s, p, agents.ArmCompacted, lossy))
	if err != nil || d.Answer != agents.DontKnow || !strings.Contains(d.Reason, "found nothing") {
		t.Fatalf("compacted arm: %+v, %v; want %q", d, err, agents.DontKnow)
	}
	// A probe without requires: the expected answer, whatever the context.
	d, _ = agents.Reference{}.Decide(context.Background(), agents.ProbeRequest(s, s.Probes[1], agents.ArmCompacted, lossy))
	if d.Answer != s.Probes[1].Answer {
		t.Errorf("no requires: %+v", d)
	}
	if errs := agents.CheckProbes(s); len(errs) != 0 {
		t.Errorf("lint: %v", errs)
	}
	// Lint: an answer whose requires the full context does not hold.
	s.Probes[0].Requires[0].Patterns = []string{"ops-alerts"}
	errs := agents.CheckProbes(s)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `probe "recipient": the answer is not derivable from the full context: requires pattern "ops-alerts" found nothing`) {
		t.Errorf("lint: %v", errs)
	}
}

// TestExecFreeText: an exec agent gets kind "answer" with no options and
// none of the expected answer, rubric or requires; a reply without an
// answer is an error.
func TestExecFreeText(t *testing.T) {
	progs, err := exectest.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := freeTextScenario(t)
	log := t.TempDir() + "/stdin.log"
	t.Setenv("EXECTEST_STDIN_LOG", log)
	a := newExec(t, []string{progs["agent-dumpstdin"]}, providers.Options{})
	d, err := a.Decide(context.Background(), agents.ProbeRequest(s, s.Probes[0], agents.ArmCompacted, agents.FullContext(s)))
	if err != nil || d.Answer != "my answer on the compacted arm" {
		t.Fatalf("%+v, %v", d, err)
	}
	sent, _ := os.ReadFile(log)
	for _, leak := range []string{"rubric", "requires", "options", "does not name"} {
		if strings.Contains(string(sent), leak) {
			t.Errorf("the request carries %q:\n%s", leak, sent)
		}
	}
	if !strings.Contains(string(sent), `"kind":"answer"`) {
		t.Errorf("kind: %s", sent)
	}
	if strings.Contains(string(sent), `"answer":`) {
		t.Errorf("the expected answer travels: %s", sent)
	}
	// A choice-only program answers a free-text probe with a choice: error.
	a = newExec(t, []string{progs["summarizer-good"]}, providers.Options{})
	if _, err := a.Decide(context.Background(), agents.ProbeRequest(s, s.Probes[1], agents.ArmFull, agents.FullContext(s))); err == nil {
		t.Error("a reply with no answer was accepted")
	}
}

// TestOpenAIFreeText: the openai agent asks for {"answer"} and reads a
// plain-text reply as the answer; the expected answer is never sent.
func TestOpenAIFreeText(t *testing.T) {
	s := freeTextScenario(t)
	srv := llmtest.New(t, llmtest.Text(`{"answer":"It goes to sre-oncall@northwind.io.","reason":"seq 3"}`), llmtest.Text("To the on-call list."))
	a := newAgent(t, srv, nil)
	req := agents.ProbeRequest(s, s.Probes[0], agents.ArmFull, agents.FullContext(s))
	d, err := a.Decide(context.Background(), req)
	if err != nil || d.Answer != "It goes to sre-oncall@northwind.io." || d.Reason != "seq 3" {
		t.Fatalf("%+v, %v", d, err)
	}
	req.Trial = 1
	d, err = a.Decide(context.Background(), req)
	if err != nil || d.Answer != "To the on-call list." {
		t.Fatalf("plain text: %+v, %v", d, err)
	}
	for i, r := range srv.Requests() {
		user := r.Messages("user")
		last := user[len(user)-1]
		if !strings.HasPrefix(last, "Question needing an answer. Who gets the weekly report?") {
			t.Errorf("request %d asks %q", i, last)
		}
		for _, leak := range []string{"rubric", "does not name ops-alerts", "compacted", "full context"} {
			if r.Contains(leak) {
				t.Errorf("request %d carries %q", i, leak)
			}
		}
	}
}
