package main

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// TestSchemaHelpAgrees: every document the schema command's line in
// 'compact-eval help' names ("a scenario, a summary, a result, a selftest
// or the config file") is printed by 'compact-eval schema' under that name,
// and its usage line lists the same names in the same order (issue 35:
// help said schema printed "a result", and `schema result` was refused).
func TestSchemaHelpAgrees(t *testing.T) {
	cmd := lookup("schema")
	nouns := strings.TrimPrefix(cmd.Short, "print the JSON Schema of ")
	var names []string
	for _, n := range regexp.MustCompile(`, | or `).Split(nouns, -1) {
		n = strings.TrimPrefix(strings.TrimPrefix(n, "a "), "the ")
		n = strings.TrimSuffix(n, " file") // "the config file"
		names = append(names, n)
	}
	if len(names) < 5 {
		t.Fatalf("schema's help line %q names %d documents", cmd.Short, len(names))
	}
	if want := "schema " + strings.Join(names, "|"); cmd.UsageLine != want {
		t.Errorf("schema's usage line is %q; its help line names %q", cmd.UsageLine, want)
	}
	for _, name := range names {
		var out, errb bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
		if code := run(context.Background(), []string{"schema", name}, env); code != 0 || !json.Valid(out.Bytes()) {
			t.Errorf("help says schema prints %q; compact-eval schema %s exits %d:\n%s", name, name, code, errb.String())
		}
	}
}
