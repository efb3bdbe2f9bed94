package importer

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/scenarios"
)

func userRec(text string) rec {
	return rec{kind: kindText, role: scenarios.RoleUser, text: text}
}

func TestConstraintSuggestions(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string // patterns
	}{
		{"read-only", "This investigation is READ-ONLY. Please be careful.", []string{`read[- ]?only`}},
		{"do not", "Do not restart the database.", []string{`do not restart the database`}},
		{"never", "Never deploy on Fridays!", []string{`never deploy on fridays`}},
		{"spanish no", "No cambies nada en producción.", []string{`no cambies nada en`}},
		{"spanish solo lectura", "Esto es sólo lectura, por favor.", []string{`solo lectura`}},
		{"spanish nunca", "Nunca borres los backups.", []string{`nunca borres los backups`}},
		{"bare no is ignored", "No.", nil},
		{"no keyword", "Please look at the logs and report back.", nil},
		{"two sentences", "Only use staging. Don't touch vendor/.", []string{`only use staging`, `don't touch vendor/`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newScanner()
			s.event(0, userRec(tc.text))
			var got []string
			for _, c := range s.constraints {
				got = append(got, c.pattern)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("patterns (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCorrectionSuggestions(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		old, new string
		none     bool
	}{
		{name: "not X but Y", text: "The port is not 5432 but 6432.", old: "5432", new: "6432"},
		{name: "actually X, not Y", text: "Actually, use 6432, not 5432.", old: "5432", new: "6432"},
		{name: "actually alone", text: "Actually the bucket is logs-eu.", old: "TODO", new: "the bucket is logs-eu"},
		{name: "correction", text: "Correction: the owner is Ana", old: "TODO", new: "the owner is Ana"},
		{name: "spanish sino", text: "El puerto no es 5432 sino 6432.", old: "5432", new: "6432"},
		{name: "spanish en realidad", text: "En realidad, el fichero es app.yaml, not app.yml", old: "app.yml", new: "app.yaml"},
		{name: "no correction", text: "Please continue with the plan.", none: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newScanner()
			s.event(3, userRec(tc.text))
			if tc.none {
				if len(s.corrections) != 0 {
					t.Fatalf("got %+v, want none", s.corrections)
				}
				return
			}
			if len(s.corrections) != 1 {
				t.Fatalf("got %d corrections, want 1", len(s.corrections))
			}
			c := s.corrections[0]
			if diff := cmp.Diff([]string{tc.old, tc.new}, []string{c.old, c.new}); diff != "" {
				t.Errorf("old/new (-want +got):\n%s", diff)
			}
			if c.idx != 3 {
				t.Errorf("idx = %d, want 3", c.idx)
			}
		})
	}
}

func TestSecretSuggestions(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"openai key", "key=sk-proj-FAKEfake0123456789abcdef done", []string{"sk-proj-FAKEfake0123456789abcdef"}},
		{"anthropic key", "export ANTHROPIC_API_KEY sk-ant-api03-FAKE_fake-0123456789", []string{"sk-ant-api03-FAKE_fake-0123456789"}},
		{"github token", "token ghp_FAKE0123456789abcdefghijABCD.", []string{"ghp_FAKE0123456789abcdefghijABCD"}},
		{"aws key id", "AKIAFAKE0123456789AB is the id", []string{"AKIAFAKE0123456789AB"}},
		{"slack token", "xoxb-0123456789-FAKEfakeFAKE", []string{"xoxb-0123456789-FAKEfakeFAKE"}},
		{"high entropy", "secret: Zq8Lm2Xv9Rt4Kp7Wn3Jb6Hd1Fs5Gc0Y", []string{"Zq8Lm2Xv9Rt4Kp7Wn3Jb6Hd1Fs5Gc0Y"}},
		{"hex digest is not a secret", "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", nil},
		{"uuid is not a secret", "id 123e4567-e89b-12d3-a456-426614174000", nil},
		{"mixed-case hex is not a secret", "blob DeadBeef0123456789abcdefABCDEF00 stored", nil},
		{"low entropy is not a secret", "pattern Zz9Zz9Zz9Zz9Zz9Zz9Zz9Zz9 repeats", nil},
		{"path is not a secret", "/home/dev/Projects2024/SomeLongDirectoryName/file.go", nil},
		{"short sk- is not a key", "sk-learn is a library", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newScanner()
			s.event(0, rec{kind: kindResult, role: scenarios.RoleTool, text: tc.text})
			if diff := cmp.Diff(tc.want, s.secrets); diff != "" {
				t.Errorf("secrets (-want +got):\n%s", diff)
			}
		})
	}
}

func TestArtifactGroups(t *testing.T) {
	tests := []struct {
		name  string
		texts []string
		want  [][]string
	}{
		{"extension differs", []string{"read config/db.yaml", "and config/db.yml"}, [][]string{{"config/db.yaml", "config/db.yml"}}},
		{"one letter", []string{"src/handler.go then src/handlers.go"}, [][]string{{"src/handler.go", "src/handlers.go"}}},
		{"distance two", []string{"/var/log/app.log", "/var/log/app.log.1", "/var/log/app.log.12"}, [][]string{{"/var/log/app.log", "/var/log/app.log.1", "/var/log/app.log.12"}}},
		{"far apart", []string{"src/main.go", "docs/README.md"}, nil},
		{"short names are not twins", []string{"a.go b.go"}, nil},
		{"urls are not paths", []string{"https://example.com/a.json https://example.com/b.json"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newScanner()
			for i, text := range tc.texts {
				s.event(i, rec{kind: kindText, role: scenarios.RoleAssistant, text: text})
			}
			if diff := cmp.Diff(tc.want, s.artifactGroups()); diff != "" {
				t.Errorf("groups (-want +got):\n%s", diff)
			}
		})
	}
}

func TestQuantitySuggestions(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []quantitySug
	}{
		{"ms", "Keep p99 under 200 ms.", []quantitySug{{value: 200, unit: "ms", raw: "200 ms"}}},
		{"percent and thousands", "Compact at 80% or 50,000 tokens.", []quantitySug{{value: 80, unit: "%", raw: "80%"}, {value: 50000, unit: "tokens", raw: "50,000 tokens"}}},
		{"spanish decimal", "El límite es 1,5 GB.", []quantitySug{{value: 1.5, unit: "gb", raw: "1,5 GB"}}},
		{"no unit", "There are 3 files.", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newScanner()
			s.event(0, userRec(tc.text))
			if diff := cmp.Diff(tc.want, s.quantities, cmp.AllowUnexported(quantitySug{})); diff != "" {
				t.Errorf("quantities (-want +got):\n%s", diff)
			}
		})
	}
}

func TestChooseCut(t *testing.T) {
	text := meta{role: scenarios.RoleUser, kind: kindText, result: -1}
	call := func(result int32) meta { return meta{role: scenarios.RoleAssistant, kind: kindCall, result: result} }
	res := meta{role: scenarios.RoleTool, kind: kindResult, result: -1}
	tests := []struct {
		name  string
		metas []meta
		want  int
	}{
		{"one event", []meta{text}, 1},
		{"plain text", []meta{text, text, text, text, text, text}, 4},
		{"moved before a call", []meta{text, text, text, call(4), res, text}, 3},
		{"interleaved parallel calls", []meta{text, call(4), call(3), res, res, text}, 1},
		{"unresolved call does not block", []meta{text, text, text, call(-1), text, text}, 4},
		{"later when nothing earlier works", []meta{call(2), text, res}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := chooseCut(tc.metas); got != tc.want {
				t.Errorf("chooseCut = %d, want %d", got, tc.want)
			}
		})
	}
}
