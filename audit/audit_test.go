package audit_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/audit"
	"github.com/compact-eval/compact-eval/guard"
)

const logs = "../testdata/audit/logs"

func auditFixture(t *testing.T) *audit.Report {
	t.Helper()
	var seen []audit.Progress
	r, err := audit.Dir(logs, audit.Options{Guard: guard.Options{Suggested: true}, Progress: func(p audit.Progress) { seen = append(seen, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != r.Files || seen[len(seen)-1].Done != r.Files {
		t.Errorf("progress %+v for %d files", seen, r.Files)
	}
	return r
}

func session(t *testing.T, r *audit.Report, file string) audit.Session {
	t.Helper()
	for _, s := range r.Sessions {
		if s.File == file {
			return s
		}
	}
	t.Fatalf("no session %s", file)
	return audit.Session{}
}

// The fixture folder's counts, made by hand (testdata/audit/README.md).
func TestHandCounted(t *testing.T) {
	r := auditFixture(t)
	s := session(t, r, "claude/export-session.jsonl")
	if len(s.Compactions) != 1 {
		t.Fatalf("%d compactions, want 1", len(s.Compactions))
	}
	c := s.Compactions[0]
	if d := cmp.Diff([]audit.Repeat{{Seq: 11, FirstSeq: 2, Tool: "Read", Args: `{"file_path":"/home/ana/billing/config/export.yml"}`}}, c.Repeated); d != "" {
		t.Errorf("repeated calls (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]audit.Reopen{{Seq: 13, AskedSeq: 4, AnsweredSeq: 5, Question: "Which delimiter should the CSV use, a semicolon or a comma?"}}, c.Reopened); d != "" {
		t.Errorf("reopened questions (-want +got):\n%s", d)
	}
	if c.Before != (audit.Window{Calls: 3, Errors: 1, From: 2, To: 8}) || c.After != (audit.Window{Calls: 3, Errors: 0, From: 11, To: 17}) {
		t.Errorf("errors before %+v, after %+v", c.Before, c.After)
	}
	if c.Lost != 1 || len(c.LostList) != 1 || c.LostList[0].Invariant != "constraint-1" || c.LostList[0].SourceSeq != 1 {
		t.Errorf("lost %d: %+v", c.Lost, c.LostList)
	}
	if c.Excerpt || c.ReplacedTokens != 152000 || c.Compression <= 0 || c.Compression > 0.01 {
		t.Errorf("compression %v of %d (excerpt %v): want it against the log's preTokens", c.Compression, c.ReplacedTokens, c.Excerpt)
	}

	// A boundary the log records with no summary is counted, not audited.
	shop := session(t, r, "claude/shop.jsonl")
	if len(shop.Compactions) != 1 || shop.Unaudited != 1 {
		t.Errorf("shop: %d audited, %d unaudited; want 1 and 1", len(shop.Compactions), shop.Unaudited)
	}
	if q := session(t, r, "claude/queued-no-compaction.jsonl"); len(q.Compactions) != 0 || q.Per100k != 0 {
		t.Errorf("a session with no compaction: %+v", q)
	}
	if len(r.Skipped) != 1 || r.Skipped[0].File != "settings.json" {
		t.Errorf("skipped %+v, want settings.json", r.Skipped)
	}
	tt := r.Totals
	want := audit.Totals{Sessions: 4, Compactions: 4, Audited: 3, Repeated: 1, Reopened: 1}
	got := audit.Totals{Sessions: tt.Sessions, Compactions: tt.Compactions, Audited: tt.Audited, Repeated: tt.Repeated, Reopened: tt.Reopened}
	if got != want {
		t.Errorf("totals %+v, want %+v", got, want)
	}
	if tt.FromLog != 3 || tt.LostPerCompaction != float64(tt.Lost)/3 {
		t.Errorf("totals %+v", tt)
	}
}

// The three formats render the same report; an unknown one lists the
// valid names.
func TestWrite(t *testing.T) {
	r := auditFixture(t)
	var table, js, page bytes.Buffer
	for f, w := range map[string]*bytes.Buffer{"table": &table, "json": &js, "html": &page} {
		if err := audit.Write(w, r, f); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.HasPrefix(table.String(), audit.Verdict(r)+"\n") {
		t.Errorf("the table does not open with the verdict:\n%s", table.String())
	}
	for _, want := range []string{
		"claude/export-session.jsonl · 10 · 11 · Read {\"file_path\":\"/home/ana/billing/config/export.yml\"} · 2",
		`claude/export-session.jsonl · 10 · 13 · "Which delimiter should the CSV use, a semicolon or a comma?" · 4, answered at 5`,
		"claude/export-session.jsonl · 10 · constraint constraint-1 (suggested) · 1 · no clause of text restates the rule from #1",
		"settings.json: no events found",
	} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, table.String())
		}
	}
	var back audit.Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Version != audit.ReportVersion || back.Totals != r.Totals {
		t.Errorf("the JSON does not read back: %v", err)
	}
	for _, want := range []string{"<!doctype html>", "Which delimiter should the CSV use, a semicolon or a comma?", "{&#34;file_path&#34;:&#34;/home/ana/billing/config/export.yml&#34;}"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if err := audit.Write(&table, r, "csv"); err == nil || !strings.Contains(err.Error(), "table, json, html") {
		t.Errorf("unknown format: %v", err)
	}
}

func TestNoLogs(t *testing.T) {
	if _, err := audit.Dir(t.TempDir(), audit.Options{}); err == nil || !strings.Contains(err.Error(), "no log in the folder") {
		t.Errorf("an empty folder: %v", err)
	}
	if _, err := audit.Dir("nowhere", audit.Options{}); err == nil {
		t.Error("a folder that does not exist: no error")
	}
}

// The calls and questions the audit quotes come from the log: a key the
// session holds (one the import finds, one the process knows) is
// redacted in every format before it is clipped, and the call and the
// question still count.
func TestSecretsRedacted(t *testing.T) {
	const found = "sk-proj-Qm7xVt2LpR9sKd4ZwN8bHf3J"
	const known = "Zx81-internal-upload-credential"
	t.Setenv("OPENAI_API_KEY", known)
	data, err := os.ReadFile(filepath.Join(logs, "claude", "export-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	log := strings.NewReplacer(
		`/config/export.yml"`, `/config/export.yml?token=`+found+`&`+strings.Repeat("x", 190)+`"`,
		"a semicolon or a comma", "a semicolon or a comma for the upload signed "+known,
	).Replace(string(data))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "session.jsonl"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := audit.Dir(dir, audit.Options{Guard: guard.Options{Suggested: true}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Totals.Repeated != 1 || r.Totals.Reopened != 1 {
		t.Fatalf("%d repeated, %d reopened: want the fixture's 1 and 1", r.Totals.Repeated, r.Totals.Reopened)
	}
	for _, f := range audit.Formats {
		var b bytes.Buffer
		if err := audit.Write(&b, r, f); err != nil {
			t.Fatal(err)
		}
		for _, leak := range []string{found, found[:12], known, known[:12]} {
			if strings.Contains(b.String(), leak) {
				t.Errorf("%s: the report holds %q:\n%s", f, leak, b.String())
			}
		}
		if !strings.Contains(b.String(), "[redacted:") {
			t.Errorf("%s: no redaction tag:\n%s", f, b.String())
		}
	}
}
