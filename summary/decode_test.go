package summary

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []Violation
	}{
		{name: "text only", doc: `{"schema_version": 1, "covers_through": 80, "text": "read-only run"}`},
		{name: "minimal", doc: `{"schema_version": 1, "covers_through": 0}`},
		{name: "full example", doc: `{"schema_version": 1, "covers_through": 80, "goal": "g",
			"constraints": [{"text": "read-only", "source_seq": 1}],
			"decisions": [{"text": "check DNS first", "source_seq": 2}],
			"verified": [{"claim": "db resolves to 10.0.3.7", "source_seq": 4}],
			"hypotheses": [{"claim": "wrong port", "source_seq": 61, "status": "refuted", "resolved_by": 70}],
			"pending": [{"op_id": "c17", "description": "migration", "status": "unknown", "source_seq": 30}],
			"artifacts": [{"path": "config/db.yaml", "digest": "sha256:ab", "status": "current", "source_seq": 12}, {"path": "config/db.yml", "status": "stale"}],
			"corrections": [{"subject": "db port", "value": "6432", "supersedes": "5432", "source_seq": 50}],
			"errors": [{"text": "TLS timeout", "resolution": "unresolved", "source_seq": 77}],
			"next_steps": ["compare ports"], "text": "t", "extensions": {"anything": {"goes": [1, 2]}}}`},
		{
			name: "bad artifact status",
			doc:  `{"schema_version": 1, "covers_through": 3, "artifacts": [{"path": "a.txt", "status": "live"}]}`,
			want: []Violation{{"/artifacts/0/status", `status is "live"; want one of current, stale, superseded, deleted`}},
		},
		{
			name: "bad hypothesis status",
			doc:  `{"schema_version": 1, "covers_through": 3, "hypotheses": [{"claim": "a"}, {"claim": "b"}, {"claim": "c", "status": "closed"}]}`,
			want: []Violation{{"/hypotheses/2/status", `status is "closed"; want one of open, refuted, confirmed`}},
		},
		{
			name: "covers_through as a string",
			doc:  `{"schema_version": 1, "covers_through": "80"}`,
			want: []Violation{{"/covers_through", "covers_through is a string; want an integer"}},
		},
		// Integers as written (issue 35): JSON Schema's "integer" takes
		// 1.0, 1e2 and 0e-0; the contract does not.
		{
			name: "covers_through 0e-0",
			doc:  `{"schema_version": 1, "covers_through": 0e-0, "text": "x"}`,
			want: []Violation{{"/covers_through", "covers_through is 0e-0; want an integer written as one, without a fraction or an exponent"}},
		},
		{
			name: "1e2, 1.0, 3.0 and 2E0",
			doc: `{"schema_version": 1.0, "covers_through": 1e2, "decisions": [{"text": "a", "source_seq": 2}, {"text": "b", "source_seq": 3.0}],
				"hypotheses": [{"claim": "h", "source_seq": 1, "status": "refuted", "resolved_by": 2E0}], "extensions": {"n": [{"source_seq": 1.5}]}}`,
			want: []Violation{
				{"/covers_through", "covers_through is 1e2; want an integer written as one, without a fraction or an exponent"},
				{"/decisions/1/source_seq", "source_seq is 3.0; want an integer written as one, without a fraction or an exponent"},
				{"/hypotheses/0/resolved_by", "resolved_by is 2E0; want an integer written as one, without a fraction or an exponent"},
				{"/schema_version", "schema_version is 1.0; want an integer written as one, without a fraction or an exponent"},
			},
		},
		{
			name: "0e-0 beside another violation",
			doc:  `{"schema_version": 1, "covers_through": 0e-0, "decisions": [{"text": "a", "source_seq": 0}]}`,
			want: []Violation{
				{"/covers_through", "covers_through is 0e-0; want an integer written as one, without a fraction or an exponent"},
				{"/decisions/0/source_seq", "source_seq is 0; want at least 1"},
			},
		},
		{
			name: "missing required",
			doc:  `{"text": "x"}`,
			want: []Violation{{"", "schema_version and covers_through are required"}},
		},
		{
			name: "unknown top-level property",
			doc:  `{"schema_version": 1, "covers_through": 3, "notes": "x"}`,
			want: []Violation{{"/notes", `unknown property "notes" at the top level (put your own fields under extensions)`}},
		},
		{
			name: "wrong version",
			doc:  `{"schema_version": 2, "covers_through": 3}`,
			want: []Violation{{"/schema_version", "schema_version is 2; want 1"}},
		},
		{
			name: "negative seq and empty claim",
			doc:  `{"schema_version": 1, "covers_through": 3, "verified": [{"claim": "", "source_seq": -1}]}`,
			want: []Violation{
				{"/verified/0/claim", "claim is empty; want some text"},
				{"/verified/0/source_seq", "source_seq is -1; want at least 1"},
			},
		},
		{
			name: "pending without id or description",
			doc:  `{"schema_version": 1, "covers_through": 3, "pending": [{"status": "unknown"}]}`,
			want: []Violation{{"/pending/0", "a pending entry needs op_id or description"}},
		},
		{
			name: "not an object",
			doc:  `[1, 2]`,
			want: []Violation{{"", "the document is an array; want an object"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Validate([]byte(tc.doc))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Validate (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeBadInput(t *testing.T) {
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	deepInExt := `{"schema_version": 1, "covers_through": 1, "extensions": {"x": ` + deep + `}}`
	huge := make([]byte, 0, 100<<20)
	huge = append(huge, `{"schema_version": 1, "covers_through": 1, "text": "`...)
	huge = append(huge, bytes.Repeat([]byte("a"), 100<<20-100)...)
	huge = append(huge, `"}`...)
	over := append(append([]byte(nil), huge[:MaxSummaryBytes-1]...), `"}`...)
	tests := []struct {
		name    string
		doc     []byte
		wantErr string
	}{
		{name: "not JSON", doc: []byte("Here is your summary: the db is down"), wantErr: "invalid character"},
		{name: "empty", doc: []byte("  "), wantErr: "empty"},
		{name: "trailing data", doc: []byte(`{"schema_version": 1, "covers_through": 1} {}`), wantErr: "data after"},
		{name: "10000 deep", doc: []byte(deep), wantErr: "nests deeper than 64"},
		{name: "10000 deep in extensions", doc: []byte(deepInExt), wantErr: "nests deeper than 64"},
		{name: "100 MB", doc: huge, wantErr: "the limit is 8388608"},
		{name: "one byte over 8 MiB", doc: over[:MaxSummaryBytes+1], wantErr: "it is 8388609 bytes; the limit is 8388608"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, vs, err := Decode(tc.doc)
			if err == nil || !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Decode error = %v; want ErrUnreadable containing %q", err, tc.wantErr)
			}
			if s != nil || vs != nil {
				t.Errorf("Decode = %v, %v; want nil, nil with an error", s, vs)
			}
			v := Validate(tc.doc)
			if len(v) != 1 || v[0].Pointer != "" || !strings.Contains(v[0].Message, tc.wantErr) {
				t.Errorf("Validate = %v; want one root violation containing %q", v, tc.wantErr)
			}
		})
	}
	atLimit := append(append([]byte(nil), huge[:MaxSummaryBytes-2]...), `"}`...)
	if _, _, err := Decode(atLimit); err != nil {
		t.Errorf("a document of exactly %d bytes: %v", len(atLimit), err)
	}
}

func TestDecodeShape(t *testing.T) {
	tests := []struct {
		name        string
		doc         string
		wantSummary *Summary
		wantViol    int
	}{
		{name: "valid", doc: `{"schema_version": 1, "covers_through": 7, "text": "x"}`,
			wantSummary: &Summary{SchemaVersion: 1, CoversThrough: 7, Text: "x"}},
		{name: "unknown property still decodes", doc: `{"schema_version": 1, "covers_through": 7, "note": "x"}`,
			wantSummary: &Summary{SchemaVersion: 1, CoversThrough: 7}, wantViol: 1},
		{name: "string covers_through does not decode", doc: `{"schema_version": 1, "covers_through": "7"}`, wantViol: 1},
		{name: "null is not a summary", doc: `null`, wantViol: 1},
		{name: "missing covers_through is not a summary", doc: `{"schema_version": 1, "text": "x"}`, wantViol: 1},
		{name: "huge integer does not fit", doc: `{"schema_version": 1, "covers_through": 1e300}`, wantViol: 1},
		{name: "0e-0 is no covers_through", doc: `{"schema_version": 1, "covers_through": 0e-0, "text": "x"}`, wantViol: 1},
		{name: "-0 is 0", doc: `{"schema_version": 1, "covers_through": -0, "text": "x"}`,
			wantSummary: &Summary{SchemaVersion: 1, CoversThrough: 0, Text: "x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, vs, err := Decode([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantSummary, s); diff != "" {
				t.Errorf("summary (-want +got):\n%s", diff)
			}
			if len(vs) != tc.wantViol {
				t.Errorf("violations = %v; want %d", vs, tc.wantViol)
			}
		})
	}
}

func TestSummarySchemaJSON(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal(SummarySchemaJSON(), &m); err != nil {
		t.Fatal(err)
	}
	if m["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", m["$schema"])
	}
	if _, err := summarySchema(); err != nil {
		t.Fatal(err)
	}
}

// The Go type and the schema agree: every property the schema knows is a
// field of Summary, and a marshalled Summary validates.
func TestSchemaMatchesType(t *testing.T) {
	s := Summary{SchemaVersion: 1, CoversThrough: 9, Goal: "g",
		Constraints: []Constraint{{Text: "c", SourceSeq: 1}}, Decisions: []Statement{{Text: "d"}},
		Verified: []Claim{{Claim: "v", SourceSeq: 2}}, Hypotheses: []Hypothesis{{Claim: "h", Status: HypothesisRefuted, ResolvedBy: 3}},
		Pending: []Pending{{OpID: "c1", Status: PendingUnknown}}, Artifacts: []ArtifactRef{{Path: "a/b", Digest: "d"}},
		Corrections: []Correction{{Value: "2", Supersedes: "1"}}, Errors: []ErrorNote{{Text: "e"}},
		NextSteps: []string{"n"}, Text: "t", Extensions: map[string]json.RawMessage{"x": json.RawMessage(`1`)},
		Approvals: []Approval{{Text: "a", SourceSeq: 4, Approver: "M", Scope: "s", Resource: "r", Expires: "e", Status: ApprovalStale, InvalidatedBy: 5}},
		Handoff:   &Handoff{PreviousSession: "s-1", Reason: "r", SourceSeq: 6, ApprovedArtifacts: []string{"x"}, Unresolved: []string{"c1"}}}
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if vs := Validate(raw); vs != nil {
		t.Errorf("Validate(marshalled Summary) = %v", vs)
	}
}

// The fast path never accepts what the schema refuses, and decodes the same
// summary.
func checkFastAgrees(t *testing.T, raw []byte) {
	t.Helper()
	fast, ok := fastValid(raw)
	if !ok {
		return
	}
	slow, vs, err := decodeSlow(raw)
	if err != nil || len(vs) > 0 {
		t.Fatalf("fast path accepts %q; schema says %v %v", raw, vs, err)
	}
	if diff := cmp.Diff(slow, fast); diff != "" {
		t.Fatalf("fast and slow decode differ on %q (-slow +fast):\n%s", raw, diff)
	}
}

func TestFastPathAgrees(t *testing.T) {
	for _, doc := range []string{
		`{"schema_version": 1, "covers_through": 80, "text": "x"}`,
		`{"schema_version": 1, "covers_through": 80, "goal": null}`,
		`{"schema_version": 1, "covers_through": 80, "verified": [{"claim": "a", "source_seq": 0}]}`,
		`{"schema_version": 1, "covers_through": 80, "verified": [{"claim": "a", "source_seq": 1.0}]}`,
		`{"schema_version": 1, "covers_through": 80, "pending": [{"op_id": "", "description": "d"}]}`,
		`{"schema_version": 1, "covers_through": 80, "extensions": []}`,
		`{"schema_version": 1, "covers_through": 80, "hypotheses": [{"claim": "h", "resolved_by": 0}]}`,
		`{"schema_version": 1, "covers_through": -1}`,
		`{"schema_version": 1, "covers_through": 80, "constraints": [{"text": "c", "source_seq": -1}]}`,
		`{"schema_version": 1, "covers_through": 80, "verified": [{"claim": "a", "source_seq": -3}]}`,
		`{"schema_version": 1.0, "covers_through": 1}`,
		// An escaped name hides a 0 seq from the byte scan for it.
		`{"schema_version": 1, "covers_through": 80, "decisions": [{"text": "a", "source_s\u0065q": 0}]}`,
		`{"schema_version": 1, "covers_through": 80, "hypotheses": [{"claim": "h", "r\u0065solved_by": 0}]}`,
		`{"schema_version": 1, "covers_through": 80, "errors": [{"text": "e", "\u0073ource_seq": 0}]}`,
		`{"schema_version": 1, "covers_through": 80, "approvals": [{"text": "a", "invalidated_by": 0}]}`,
		`{"schema_version": 1, "covers_through": 80, "approvals": [{"text": "a", "status": "approved"}]}`,
		`{"schema_version": 1, "covers_through": 80, "handoff": {"reason": "r"}}`,
		`{"schema_version": 1, "covers_through": 80, "handoff": {"previous_session": "s", "unresolved": [""]}}`,
	} {
		checkFastAgrees(t, []byte(doc))
		if _, ok := fastValid([]byte(doc)); ok && !strings.Contains(doc, `"text": "x"`) {
			t.Errorf("fast path accepts %s", doc)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"schema_version": 1, "covers_through": 80, "text": "x"}`))
	f.Add([]byte(`{"schema_version": 1, "covers_through": 80, "verified": [{"claim": "a", "source_seq": 3}], "pending": [{"description": "d", "status": "done"}], "extensions": {"a": 1}}`))
	f.Add([]byte(`{"schema_version": 1, "covers_through": "80"}`))
	f.Add([]byte(`[[[[{}]]]]`))
	f.Add([]byte(`{"schema_version": 1, "covers_through": 80, "verified": [{"claim": "a", "source_s\u0065q": 0}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkFastAgrees(t, raw)
		checkStrictAgrees(t, raw)
		s, vs, err := Decode(raw)
		if err != nil && (s != nil || vs != nil) {
			t.Fatalf("error with results: %v %v %v", s, vs, err)
		}
		if err == nil && s == nil && len(vs) == 0 {
			t.Fatalf("no summary and no violation for %q", raw)
		}
	})
}
