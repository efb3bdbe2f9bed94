package summary

import (
	"encoding/json"
	"testing"
)

func TestForAgent(t *testing.T) {
	tests := []struct {
		name, raw, want string
	}{
		{"no extensions", `{"schema_version":1,"covers_through":3,"text":"t"}`, `{"schema_version":1,"covers_through":3,"text":"t"}`},
		{"extensions removed, order kept", `{"text":"t", "extensions": {"to": "ops@old.example"}, "covers_through":3,"schema_version":1}`, `{"text":"t","covers_through":3,"schema_version":1}`},
		{"values kept byte for byte", `{"schema_version":1,"covers_through":3,"constraints":[ {"text": "read-only",  "source_seq": 1} ],"extensions":{}}`, `{"schema_version":1,"covers_through":3,"constraints":[ {"text": "read-only",  "source_seq": 1} ]}`},
		{"only top-level extensions", `{"text":"a \"extensions\" b","covers_through":3}`, `{"text":"a \"extensions\" b","covers_through":3}`},
		{"every duplicate removed", `{"extensions":1,"covers_through":3,"extensions":{"a":"b"}}`, `{"covers_through":3}`},
		{"not an object", `["extensions"]`, `["extensions"]`},
		{"not JSON", `{"extensions": `, `{"extensions": `},
		{"empty", ``, ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := string(ForAgent(json.RawMessage(tc.raw)))
			if got != tc.want {
				t.Errorf("ForAgent(%s) = %s; want %s", tc.raw, got, tc.want)
			}
			if tc.raw != tc.want && !json.Valid([]byte(got)) {
				t.Errorf("ForAgent returned invalid JSON %s", got)
			}
		})
	}
}

// The summary a decision sees is the summary the checks judged: ForAgent of
// a valid document is a valid document with the same content but its
// extensions.
func TestForAgentKeepsTheDocument(t *testing.T) {
	raw := `{"schema_version":1,"covers_through":9,"goal":"g","constraints":[{"text":"read-only","source_seq":1}],"artifacts":[{"path":"a.yml","status":"current"}],"extensions":{"model":"x","notes":["y"]}}`
	got := ForAgent(json.RawMessage(raw))
	if vs := Validate(got); vs != nil {
		t.Fatalf("ForAgent made an invalid document: %v", vs)
	}
	var a, b Summary
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &b); err != nil {
		t.Fatal(err)
	}
	a.Extensions = nil
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("content changed:\n%s\n%s", ja, jb)
	}
}
