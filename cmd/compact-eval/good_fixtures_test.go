package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestGoodFixturesValidate runs the validate command itself, strict, on
// testdata/scenarios/good: a "good" fixture must pass everything validate
// checks (the loader, lint, the reference agent's reading of each probe,
// warnings).
func TestGoodFixturesValidate(t *testing.T) {
	var out, errOut bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}
	if code := run(context.Background(), []string{"validate", "--strict", "../../testdata/scenarios/good"}, env); code != 0 {
		t.Fatalf("validate --strict testdata/scenarios/good exits %d:\n%s%s", code, out.String(), errOut.String())
	}
	if !strings.HasSuffix(out.String(), " scenarios OK\n") || errOut.Len() > 0 {
		t.Errorf("validate printed:\n%s%s", out.String(), errOut.String())
	}
}
