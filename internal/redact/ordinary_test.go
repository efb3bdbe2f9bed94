package redact_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/scenarios"
)

// keys of the shapes the harness meets, none of them in the suite.
var ordinaryKeys = []string{
	"sk-proj-Qw3rTy7UiOp9AsDfGh1JkLzXcVbNm2",
	"AKIAIOSFODNN7EXAMPLE",
	"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	"ghp_16C7e42F292c6912E7710c838347Ae178B4a",
	"xoxb-17653672481-19874698323-pdFZKVeTuE15EE",
	"correct-horse-battery-staple-42",
	"hunter2hunter2",
	"contraseña-Ñandú-7x9Q2mZ",
}

// The normalising search reads every text under many decodings: it must
// not turn ordinary text into leaks. Every file of the built-in suite and
// every gold summary, searched for every secret of another scenario and
// for keys of common shapes, holds none; a scenario's own secret is
// searched with the scenario's file as its public text, and its gold
// summaries hold no leak of it.
func TestOrdinaryTextRedactsNothing(t *testing.T) {
	suite, err := scenarios.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../scenarios/builtin/*.yaml")
	gold, _ := filepath.Glob("../../testdata/gold/*.json")
	if len(files) < 10 || len(gold) < 10 {
		t.Fatalf("found %d scenario files and %d gold files", len(files), len(gold))
	}
	texts := map[string]string{}
	for _, f := range append(files, gold...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f)] = string(b)
	}
	type secret struct{ owner, id, value string }
	var secrets []secret
	for _, sc := range suite {
		for id, v := range sc.Secrets() {
			secrets = append(secrets, secret{sc.ID, id, v})
		}
	}
	if len(secrets) == 0 {
		t.Fatal("the suite has no secret: the test reads nothing of it")
	}
	for _, k := range ordinaryKeys {
		secrets = append(secrets, secret{"", "key", k})
	}
	for _, s := range secrets {
		var public []string
		if s.owner != "" {
			public = append(public, texts["builtin/"+s.owner+".yaml"])
		}
		r := redact.New([]redact.Secret{{ID: s.id, Value: s.value}}, public...)
		for name, text := range texts {
			if s.owner != "" && name == "builtin/"+s.owner+".yaml" {
				continue // the secret itself is there
			}
			if leaks := r.Find(text); len(leaks) > 0 {
				l := leaks[0]
				t.Errorf("%s: %d leaks of %s (%s), first %q as %q", name, len(leaks), s.id, s.value, text[l.Start:l.End], l.Encoding)
			}
			if strings.Contains(text, "[redacted:") {
				t.Errorf("%s holds a tag", name)
			}
		}
	}
}

// BenchmarkGoldJSON is the cost of what every written summary goes
// through: ContainsJSON and JSON of the gold summaries, with the secret of
// the suite's secret scenario.
func BenchmarkGoldJSON(b *testing.B) {
	gold, _ := filepath.Glob("../../testdata/gold/*.json")
	var docs [][]byte
	size := 0
	for _, f := range gold {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, d)
		size += len(d)
	}
	r := redact.New([]redact.Secret{{ID: "stripe", Value: "sk_live_51QxT9mKq2RwZ8vN4bLc7HyPd3eFgA6sJ0tUi1oVzX5nMkE7Hq2"}})
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, d := range docs {
			if r.ContainsJSON(d) || len(r.JSON(d)) != len(d) {
				b.Fatal("leak")
			}
		}
	}
}
