package summary

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// decoderPath is what fastValid decoded with before strictDecode: the
// json.Decoder with DisallowUnknownFields.
func decoderPath(raw []byte) (s Summary, sv, ct, ok bool) {
	var shadow struct {
		Summary
		SchemaVersion *int `json:"schema_version"`
		CoversThrough *int `json:"covers_through"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if dec.Decode(&shadow) != nil {
		return s, false, false, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return s, false, false, false
	}
	s = shadow.Summary
	if shadow.SchemaVersion != nil {
		s.SchemaVersion, sv = *shadow.SchemaVersion, true
	}
	if shadow.CoversThrough != nil {
		s.CoversThrough, ct = *shadow.CoversThrough, true
	}
	return s, sv, ct, true
}

// checkStrictAgrees: what strictDecode accepts, the Decoder accepts and
// decodes to the same summary.
func checkStrictAgrees(t *testing.T, raw []byte) bool {
	t.Helper()
	s, sv, ct, ok := strictDecode(raw)
	if !ok {
		return false
	}
	ds, dsv, dct, dok := decoderPath(raw)
	if !dok {
		t.Fatalf("strictDecode accepts %q; the Decoder refuses it", raw)
	}
	if sv != dsv || ct != dct {
		t.Fatalf("strictDecode on %q: schema_version/covers_through present %v/%v; the Decoder says %v/%v", raw, sv, ct, dsv, dct)
	}
	if diff := cmp.Diff(ds, s); diff != "" {
		t.Fatalf("strictDecode and the Decoder differ on %q (-decoder +strict):\n%s", raw, diff)
	}
	return true
}

func TestStrictDecodeAgrees(t *testing.T) {
	var docs [][]byte
	for _, glob := range []string{"../testdata/gold/*.json", "../testdata/gold/*/*.json", "../testdata/mutations/*.json"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			// gold files hold generations[].summary, mutations one summary
			var file struct {
				Summary     json.RawMessage
				Generations []struct{ Summary json.RawMessage }
			}
			if err := json.Unmarshal(b, &file); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if file.Summary != nil {
				docs = append(docs, file.Summary)
			}
			for _, g := range file.Generations {
				docs = append(docs, g.Summary)
			}
		}
	}
	for _, d := range []string{
		`{"schema_version": 1, "covers_through": 80, "text": "x"}`,
		`{"schema_version":1,"covers_through":80,"constraints":[],"next_steps":[]}`,
		`{"schema_version": 1, "covers_through": 80, "text": "a\u00e9\n\"b\"\\c\/"}`,
		`{"schema_version": 1, "covers_through": 80, "text": "\ud83d\ude00 \udc00"}`,
		`{"schema_version": 1, "covers_through": 80, "text": "x", "text": "y"}`,
		`{"schema_version": 1, "covers_through": 80, "Text": "x"}`,
		`{"schema_version": 1, "covers_through": 80, "claim": "x"}`,
		`{"schema_version": 1, "covers_through": 080}`,
		`{"schema_version": 1, "covers_through": 8e1}`,
		`{"schema_version": 1, "covers_through": -8}`,
		`{"schema_version": 1, "covers_through": 99999999999999999999}`,
		`{"schema_version": 1, "covers_through": 80} {}`,
		`{"schema_version": 1, "covers_through": 80,}`,
		`{"schema_version": 1, "covers_through": 80, "verified": [{"claim": "a", "source_seq": 3},]}`,
		`{"schema_version": 1, "covers_through": 80, "verified": [{"claim": "a", "claim": "b"}]}`,
		`{"schema_version": 1, "covers_through": 80, "verified": [{}], "pending": [{"op_id": "x", "status": "done", "source_seq": 2}]}`,
		"{\"schema_version\": 1, \"covers_through\": 80, \"text\": \"bad \xff\"}",
		"{\"schema_version\": 1, \"covers_through\": 80, \"text\": \"tab\there\"}",
		` {"schema_version" : 1 ,"covers_through":7 , "next_steps" : [ "a" , "b" ] } ` + "\n",
		`{"schema_version": 1, "covers_through": 80, "approvals": [{"text": "canary", "source_seq": 4, "approver": "M", "scope": "eu-west-1", "resource": "sha256:ab", "expires": "18:00", "status": "stale", "invalidated_by": 9}]}`,
		`{"schema_version": 1, "covers_through": 80, "approvals": [{"text": "canary", "status": "stale", "status": "valid"}]}`,
		`{"schema_version": 1, "covers_through": 80, "handoff": {"previous_session": "s-1", "reason": "limit", "source_seq": 3, "approved_artifacts": ["a@sha256:1"], "unresolved": []}}`,
		`{"schema_version": 1, "covers_through": 80, "handoff": {"previous_session": "s-1", "unresolved": ["c1", "c2"]}, "next_steps": ["x"]}`,
		`{"schema_version": 1, "covers_through": 80, "handoff": {"session": "s-1"}}`,
	} {
		docs = append(docs, []byte(d))
	}
	accepted := 0
	for _, d := range docs {
		if checkStrictAgrees(t, d) {
			accepted++
		}
	}
	t.Logf("strictDecode accepted %d of %d documents", accepted, len(docs))
	if accepted < 10 {
		t.Fatalf("strictDecode accepted only %d of %d documents: it is not the fast path", accepted, len(docs))
	}
	// Single-byte edits of every document: whatever strictDecode accepts,
	// the Decoder decodes the same.
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte(`{}[]":, 019-.eE\u"abnull` + "\t\n\xff")
	for _, d := range docs {
		for range 40 {
			m := bytes.Clone(d)
			if len(m) == 0 {
				continue
			}
			switch i := rng.IntN(len(m)); rng.IntN(3) {
			case 0:
				m[i] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				m = append(m[:i], m[i+1:]...)
			default:
				m = append(m[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, m[i:]...)...)
			}
			checkStrictAgrees(t, m)
		}
	}
}
