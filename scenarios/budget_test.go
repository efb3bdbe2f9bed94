package scenarios

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// nodes counts the nodes of the tree yaml.v3 builds from data, as the
// loader does; ok is false when data is not one YAML document yaml.v3 can
// parse.
func nodes(data []byte) (n int, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return 0, false
	}
	var walk func(*yaml.Node)
	walk = func(x *yaml.Node) {
		n++
		for _, c := range x.Content {
			walk(c)
		}
	}
	walk(&doc)
	return n, true
}

// boundCases are YAML shapes that each stress one rule of nodeBound.
var boundCases = []string{
	"a",
	"a:\nb:\nc:\n",
	"- a:\n- a:\n- a:\n",
	"-\n-\n-\n",
	"- - - a\n- - b\n",
	"{a, b, c}",
	"[a: b, c: d, e]",
	"{a: , b: }",
	"[[], {}, [[]], {a: {}}]",
	"{\"a\":b,\"c\":[1,2]}",
	"a: |\n  one\n  two: three\n  - four\nb: >-\n  five\n\n  six\nc: x\n",
	"- |\n  x: y\n- >\n  - z\n- w\n",
	"key:\n  |\n    body: here\nnext: 1\n",
	"--- |\nnot: a key\n",
	"a: !!binary aGVsbG8=\nb: &x [1, 2]\nc: *x\n",
	"? a\n: b\n? [c, d]\n: {e: f}\n",
	"a: 'it''s: #not a comment'\nb: \"x\\\"y: z\"\nc: plain # comment\n",
	"a: multi\n  line\n  plain: no\n",
	"url: http://x:8080/y\nlist: [http://a, {k: v}]\n",
	"a:\n  b:\n    c:\n      d:\n",
	"events:\n  - {role: user, text: x}\n  - seq: 2\n    role: tool\n    tool_result: {call_id: c1, text: |\n      out\n      put\n    }\n",
}

// The bound never counts fewer nodes than the parser builds: on the shapes
// above, on every built-in scenario and on every file in the repository's
// scenario fixtures.
func TestNodeBoundHolds(t *testing.T) {
	var inputs [][]byte
	for _, c := range boundCases {
		inputs = append(inputs, []byte(c))
	}
	for _, pattern := range []string{"builtin/*.yaml", "testdata/fuzz/FuzzLoad/*", "../testdata/scenarios/*.yaml", "../testdata/scenarios/*/*.yaml"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, b)
		}
	}
	inputs = append(inputs, benchScenario(0, 500), benchScenario(1, 500))
	checked := 0
	for _, in := range inputs {
		real, ok := nodes(in)
		if !ok {
			continue
		}
		checked++
		if got, _ := nodeBound(in, MaxNodes); got < real {
			t.Errorf("nodeBound = %d < %d nodes the parser builds, for:\n%s", got, real, in)
		}
	}
	if checked < 40 {
		t.Fatalf("only %d inputs parsed: the test proves little", checked)
	}
}

// FuzzNodeBound: for any input yaml.v3 parses, the bound holds.
func FuzzNodeBound(f *testing.F) {
	for _, c := range boundCases {
		f.Add([]byte(c))
	}
	f.Add([]byte(lintBase))
	f.Fuzz(func(t *testing.T, data []byte) {
		real, ok := nodes(data)
		if !ok {
			return
		}
		if got, _ := nodeBound(data, 1<<30); got < real {
			t.Fatalf("nodeBound = %d < %d nodes the parser builds", got, real)
		}
	})
}

// The bound is not so loose that a realistic scenario at the event limit
// is refused: MaxEvents events of the benchmark's mix (prose, tool calls
// with arguments, tool results) stay under MaxNodes.
func TestNodeBoundAllowsTheEventLimit(t *testing.T) {
	for i := range 2 {
		data := benchScenario(i, MaxEvents)
		n, over := nodeBound(data, MaxNodes)
		real, _ := nodes(data)
		t.Logf("%d events (seq given: %v): %d bytes, bound %d, real %d nodes", MaxEvents, i%2 == 0, len(data), n, real)
		if over >= 0 {
			t.Errorf("a realistic scenario of %d events is over the node limit (%d)", MaxEvents, n)
		}
	}
	// Block style, one field a line, counts the most.
	var b strings.Builder
	b.WriteString("version: 1\nid: block\nevents:\n")
	for range MaxEvents {
		b.WriteString("  - seq: 1\n    role: assistant\n    tool_call:\n      id: c1\n      name: run_shell\n      args:\n        cmd: ls\n")
	}
	if n, over := nodeBound([]byte(b.String()), MaxNodes); over >= 0 {
		t.Errorf("%d block-style tool calls are over the node limit (%d)", MaxEvents, n)
	}
}
