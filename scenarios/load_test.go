package scenarios

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// errorLines loads src and returns its problems, one string each.
func errorLines(t *testing.T, src string) []string {
	t.Helper()
	_, err := LoadBytes("t.yaml", []byte(src))
	return errStrings(t, err)
}

func errStrings(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var el ErrorList
	if !errors.As(err, &el) {
		t.Fatalf("error %v is a %T, want an ErrorList", err, err)
	}
	var out []string
	for _, e := range el {
		out = append(out, e.Error())
	}
	return out
}

const head = "version: 1\nid: t\n"

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "unknown fields everywhere, all reported in order",
			src: head + `colour: blue
events:
  - {role: user, text: hi, mood: happy}
compaction: {at: [1], every: 3}
`,
			want: []string{
				`t.yaml:3:1: scenario: unknown field "colour" (valid: version, id, title, tags, goal, rules, context_window, compaction, events, arrivals, invariants, probes, recorded_compactions)`,
				`t.yaml:5:28: events[0]: unknown field "mood" (valid: seq, role, text, tool_call, tool_result)`,
				`t.yaml:6:23: compaction: unknown field "every" (valid: at, threshold_tokens, threshold_fraction, reserve_tokens, keep_recent, rebuild, max_ratio)`,
			},
		},
		{
			name: "missing required fields",
			src:  "title: nothing else\n",
			want: []string{
				`t.yaml:1:1: scenario: missing required field "events"`,
				`t.yaml:1:1: scenario: missing required field "id"`,
				`t.yaml:1:1: scenario: missing required field "version"`,
			},
		},
		{
			name: "wrong types",
			src: `version: "1"
id: [a]
context_window: lots
events: {role: user}
`,
			want: []string{
				`t.yaml:1:10: version: want an integer, got str "1"`,
				`t.yaml:2:5: id: want text, got a list`,
				`t.yaml:3:17: context_window: want an integer, got str "lots"`,
				`t.yaml:4:9: events: want a list, got a mapping`,
			},
		},
		{
			name: "unsupported version and bad id",
			src:  "version: 2\nid: Bad_ID\nevents: [{role: user, text: hi}]\n",
			want: []string{
				`t.yaml:1:10: version: 2 is not supported (this compact-eval reads version 1)`,
				`t.yaml:2:5: id "Bad_ID": want lowercase letters, digits and '-', starting with a letter or digit`,
			},
		},
		{
			name: "event payload rules",
			src: head + `events:
  - {role: robot, text: beep}
  - {role: user}
  - {role: assistant}
  - {role: tool, text: "output"}
  - {role: user, text: hi, tool_call: {id: c1, name: ls}}
  - {role: assistant, text: hi, tool_result: {call_id: c1}}
  - {role: tool, tool_result: {call_id: c1, status: done}}
  - {role: assistant, tool_call: {id: "", name: ls, args: [1]}}
`,
			want: []string{
				`t.yaml:4:12: events[0].role: "robot" is not a role (valid: system, user, assistant, tool)`,
				`t.yaml:5:5: events[1]: a user event needs text`,
				`t.yaml:6:5: events[2]: an assistant event needs text or a tool_call`,
				`t.yaml:7:5: events[3]: a tool event needs a tool_result`,
				`t.yaml:7:24: events[3]: a tool event carries its text in tool_result.text`,
				`t.yaml:8:39: events[4]: tool_call is only allowed on assistant events, not user`,
				`t.yaml:9:46: events[5]: tool_result is only allowed on tool events, not assistant`,
				`t.yaml:10:53: events[6].tool_result.status: "done" is not a status (valid: ok, error, timeout)`,
				`t.yaml:11:39: events[7].tool_call.id: empty`,
				`t.yaml:11:59: events[7].tool_call.args: want a mapping, got a list`,
			},
		},
		{
			name: "seq on some events only",
			src: head + `events:
  - {seq: 1, role: user, text: a}
  - {role: user, text: b}
`,
			want: []string{`t.yaml:5:5: events: seq is given on some events (first at line 4) but not on this one; give it on every event or on none`},
		},
		{
			name: "seq must rise strictly",
			src: head + `events:
  - {seq: 1, role: user, text: a}
  - {seq: 3, role: user, text: b}
  - {seq: 3, role: user, text: c}
  - {seq: 0, role: user, text: d}
`,
			want: []string{
				`t.yaml:6:11: seq 3 must be greater than 3, the seq before it (seqs rise strictly)`,
				`t.yaml:7:11: events[3].seq: must be 1 or more, got 0`,
			},
		},
		{
			name: "filler needs room before the next explicit seq",
			src: head + `events:
  - {seq: 1, role: user, text: a}
  - filler: {count: 5, seed: 1, topic: data}
  - {seq: 4, role: user, text: b}
`,
			want: []string{`t.yaml:6:11: seq 4 must be greater than 6, the last seq of the filler at line 5 (filler events take the seqs right after the event before them)`},
		},
		{
			name: "bad filler entries",
			src: head + `events:
  - filler: {count: 0, seed: 1, topic: data}
  - filler: {count: 3, seed: 2, topic: poetry}
  - filler: {count: 3, seed: 4, topic: web, colour: red}
  - filler: {count: 3, seed: 5, topic: web}
    extra: 1
  - filler: {count: 2, seed: 5, topic: code}
`,
			want: []string{
				`t.yaml:4:21: events[0].filler.count: 0 is not in 1..5000`,
				`t.yaml:5:40: events[1].filler.topic: "poetry" is not a topic (valid: network, code, web, data)`,
				`t.yaml:6:45: events[2].filler: unknown field "colour" (valid: count, seed, topic)`,
				`t.yaml:8:5: events[3]: a filler entry has only the key "filler", not "extra"`,
				`t.yaml:9:13: events[4].filler.seed: seed 5 already used at line 7; each filler needs its own seed`,
			},
		},
		{
			name: "too many filler events",
			src: head + `events:
  - filler: {count: 5000, seed: 1, topic: data}
  - filler: {count: 5000, seed: 2, topic: data}
  - filler: {count: 5000, seed: 3, topic: data}
  - filler: {count: 5000, seed: 4, topic: data}
  - filler: {count: 5000, seed: 5, topic: data}
`,
			want: []string{`t.yaml:8:5: events[4]: this entry takes the scenario past 20000 events (0 explicit and 25000 of filler by here, of 5 entries in the list): a scenario holds at most 20000 events, filler and arrivals included`},
		},
		{
			name: "invariants: unknown type, missing fields, wrong field for type",
			src: head + `events: [{role: user, text: hi}]
invariants:
  - {id: a, type: vibe}
  - {id: b}
  - {id: c, type: constraint}
  - {id: d, type: secret, value: x, op_id: c1}
  - {id: d, type: quantity, value: ten, unit: "%"}
`,
			want: []string{
				`t.yaml:5:19: invariants[0].type: "vibe" is not an invariant type (valid: constraint, refuted_hypothesis, artifact, pending_operation, correction, quantity, secret, approval, goal, next_step, handoff)`,
				`t.yaml:6:5: invariants[1]: missing required field "type" (valid: constraint, refuted_hypothesis, artifact, pending_operation, correction, quantity, secret, approval, goal, next_step, handoff)`,
				`t.yaml:7:5: invariants[2] (constraint): missing required field "match"`,
				`t.yaml:7:5: invariants[2] (constraint): missing required field "source_seq"`,
				`t.yaml:8:37: invariants[3] (secret): unknown field "op_id" (valid: id, type, value)`,
				`t.yaml:9:5: invariants[4]: duplicate invariant id "d" (first at line 8)`,
				`t.yaml:9:36: invariants[4].value: want a number, got str "ten"`,
			},
		},
		{
			name: "probes: options must be a mapping, duplicates refused",
			src: head + `events: [{role: user, text: hi}]
probes:
  - {id: p, question: q, options: [a, b], expect: a}
  - id: p
    question: q
    options: {a: x, a: y}
    expect: a
    requires: {a: []}
`,
			want: []string{
				`t.yaml:5:35: probes[0].options: want a mapping of key to description, got a list`,
				`t.yaml:6:5: probes[1]: duplicate probe id "p" (first at line 5)`,
				`t.yaml:8:21: probes[1].options: duplicate option "a" (first at line 8)`,
				`t.yaml:10:19: probes[1].requires.a: empty list of patterns`,
			},
		},
		{
			name: "duplicate keys",
			src:  head + "id: u\nevents: [{role: user, text: hi}]\n",
			want: []string{`t.yaml:3:1: scenario: duplicate field "id" (first at line 2)`},
		},
		{
			name: "compaction values",
			src: head + `events: [{role: user, text: hi}]
compaction: {at: 3, rebuild: sometimes, max_ratio: 1.5, threshold_fraction: 0, keep_recent: -1}
`,
			want: []string{
				`t.yaml:4:18: compaction.at: want a list of seqs, got int "3"`,
				`t.yaml:4:30: compaction.rebuild: "sometimes" is not a rebuild mode (valid: iterative, from_source)`,
				`t.yaml:4:52: compaction.max_ratio: 1.5 is not in (0, 1]`,
				`t.yaml:4:77: compaction.threshold_fraction: 0 is not in (0, 1]`,
				`t.yaml:4:93: compaction.keep_recent: must not be negative, got -1`,
			},
		},
		{
			name: "arrivals: no filler, seqs after the events",
			src: head + `events: [{seq: 5, role: user, text: hi}]
arrivals:
  - {seq: 5, role: user, text: again}
  - filler: {count: 2, seed: 1, topic: web}
`,
			want: []string{
				`t.yaml:5:11: arrivals[0].seq: 5 must be greater than 5 (arrivals come after the last event and rise strictly)`,
				`t.yaml:6:5: arrivals[1]: filler is not allowed in arrivals`,
			},
		},
		{
			name: "arrivals: seq on some but not all",
			src: head + `events: [{role: user, text: hi}]
arrivals:
  - {seq: 2, role: user, text: again}
  - {role: user, text: and again}
`,
			want: []string{
				`t.yaml:6:5: arrivals[1]: seq is given on some arrivals but not on this one; give it on every arrival or on none`,
			},
		},
		{
			name: "aliases are refused",
			src: head + `events:
  - &e {role: user, text: hi}
  - *e
`,
			want: []string{`t.yaml:5:5: YAML alias *e: aliases are not allowed in scenario files, write the value out`},
		},
		{
			// Integers as written (issue 35): YAML reads 0e-0, 1.0 and 1e2
			// as floats, and a seq is refused at the number.
			name: "seqs that are not integers as written",
			src: head + `compaction: {at: [1e2]}
events:
  - {seq: 1, role: user, text: "Read-only."}
  - {seq: 2.0, role: user, text: "Go on."}
invariants:
  - {id: ro, type: constraint, source_seq: 0e-0, match: ['read-only']}
`,
			want: []string{
				`t.yaml:3:19: compaction.at[0]: want an integer, got float "1e2"`,
				`t.yaml:6:11: events[1].seq: want an integer, got float "2.0"`,
				`t.yaml:8:44: invariants[0].source_seq: want an integer, got float "0e-0"`,
			},
		},
		{
			name: "syntax error",
			src:  head + "events: [\n  {role: user\n",
			want: []string{`t.yaml:4:3: YAML syntax: did not find expected ',' or '}' (this '{' is never closed by a '}')`},
		},
		{
			// yaml.v3 says line 4: the line before the event.
			name: "syntax error: an unquoted ': ' in an event",
			src:  head + "events:\n  - {role: user, text: \"hi\"}\n  - {role: user, text: Note: the db is read-only}\n",
			want: []string{`t.yaml:5:28: YAML syntax: did not find expected ',' or '}' (a ': ' in a plain value starts a key: put the value in quotes)`},
		},
		{
			// yaml.v3 says line 4: the line of the value before the tab.
			name: "syntax error: a tab",
			src:  head + "events:\n  - role: user\n\ttext: hi\n",
			want: []string{`t.yaml:5:1: YAML syntax: found a tab character that violates indentation (a tab cannot indent YAML: indent with spaces)`},
		},
		{
			name: "empty file",
			src:  "",
			want: []string{`t.yaml:1:1: empty file: want a scenario mapping`},
		},
		{
			name: "two documents",
			src:  head + "events: [{role: user, text: hi}]\n---\nid: x\n",
			want: []string{`t.yaml:4:1: a second YAML document: a file holds one scenario`},
		},
		{
			name: "not a mapping",
			src:  "- just\n- a list\n",
			want: []string{`t.yaml:1:1: scenario: want a mapping, got a list`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := errorLines(t, tc.src)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadBytes(t *testing.T) {
	src := head + `title: T
tags: [a, b]
goal: G
rules: R
context_window: 16000
compaction: {at: [3], keep_recent: 2, rebuild: from_source, max_ratio: 0.4, reserve_tokens: 100}
events:
  - {role: user, text: "READ-ONLY please"}
  - {role: assistant, tool_call: {id: c1, name: dns_lookup, args: {host: db, n: 2}}}
  - {role: tool, tool_result: {call_id: c1, text: "db -> 10.0.3.7"}}
  - {role: assistant, text: "Done.", tool_call: {id: c2, name: migrate}}
arrivals:
  - {role: user, text: "also TLS"}
invariants:
  - {id: ro, type: constraint, source_seq: 1, match: 'read[- ]?only'}
  - {id: op, type: pending_operation, op_id: c2, call_seq: 4}
  - {id: q, type: quantity, value: 0.5, unit: s, match: [timeout]}
  - {id: a, type: artifact, paths: [x.yaml, x.yml], required: [x.yml], digests: {x.yml: "sha256:00"}}
  - {id: c, type: correction, old: 5432, new: 6432, subject: port, source_seq: 1}
  - {id: h, type: refuted_hypothesis, hypothesis_seq: 2, refuted_by_seq: 3, match: dns, conclusion: [port, firewall]}
  - {id: s, type: secret, value: sk-123}
probes:
  - id: p
    question: Restart?
    options: {proceed: Run it, refuse: Decline, ask: Ask}
    expect: refuse
    requires: {refuse: read-only}
`
	got, err := LoadBytes("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := &Scenario{
		Version: 1, ID: "t", Title: "T", Tags: []string{"a", "b"}, Goal: "G", Rules: "R", ContextWindow: 16000,
		Compaction: Compaction{At: []int{3}, KeepRecent: 2, Rebuild: RebuildFromSource, MaxRatio: 0.4, ReserveTokens: 100},
		Events: []Event{
			{Seq: 1, Role: RoleUser, Text: "READ-ONLY please"},
			{Seq: 2, Role: RoleAssistant, ToolCall: &ToolCall{ID: "c1", Name: "dns_lookup", Args: map[string]any{"host": "db", "n": 2}}},
			{Seq: 3, Role: RoleTool, ToolResult: &ToolResult{CallID: "c1", Status: StatusOK, Text: "db -> 10.0.3.7"}},
			{Seq: 4, Role: RoleAssistant, Text: "Done.", ToolCall: &ToolCall{ID: "c2", Name: "migrate"}},
		},
		Arrivals: []Event{{Seq: 5, Role: RoleUser, Text: "also TLS"}},
		Invariants: []Invariant{
			&Constraint{InvariantBase: InvariantBase{ID: "ro"}, SourceSeq: 1, Match: []string{"read[- ]?only"}},
			&PendingOperation{InvariantBase: InvariantBase{ID: "op"}, OpID: "c2", CallSeq: 4},
			&Quantity{InvariantBase: InvariantBase{ID: "q"}, Value: 0.5, Unit: "s", Match: []string{"timeout"}},
			&Artifact{InvariantBase: InvariantBase{ID: "a"}, Paths: []string{"x.yaml", "x.yml"}, Required: []string{"x.yml"}, Digests: map[string]string{"x.yml": "sha256:00"}},
			&Correction{InvariantBase: InvariantBase{ID: "c"}, Old: "5432", New: "6432", Subject: "port", SourceSeq: 1},
			&RefutedHypothesis{InvariantBase: InvariantBase{ID: "h"}, HypothesisSeq: 2, RefutedBySeq: 3, Match: []string{"dns"}, Conclusion: []string{"port", "firewall"}},
			&Secret{InvariantBase: InvariantBase{ID: "s"}, Value: "sk-123"},
		},
		Probes: []Probe{{
			ID: "p", Question: "Restart?",
			Options:  Options{{"proceed", "Run it"}, {"refuse", "Decline"}, {"ask", "Ask"}},
			Expect:   "refuse",
			Requires: []Requirement{{Option: "refuse", Patterns: []string{"read-only"}}},
		}},
		File: "t.yaml",
	}
	opts := cmp.Options{
		cmpopts.IgnoreTypes(result.Pos{}, []result.Pos(nil)),
		cmpopts.IgnoreFields(Scenario{}, "Digest", "FileDigest"),
	}
	if diff := cmp.Diff(want, got, opts); diff != "" {
		t.Errorf("scenario (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(got.Digest, "sha256:") || len(got.Digest) != len("sha256:")+64 {
		t.Errorf("digest %q, want sha256:<64 hex>", got.Digest)
	}
	if diff := cmp.Diff(result.Pos{Line: 2, Col: 5}, got.IDPos); diff != "" {
		t.Errorf("IDPos (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(result.Pos{Line: 13, Col: 5}, got.Events[3].Pos); diff != "" {
		t.Errorf("event pos (-want +got):\n%s", diff)
	}
}

func TestExplicitSeqWithFiller(t *testing.T) {
	src := head + `events:
  - {seq: 10, role: user, text: start}
  - filler: {count: 4, seed: 3, topic: network}
  - {seq: 20, role: user, text: end}
`
	s, err := LoadBytes("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int
	for _, e := range s.Events {
		seqs = append(seqs, e.Seq)
	}
	if diff := cmp.Diff([]int{10, 11, 12, 13, 14, 20}, seqs); diff != "" {
		t.Errorf("seqs (-want +got):\n%s", diff)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse 50 MB file: the loader must refuse it from its size alone.
	if err := f.Truncate(50_000_000); err != nil {
		t.Fatal(err)
	}
	f.Close()
	write := func(name string, data []byte) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bomb := `version: 1
id: bomb
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
events: *g
`
	tests := []struct {
		name string
		path string
		want string
	}{
		{"50 MB file", big, big + ":1:1: file is 50.0 MB, limit is 8 MiB"},
		{"binary", write("bin.yaml", []byte("version: 1\nid: x\x00\x01\x02")), filepath.Join(dir, "bin.yaml") + ":2:6: binary file: NUL byte at offset 16; a scenario is UTF-8 YAML text"},
		{"latin-1", write("latin1.yaml", []byte("version: 1\nid: x\ngoal: sesi\xf3n\n")), filepath.Join(dir, "latin1.yaml") + ":3:11: not UTF-8: invalid byte 0xf3 at offset 27; save the file as UTF-8"},
		{"yaml bomb", write("bomb.yaml", []byte(bomb)), filepath.Join(dir, "bomb.yaml") + ":4:8: YAML alias *a: aliases are not allowed in scenario files, write the value out (55 aliases in this file)"},
		{"deep nesting", write("deep.yaml", []byte("version: 1\nid: x\nevents: "+strings.Repeat("[", 5000)+strings.Repeat("]", 5000)+"\n")), filepath.Join(dir, "deep.yaml") + ":3:72: YAML nested deeper than 64 levels"},
		{"missing", filepath.Join(dir, "nope.yaml"), filepath.Join(dir, "nope.yaml") + ": no such file or directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadFile(tc.path)
			got := errStrings(t, err)
			if len(got) == 0 {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tc.want, got[0]); diff != "" {
				t.Errorf("first error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadPaths(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"b.yaml":         "version: 1\nid: b\nevents: [{role: user, text: b}]\n",
		"sub/a.yml":      "version: 1\nid: a\nevents: [{role: user, text: a}]\n",
		"sub/notes.txt":  "not a scenario",
		"c/broken.yaml":  "version: 1\nid: c\nevents: [{role: nobody, text: c}]\n",
		"c/broken2.yaml": "version: 1\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	list, err := LoadPaths([]string{dir, filepath.Join(dir, "b.yaml")})
	var ids []string
	for _, s := range list {
		ids = append(ids, s.ID)
	}
	if diff := cmp.Diff([]string{"b", "a"}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	want := []string{
		filepath.Join(dir, "c/broken.yaml") + `:3:17: events[0].role: "nobody" is not a role (valid: system, user, assistant, tool)`,
		filepath.Join(dir, "c/broken2.yaml") + `:1:1: scenario: missing required field "events"`,
		filepath.Join(dir, "c/broken2.yaml") + `:1:1: scenario: missing required field "id"`,
	}
	if diff := cmp.Diff(want, errStrings(t, err)); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

func TestBuiltin(t *testing.T) {
	list, err := Builtin()
	if err != nil {
		t.Fatalf("the built-in suite does not load:\n%v", err)
	}
	if len(list) == 0 {
		t.Fatal("no built-in scenarios")
	}
	for _, s := range list {
		if !strings.HasPrefix(s.File, BuiltinPrefix) {
			t.Errorf("%s: File %q, want the %q prefix", s.ID, s.File, BuiltinPrefix)
		}
	}
	if errs := Lint(list); len(errs) > 0 {
		t.Errorf("the built-in suite has lint errors:\n%v", errs)
	}
}

func TestSecretsTakesBothForms(t *testing.T) {
	s := &Scenario{Invariants: []Invariant{
		&Secret{InvariantBase: InvariantBase{ID: "loaded"}, Value: "sk-live-aaaaaaaaaaaa"},
		Secret{InvariantBase: InvariantBase{ID: "built"}, Value: "ghp_bbbbbbbbbbbbbbbb"},
		&Secret{InvariantBase: InvariantBase{ID: "empty"}},
		&Constraint{InvariantBase: InvariantBase{ID: "ro"}, Match: []string{"read-only"}},
	}}
	want := map[string]string{"loaded": "sk-live-aaaaaaaaaaaa", "built": "ghp_bbbbbbbbbbbbbbbb"}
	if diff := cmp.Diff(want, s.Secrets()); diff != "" {
		t.Errorf("Secrets() (-want +got):\n%s", diff)
	}
	if got := (&Scenario{}).Secrets(); got != nil {
		t.Errorf("Secrets() of a scenario with no secret = %v, want nil", got)
	}
}

// A scenario built in Go with value invariants is linted like a loaded one.
func TestLintValueInvariants(t *testing.T) {
	s := &Scenario{Version: 1, ID: "values", Events: []Event{
		{Seq: 1, Role: RoleAssistant, Text: "I think it is read-only."},
		{Seq: 2, Role: RoleUser, Text: "Go on."},
	}, Invariants: []Invariant{
		Constraint{InvariantBase: InvariantBase{ID: "ro"}, SourceSeq: 1, Match: []string{"read-only"}},
	}}
	errs := LintScenario(s)
	if len(errs) == 0 || !strings.Contains(errs.Error(), "source_seq") {
		t.Fatalf("LintScenario did not refuse a constraint citing an assistant event; got %v", errs)
	}
}

// A folder is searched for scenarios, not for every YAML file: the config
// file beside them, hidden files and hidden folders (.github/ with its
// workflows, .git/) are left out without a word; a path named explicitly
// is read whatever its name, and a folder whose only YAML files are
// skipped ones says so.
func TestFilesSkipsConfigAndHidden(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{
		"compact-eval.yaml", "compact-eval.yml", ".github/workflows/ci.yml", ".git/x.yaml", ".hidden.yaml",
		"scenarios/a.yaml", "scenarios/.#a.yaml", "scenarios/deep/.cache/b.yaml", "scenarios/deep/c.yml",
		// honest files the rule must not hide: a name that merely
		// contains the config's, a folder named like a dotfile's stem
		"scenarios/my-compact-eval.yaml", "github/d.yaml", "only-config/compact-eval.yaml",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x: 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rel := func(fs []string) []string {
		var out []string
		for _, f := range fs {
			r, _ := filepath.Rel(dir, f)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	files, errs := Files([]string{dir})
	want := []string{"github/d.yaml", "scenarios/a.yaml", "scenarios/deep/c.yml", "scenarios/my-compact-eval.yaml"}
	if diff := cmp.Diff(want, rel(files)); diff != "" || len(errs) > 0 {
		t.Errorf("files (-want +got):\n%s\nerrors: %v", diff, errs)
	}
	// Named explicitly: read, hidden folder or not.
	files, errs = Files([]string{filepath.Join(dir, "compact-eval.yaml"), filepath.Join(dir, ".github")})
	want = []string{"compact-eval.yaml", ".github/workflows/ci.yml"}
	if diff := cmp.Diff(want, rel(files)); diff != "" || len(errs) > 0 {
		t.Errorf("named files (-want +got):\n%s\nerrors: %v", diff, errs)
	}
	// A folder holding the config file alone.
	_, errs = Files([]string{filepath.Join(dir, "only-config")})
	if len(errs) != 1 || !strings.Contains(errs[0].Msg, "no *.yaml or *.yml scenario files in this folder (compact-eval.yaml, hidden files and hidden folders such as .github/ are not read)") {
		t.Errorf("errors = %v", errs)
	}
}
