package judges_test

import (
	"testing"

	"github.com/compact-eval/compact-eval/judges"
)

// TestQuotedNotJSONKeys: a verdict must rest on the summary's words, and a
// summary document's member names (schema_version, covers_through,
// constraints, text) are the format's words, not the summary's. A judge
// that "quotes" a key would otherwise pass the quote check with any
// verdict, --judge-gate included. A quote written as a JSON fragment
// ("text": "…") still counts by its value.
func TestQuotedNotJSONKeys(t *testing.T) {
	doc := `{"schema_version":1,"covers_through":12,"constraints":[{"id":"c1","text":"keep the DB read-only"}],"decisions":[]}`
	tests := []struct {
		quote string
		want  bool
	}{
		{"constraints", false},
		{"covers_through", false},
		{"decisions", false},
		{`"text":`, false},
		{"schema_version", false},
		{"keep the DB read-only", true},
		{`"text": "keep the DB read-only"`, true},
		{`{"text":"keep the DB read-only"}`, true},
		{"c1", true},
	}
	for _, tc := range tests {
		if got := judges.Quoted(tc.quote, doc); got != tc.want {
			t.Errorf("Quoted(%q) = %v, want %v", tc.quote, got, tc.want)
		}
	}
	// An ellipsis over two values reads them in document order, every time
	// (not in a map's random order).
	ordered := `{"z":"first words","a":"second words","m":{"k":"third words"}}`
	for range 50 {
		if !judges.Quoted("first words … second … third words", ordered) || judges.Quoted("third words … first words", ordered) {
			t.Fatal("an ellipsis quote is not read in document order")
		}
	}
	// Text that is not JSON is searched as it is.
	if !judges.Quoted("constraints", "The constraints: keep the DB read-only.") {
		t.Error("a plain-text summary's own word was refused")
	}
}

// TestQuotedTextSummary: a summary that is not a JSON document reaches the
// judge as a JSON string (the runner encodes it), so its quotes and line
// breaks are escaped there; a quote of its words must match the words, not
// the escapes.
func TestQuotedTextSummary(t *testing.T) {
	judged := `"The user said \"never deploy on Friday\".\nThe build\tis green."`
	for _, q := range []string{`never deploy on Friday`, `said "never deploy on Friday"`, `Friday". The build is green`} {
		if !judges.Quoted(q, judged) {
			t.Errorf("Quoted(%q) refused a quote of the text summary's words", q)
		}
	}
	// A text summary has no member names: a quoted word before a colon is
	// its own word, and is not stripped from the quote.
	judged = `"The rule "read-only": no writes to prod."`
	for _, q := range []string{`rule "read-only": no writes`} {
		if !judges.Quoted(q, judged) {
			t.Errorf("Quoted(%q) refused a quote of the text summary's words", q)
		}
	}
	if judges.Quoted(`always deploy on Friday`, judged) || judges.Quoted(`"read-only": always write`, judged) {
		t.Error("a quote the text does not hold was accepted")
	}
}
