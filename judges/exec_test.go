package judges_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/internal/execproc"
	"github.com/compact-eval/compact-eval/internal/testkit/exectest"
	"github.com/compact-eval/compact-eval/judges"
)

// TestExec runs the exec judge against a real process (judge-scripted).
func TestExec(t *testing.T) {
	progs, err := exectest.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rules := filepath.Join(dir, "rules")
	log := filepath.Join(dir, "stdin.log")
	os.WriteFile(rules, []byte("# verdicts\nro contradicted do not change prod\nport kept\nbad garbage\nboom crash\nliar wrong-quote\nprobe:p correct\n"), 0o644)
	spec, _ := providers.ParseSpec("exec:" + progs["judge-scripted"])
	j, err := judges.New(spec, providers.Options{Env: []string{"EXECTEST_JUDGE_RULES=" + rules, "EXECTEST_STDIN_LOG=" + log}})
	if err != nil {
		t.Fatal(err)
	}
	req := func(id string) *judges.Request {
		r := invReq()
		r.Invariant.ID = id
		return r
	}
	ctx := context.Background()

	v, err := j.Judge(ctx, req("ro"))
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != judges.Contradicted || v.Quote != "do not change prod" || v.Reason != "scripted verdict for ro" {
		t.Errorf("verdict = %+v", v)
	}
	if v.Call.Spec != spec.Raw || v.Call.Latency <= 0 {
		t.Errorf("call = %+v", v.Call)
	}
	// No quote in the rule: the judge quotes the summary's text, which is there.
	if v, err := j.Judge(ctx, req("port")); err != nil || v.Verdict != judges.Kept {
		t.Errorf("port: %+v, %v", v, err)
	}
	if v, err := j.Judge(ctx, req("unknown")); err != nil || v.Verdict != judges.Missing {
		t.Errorf("no rule: %+v, %v, want missing", v, err)
	}
	if v, err := j.Judge(ctx, ansReq("Decline: read-only.")); err != nil || v.Verdict != judges.Correct {
		t.Errorf("answer: %+v, %v", v, err)
	}

	for id, want := range map[string]string{
		"bad":  "output is not JSON",
		"boom": "simulated crash",
		"liar": "relies on words that are not in the summary",
	} {
		v, err := j.Judge(ctx, req(id))
		var e *execproc.Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want an *execproc.Error containing %q", id, err, want)
		}
		if v == nil || v.Verdict != "" || v.Call.Spec != spec.Raw {
			t.Errorf("%s: a failed judgement gives %+v", id, v)
		}
	}

	// The wire: protocol, kind, the fact and the summary; nothing else.
	data, _ := os.ReadFile(log)
	first := strings.SplitN(string(data), "\n", 2)[0]
	var got map[string]any
	if err := json.Unmarshal([]byte(first), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"protocol", "kind", "scenario_id", "generation", "invariant", "summary"} {
		if _, ok := got[k]; !ok {
			t.Errorf("request lacks %q: %s", k, first)
		}
	}
	if len(got) != 6 {
		t.Errorf("request has %d fields, want 6: %s", len(got), first)
	}
}
