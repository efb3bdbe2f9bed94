package importer_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// loadImported imports data with opts and loads the scenario written.
func loadImported(t *testing.T, data []byte, opts importer.Options) (*scenarios.Scenario, *importer.Report) {
	t.Helper()
	var out bytes.Buffer
	rep, err := importer.Import(bytes.NewReader(data), &out, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.LoadBytes("imported.yaml", out.Bytes())
	if err != nil {
		t.Fatalf("load: %v\n%s", err, out.String())
	}
	for i := range s.Events {
		s.Events[i].Pos = result.Pos{}
	}
	return s, rep
}

// A LangSmith export of a LangChain agent's thread (written from the run
// data format): two traces of one thread_id, exported newest first, their
// llm runs' messages in LangChain's serialized form. Each context repeats
// the last one's, so only what follows is an event; the tool runs give
// the results (one an error) that the next context shows again; the
// system message is the rules; the SummarizationMiddleware's call is a
// recorded compaction sized by the agent's last call, and the context
// after it opens with its summary and the kept messages, which are not
// added again; chain runs are counted.
func TestLangSmithThread(t *testing.T) {
	data, err := os.ReadFile("../testdata/import/langsmith_runs.json")
	if err != nil {
		t.Fatal(err)
	}
	s, rep := loadImported(t, data, importer.Options{})
	if rep.Format != importer.FormatLangSmith || !rep.Detected || rep.Records != 1 {
		t.Errorf("report = %+v, want langsmith detected, 1 session", rep)
	}
	sql := func(q string) map[string]any { return map[string]any{"query": q} }
	want := []scenarios.Event{
		user(1, "Migrate the invoices table to the new schema. Never drop the legacy_invoices table."),
		call(2, "I'll inspect the schema first.", "toolu_01", "run_sql", sql(`\d invoices`)),
		toolResult(3, "toolu_01", "ok", "Table invoices: id, customer_id, amount_cents, issued_at"),
		call(4, "", "toolu_02", "run_sql", sql("ALTER TABLE invoices ADD COLUMN currency text")),
		toolResult(5, "toolu_02", "error", "Error: permission denied for table invoices"),
		assistant(6, "The migration role lacks ALTER on invoices. Should I use another role?"),
		user(7, "Use the migrator role. Keep amounts in cents."),
		call(8, "", "toolu_03", "run_sql", sql("SET ROLE migrator; ALTER TABLE invoices ADD COLUMN currency text")),
		toolResult(9, "toolu_03", "ok", "ALTER TABLE"),
		call(10, "Added the currency column as migrator. Next I'll backfill the currency.", "toolu_04", "run_sql", sql("UPDATE invoices SET currency = 'USD'")),
		toolResult(11, "toolu_04", "ok", "UPDATE 1204"),
		assistant(12, "Backfilled 1204 rows; legacy_invoices is untouched."),
	}
	if diff := cmp.Diff(want, s.Events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if s.Rules != "You are the billing migration agent. Ask before running any destructive SQL." {
		t.Errorf("rules = %q", s.Rules)
	}
	if len(s.Recorded) != 1 || s.Recorded[0].Boundary != 9 || s.Recorded[0].PreTokens != 96050 || s.Recorded[0].Tool != "langsmith" ||
		!strings.HasPrefix(s.Recorded[0].Summary, "The user asked to migrate the invoices table") {
		t.Errorf("recorded = %+v, want the compaction after seq 9 with 96050 tokens before", s.Recorded)
	}
	if w := strings.Join(rep.Warnings, "\n"); !strings.Contains(w, "runs of type chain (only llm and tool runs are read): 13") {
		t.Errorf("warnings:\n%s", w)
	}
}

// JSONL of runs from LangSmith's OpenAI and Anthropic wrappers: two
// sessions (a thread, and a trace with no thread); OpenAI's choices and
// Anthropic's Message as replies, Anthropic's system prompt as the rules;
// a tool run naming no call is counted (the next context holds its
// result), a failed one whose metadata names its call is its result, an
// error; thinking is dropped. --all writes a scenario a session.
func TestLangSmithWrappers(t *testing.T) {
	data, err := os.ReadFile("../testdata/import/langsmith_wrappers.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s, rep := loadImported(t, data, importer.Options{})
	want := []scenarios.Event{
		user(1, "Order ORD-55121 arrived broken. I want a refund, not a replacement."),
		call(2, "", "call_a1", "lookup_order", map[string]any{"order_id": "ORD-55121"}),
		toolResult(3, "call_a1", "ok", `{"order_id": "ORD-55121", "total": 129.0, "status": "delivered"}`),
		call(4, "", "call_a2", "refund", map[string]any{"order_id": "ORD-55121", "amount": 129}),
		toolResult(5, "call_a2", "ok", "refund R-9001 issued"),
		assistant(6, "Refund R-9001 of $129.00 is issued for ORD-55121."),
	}
	if diff := cmp.Diff(want, s.Events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	w := strings.Join(rep.Warnings, "\n")
	for _, frag := range []string{"holds 2 sessions", "imported session 0 (support-4411)", "tool runs naming no tool call (the next model call's context holds their results): 2"} {
		if !strings.Contains(w, frag) {
			t.Errorf("warnings lack %q:\n%s", frag, w)
		}
	}
	if s.Rules != "You are the support agent of Acme. Refunds over $500 need a manager." {
		t.Errorf("rules = %q", s.Rules)
	}

	s, rep = loadImported(t, data, importer.Options{Index: 1})
	want = []scenarios.Event{
		user(1, "Tag v2.3.0 on main, but only after CI is green."),
		call(2, "Checking CI first.", "toolu_c1", "ci_status", map[string]any{"branch": "main"}),
		toolResult(3, "toolu_c1", "error", "TimeoutError: CI API did not answer in 30s"),
	}
	if diff := cmp.Diff(want, s.Events); diff != "" {
		t.Errorf("second session (-want +got):\n%s", diff)
	}
	if s.Rules != "You are a release bot." || !strings.Contains(strings.Join(rep.Warnings, "\n"), "reasoning parts: 1") {
		t.Errorf("rules %q, warnings %v", s.Rules, rep.Warnings)
	}

	var ids []string
	n, err := importer.ImportEach(bytes.NewReader(data), importer.Options{Name: "langsmith_wrappers.jsonl"}, func(rep *importer.Report, write func(io.Writer) error, err error) error {
		if err != nil {
			return err
		}
		ids = append(ids, rep.ID)
		return write(io.Discard)
	})
	if err != nil || n != 2 || len(ids) != 2 || ids[0] != "langsmith-wrappers-support-4411" {
		t.Errorf("ImportEach: %d, %v, ids %v", n, err, ids)
	}
}

// The other containers and forms the run data format allows: the runs
// query's {"runs": [...]}, one run with its child_runs nested, start
// times in milliseconds with no dotted order, message_to_dict's
// {type, data}, a batch of message lists, a completion model's prompts
// and text; an export of root runs only, whose agent state holds the
// messages; a summary message that opens a context after a compaction
// whose call the export lacks; runs that cannot be read.
func TestLangSmithShapes(t *testing.T) {
	hum := func(s string) string { return `{"type":"human","data":{"content":` + quote(s) + `}}` }
	llm := func(id, start, in, out string) string {
		return `{"id":"` + id + `","trace_id":"t","name":"m","run_type":"llm","start_time":` + start + `,"inputs":{"messages":[[` + in + `]]},"outputs":{"generations":[[{"text":` + quote(out) + `}]]}}`
	}
	cases := []struct {
		name  string
		input string
		want  []scenarios.Event
		rec   []int
		warn  string
	}{
		{
			name:  "runs query answer, unsorted, epoch milliseconds",
			input: `{"runs":[` + llm("b", "1740819602000", hum("a")+`,{"type":"ai","data":{"content":"x"}},`+hum("b"), "y") + `,` + llm("a", "1740819601000", hum("a"), "x") + `],"cursors":{"next":null}}`,
			want:  []scenarios.Event{user(1, "a"), assistant(2, "x"), user(3, "b"), assistant(4, "y")},
		},
		{
			name: "child runs nested, a completion model",
			input: `{"id":"r","name":"agent","run_type":"chain","inputs":{},"outputs":{},"child_runs":[` +
				`{"id":"c","name":"llm","run_type":"llm","start_time":"2025-03-01T09:00:00Z","inputs":{"prompts":["Say hi."]},"outputs":{"generations":[[{"text":"hi"}]]}}]}`,
			want: []scenarios.Event{user(1, "Say hi."), assistant(2, "hi")},
			warn: "runs of type chain",
		},
		{
			name: "root runs only: the agent's state",
			input: `{"id":"t1","name":"LangGraph","run_type":"chain","start_time":"2025-03-01T09:00:00","inputs":{"messages":[{"role":"user","content":"q1"}]},"outputs":{"messages":[{"role":"user","content":"q1"},{"role":"assistant","content":"a1"}]},"extra":{"metadata":{"thread_id":"th"}}}` + "\n" +
				`{"id":"t2","name":"LangGraph","run_type":"chain","start_time":"2025-03-01T09:05:00","inputs":{"messages":[{"role":"user","content":"q1"},{"role":"assistant","content":"a1"},{"role":"user","content":"q2"}]},"outputs":{"messages":[{"role":"user","content":"q1"},{"role":"assistant","content":"a1"},{"role":"user","content":"q2"},{"role":"assistant","content":"a2"}]},"extra":{"metadata":{"thread_id":"th"}}}` + "\n",
			want: []scenarios.Event{user(1, "q1"), assistant(2, "a1"), user(3, "q2"), assistant(4, "a2")},
		},
		{
			name: "a summary message after a compaction the export does not hold",
			input: `[` + llm("a", `"2025-03-01T09:00:00"`, hum("keep the port at 8080")+`,{"type":"ai","data":{"content":"ok"}},`+hum("now deploy"), "deployed") + `,` +
				llm("b", `"2025-03-01T09:01:00"`, hum("Here is a summary of the conversation to date:\n\nThe port stays 8080; deployed.")+`,`+hum("check it"), "fine") + `]`,
			want: []scenarios.Event{user(1, "keep the port at 8080"), assistant(2, "ok"), user(3, "now deploy"), assistant(4, "deployed"), user(5, "check it"), assistant(6, "fine")},
			rec:  []int{4},
		},
		{
			name:  "a run that cannot be read",
			input: `[` + llm("a", `"2025-03-01T09:00:00"`, hum("hello"), "hi") + `,{"id":3,"run_type":"llm","inputs":{}}]`,
			want:  []scenarios.Event{user(1, "hello"), assistant(2, "hi")},
			warn:  "run 1: malformed, skipped",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, rep := loadImported(t, []byte(tc.input), importer.Options{})
			if rep.Format != importer.FormatLangSmith {
				t.Fatalf("detected %s", rep.Format)
			}
			if diff := cmp.Diff(tc.want, s.Events); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			var rec []int
			for _, c := range s.Recorded {
				rec = append(rec, c.Boundary)
			}
			if diff := cmp.Diff(tc.rec, rec); diff != "" {
				t.Errorf("recorded boundaries (-want +got):\n%s", diff)
			}
			if w := strings.Join(rep.Warnings, "\n"); !strings.Contains(w, tc.warn) {
				t.Errorf("warnings lack %q:\n%s", tc.warn, w)
			}
		})
	}

	// Under --strict a run that cannot be read is an error; an input
	// with no run is one always.
	for _, tc := range []struct {
		input string
		opts  importer.Options
	}{
		{`[{"id":"a","run_type":"llm","inputs":{}},{"id":3,"run_type":"llm","inputs":{}}]`, importer.Options{Strict: true}},
		{`{"runs":[]}`, importer.Options{Format: importer.FormatLangSmith}},
		{`[{"id":"a","name":"x","run_type":"chain","inputs":{"q":1}}]`, importer.Options{}},
	} {
		var out bytes.Buffer
		_, err := importer.Import(strings.NewReader(tc.input), &out, tc.opts)
		var ie *importer.InputError
		if !errors.As(err, &ie) || out.Len() > 0 {
			t.Errorf("%s: err %v, wrote %d bytes; want an input error and nothing written", tc.input, err, out.Len())
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// lsRunSchema is LangSmith's run data format, the fields of the JS
// client's Run interface (schemas.ts) and the docs' table: the fixtures
// hold nothing else, so they are exports LangSmith could have written.
type lsRunSchema struct {
	ID                 string            `json:"id"`
	Name               string            `json:"name"`
	RunType            string            `json:"run_type"`
	Inputs             map[string]any    `json:"inputs"`
	Outputs            map[string]any    `json:"outputs"`
	StartTime          any               `json:"start_time"`
	EndTime            any               `json:"end_time"`
	Extra              map[string]any    `json:"extra"`
	Error              *string           `json:"error"`
	Serialized         map[string]any    `json:"serialized"`
	Events             []map[string]any  `json:"events"`
	Tags               []string          `json:"tags"`
	TraceID            string            `json:"trace_id"`
	DottedOrder        string            `json:"dotted_order"`
	Status             string            `json:"status"`
	ParentRunID        *string           `json:"parent_run_id"`
	ParentRunIDs       []string          `json:"parent_run_ids"`
	ChildRunIDs        []string          `json:"child_run_ids"`
	ChildRuns          []lsRunSchema     `json:"child_runs"`
	ReferenceExampleID *string           `json:"reference_example_id"`
	SessionID          string            `json:"session_id"`
	PromptTokens       int               `json:"prompt_tokens"`
	CompletionTokens   int               `json:"completion_tokens"`
	TotalTokens        int               `json:"total_tokens"`
	FirstTokenTime     any               `json:"first_token_time"`
	FeedbackStats      map[string]any    `json:"feedback_stats"`
	AppPath            string            `json:"app_path"`
	InDataset          bool              `json:"in_dataset"`
	ManifestID         string            `json:"manifest_id"`
	Attachments        map[string]string `json:"attachments"`
}

func TestLangSmithFixturesShape(t *testing.T) {
	for _, name := range []string{"langsmith_runs.json", "langsmith_wrappers.jsonl"} {
		data, err := os.ReadFile("../testdata/import/" + name)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if strings.HasSuffix(name, ".json") {
			var runs []lsRunSchema
			if err := dec.Decode(&runs); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			n = len(runs)
		} else {
			for dec.More() {
				var r lsRunSchema
				if err := dec.Decode(&r); err != nil {
					t.Fatalf("%s run %d: %v", name, n, err)
				}
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no runs", name)
		}
	}
}
