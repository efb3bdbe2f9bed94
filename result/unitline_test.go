package result_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/result"
)

func sampleUnit(id string) result.Unit {
	return result.Unit{
		Scenario:   result.ScenarioRef{ID: id, File: "s.yaml", Digest: "sha256:x"},
		Summarizer: "extractive", Trial: 0, Status: result.UnitOK,
		Generations: []result.Generation{{
			N: 1, Trigger: "at", Cut: 4, From: 1, CoversThrough: 4, SummaryID: "g1", Installed: true,
			Summary: json.RawMessage(`{"goal":"keep <b> & </b>"}`),
			Checks: []result.CheckResult{{Check: result.TypeConstraint, Kind: result.KindInvariant, Invariant: "c1",
				Status: result.Pass, Message: "a <rule> & more", Pos: result.Pos{Line: 3, Col: 5}}},
			Call: result.Call{Spec: "builtin:extractive", Latency: time.Millisecond},
		}},
		Probes: []result.Probe{{ID: "p1", Expect: "a", Class: result.Kept,
			Full: result.Decision{Choice: "a"}, Compacted: result.Decision{Choice: "a"}}},
	}
}

// A result file's unit lines are the journal's lines: the runner builds
// result.json by copying them, so the two encodings must be one.
func TestWriteJSONUnitLinesAreMarshalUnit(t *testing.T) {
	r := &result.Result{ResultVersion: result.ResultVersion, Harness: "test", RunID: "r",
		Config: result.RunConfig{Summarizers: []string{"extractive"}, Trials: 1},
		Units:  []result.Unit{sampleUnit("a"), sampleUnit("b")}}
	var b bytes.Buffer
	if err := result.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	for i := range r.Units {
		line, err := result.MarshalUnit(&r.Units[i])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(line, []byte("\n")) || bytes.Count(line, []byte("\n")) != 1 {
			t.Fatalf("MarshalUnit: want one line ending in a newline, got %q", line)
		}
		if !strings.Contains(string(line), "<b> & </b>") {
			t.Errorf("MarshalUnit escaped HTML characters: %s", line)
		}
		want := "    " + strings.TrimSuffix(string(line), "\n")
		if !strings.Contains(b.String(), want+"\n") && !strings.Contains(b.String(), want+",\n") {
			t.Errorf("WriteJSON does not hold unit %d as MarshalUnit's line %q:\n%s", i, want, b.String())
		}
		back, err := result.UnmarshalUnit(line)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := result.MarshalUnit(back)
		if !bytes.Equal(again, line) {
			t.Errorf("UnmarshalUnit then MarshalUnit changed the line:\n%s\n%s", line, again)
		}
	}
	if _, err := result.Decode(b.Bytes()); err != nil {
		t.Errorf("Decode refuses what WriteJSON wrote: %v", err)
	}
}

func TestUnmarshalUnitRefusesWhatIsNotJSON(t *testing.T) {
	if _, err := result.UnmarshalUnit([]byte("{\"scenario\":")); err == nil {
		t.Error("UnmarshalUnit accepted a torn line")
	}
}

// AppendUnit appends exactly MarshalUnit's line, after what dst holds, and
// a line returned earlier is never changed by a later call (the encoder's
// buffer is reused).
func TestAppendUnit(t *testing.T) {
	a, b := sampleUnit("a"), sampleUnit("b-with-a-longer-id")
	la, _ := result.MarshalUnit(&a)
	lb, _ := result.MarshalUnit(&b)
	keep := bytes.Clone(la)
	buf := []byte("head\n")
	var err error
	for _, u := range []*result.Unit{&a, &b, &a} {
		if buf, err = result.AppendUnit(buf, u); err != nil {
			t.Fatal(err)
		}
	}
	want := "head\n" + string(la) + string(lb) + string(la)
	if string(buf) != want {
		t.Errorf("AppendUnit:\n got %q\nwant %q", buf, want)
	}
	if !bytes.Equal(la, keep) {
		t.Errorf("a later call changed an earlier line: %q", la)
	}
}
