package importer_test

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// An OTLP JSON file of GenAI spans (written from the public schema): each
// chat span's context repeats the last one's, so only what follows is an
// event; a reply with finish reason compaction is a recorded compaction
// with the span's input tokens as its size before; the next context opens
// with a compaction part and what was kept, which is not added again; a
// tool span gives a result the messages also show once; the system
// instructions are the rules; reasoning is dropped.
func TestOTelTrace(t *testing.T) {
	data, err := os.ReadFile("../testdata/import/otel_traces.json")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep, err := importer.Import(bytes.NewReader(data), &out, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Format != importer.FormatOTel || !rep.Detected || rep.Records != 2 {
		t.Errorf("report = %+v, want otel detected, 2 traces", rep)
	}
	s, err := scenarios.LoadBytes("otel.yaml", out.Bytes())
	if err != nil {
		t.Fatalf("load: %v\n%s", err, out.String())
	}
	for i := range s.Events {
		s.Events[i].Pos = result.Pos{}
	}
	want := []scenarios.Event{
		user(1, "Roll out build 4.2 to staging-eu. Do not touch the prod cluster."),
		call(2, "", "call_1", "get_build", map[string]any{"build": "4.2"}),
		toolResult(3, "call_1", "ok", "build 4.2: artifacts ready, digest sha256:ab12"),
		call(4, "", "call_2", "deploy", map[string]any{"env": "staging-eu", "build": "4.2"}),
		toolResult(5, "call_2", "ok", "deployed 4.2 to staging-eu"),
		assistant(6, "Build 4.2 is live on staging-eu."),
		user(7, "Good. Now check the error rate."),
		call(8, "", "call_3", "metrics", map[string]any{"env": "staging-eu"}),
		toolResult(9, "call_3", "ok", "5xx rate 0.2%"),
		assistant(10, "The error rate on staging-eu is 0.2%."),
	}
	if diff := cmp.Diff(want, s.Events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if s.Rules != "You are the deploy agent. Never deploy on Fridays." {
		t.Errorf("rules = %q", s.Rules)
	}
	if len(s.Recorded) != 1 || s.Recorded[0].Boundary != 7 || s.Recorded[0].PreTokens != 121000 || !strings.HasPrefix(s.Recorded[0].Summary, "The user asked to roll out build 4.2") {
		t.Errorf("recorded = %+v, want the compaction after seq 7 with 121000 tokens before", s.Recorded)
	}
	if w := strings.Join(rep.Warnings, "\n"); !strings.Contains(w, "reasoning parts: 1") || !strings.Contains(w, "holds 2 sessions") {
		t.Errorf("warnings:\n%s", w)
	}

	// The second trace carries its messages in the inference details
	// event, the input as structured attribute values.
	out.Reset()
	if _, err := importer.Import(bytes.NewReader(data), &out, importer.Options{Index: 1}); err != nil {
		t.Fatal(err)
	}
	s, err = scenarios.LoadBytes("otel.yaml", out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Events) != 2 || s.Events[0].Text != "Summarise yesterday's incident." || s.Events[1].Text != "Yesterday the queue filled up." {
		t.Errorf("second trace events = %+v", s.Events)
	}

	// --all: a scenario a trace.
	var ids []string
	n, err := importer.ImportEach(bytes.NewReader(data), importer.Options{Name: "otel_traces.json"}, func(rep *importer.Report, write func(io.Writer) error, err error) error {
		if err != nil {
			return err
		}
		ids = append(ids, rep.ID)
		return write(io.Discard)
	})
	if err != nil || n != 2 || len(ids) != 2 || ids[0] == ids[1] {
		t.Errorf("ImportEach: %d, %v, ids %v", n, err, ids)
	}
}

// What could break the rebuilding: a context that does not extend the
// last one adds only messages not yet events; an empty trace is an input
// error, not a panic.
func TestOTelEdges(t *testing.T) {
	msgs := func(m string) string { return `{"key":"gen_ai.input.messages","value":{"stringValue":` + m + `}}` }
	in := `{"resourceSpans":[{"scopeSpans":[{"spans":[
{"traceId":"t1","spanId":"s1","name":"chat","startTimeUnixNano":"1","attributes":[` + msgs(`"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"a\"}]}]"`) + `]},
{"traceId":"t1","spanId":"s2","name":"chat","startTimeUnixNano":2,"attributes":[` + msgs(`"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"b\"}]},{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"a\"}]}]"`) + `]}]}]}]}`
	got, _ := importString(t, in, importer.Options{Format: importer.FormatOTel})
	if diff := cmp.Diff([]scenarios.Event{user(1, "a"), user(2, "b")}, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}

	// Two traces of one conversation (a trace a turn) are one session,
	// in the order their spans started; a third trace is another.
	conv := func(trace, span, start, c, msgs string) string {
		return `{"traceId":"` + trace + `","spanId":"` + span + `","name":"chat","startTimeUnixNano":"` + start + `","attributes":[` + msgs + `,{"key":"gen_ai.conversation.id","value":{"stringValue":"` + c + `"}}]}`
	}
	turn2 := conv("t2", "s2", "20", "c1", msgs(`"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"a\"}]},{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"b\"}]}]"`))
	turn1 := conv("t1", "s1", "10", "c1", msgs(`"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"a\"}]}]"`))
	other := conv("t3", "s3", "30", "c2", msgs(`"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"z\"}]}]"`))
	in = `{"resourceSpans":[{"scopeSpans":[{"spans":[` + turn2 + `,` + other + `,` + turn1 + `]}]}]}`
	got, rep := importString(t, in, importer.Options{})
	if diff := cmp.Diff([]scenarios.Event{user(1, "a"), user(2, "b")}, got); diff != "" || rep.Records != 2 {
		t.Errorf("conversation: %d sessions, events (-want +got):\n%s", rep.Records, diff)
	}
	// A tool_call part under its older name, function_call.
	fc := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"t9","spanId":"s9","name":"chat","startTimeUnixNano":"1","attributes":[` + msgs(`"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"go\"}]}]"`) +
		`,{"key":"gen_ai.output.messages","value":{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"function_call\",\"id\":\"c1\",\"name\":\"run\",\"arguments\":{\"x\":1}}]}]"}}]}]}]}]}`
	got, _ = importString(t, fc, importer.Options{})
	if diff := cmp.Diff([]scenarios.Event{user(1, "go"), call(2, "", "c1", "run", map[string]any{"x": 1})}, got); diff != "" {
		t.Errorf("function_call part (-want +got):\n%s", diff)
	}
	for _, bad := range []string{`{"resourceSpans":[]}`, `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"x","spanId":"y","name":"http"}]}]}]}`, `{"resourceSpans": 3}`} {
		var out bytes.Buffer
		if _, err := importer.Import(strings.NewReader(bad), &out, importer.Options{Format: importer.FormatOTel}); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
