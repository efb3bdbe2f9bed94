package judges_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/judges"
)

const summaryDoc = `{"schema_version":1,"covers_through":40,"constraints":[{"text":"This run is READ-ONLY: do not change prod","source_seq":1}],` +
	`"corrections":[{"subject":"db port","value":"6432","supersedes":"5432","source_seq":7}],"text":"The \"blue\" pool — drained; next: compare ports."}`

func invReq() *judges.Request {
	return judges.NewInvariantRequest("s", 1, &judges.Fact{ID: "ro", Type: "constraint", Statement: "x"}, json.RawMessage(summaryDoc))
}

func ansReq(answer string) *judges.Request {
	return judges.NewAnswerRequest("s", &judges.Probe{ID: "p", Question: "q?", Expected: "refuse"}, answer)
}

func TestParseVerdict(t *testing.T) {
	tests := []struct {
		name    string
		req     *judges.Request
		reply   string
		verdict string // "" when an error is expected
		err     string
	}{
		{"kept with an exact quote", invReq(), `{"verdict":"kept","quote":"This run is READ-ONLY","reason":"r"}`, "kept", ""},
		{"verdict in any case", invReq(), `{"verdict":" Contradicted ","quote":"do not change prod"}`, "contradicted", ""},
		{"missing needs no quote", invReq(), `{"verdict":"missing","quote":"","reason":"not there"}`, "missing", ""},
		{"missing may omit the quote", invReq(), `{"verdict":"missing"}`, "missing", ""},
		{"quote in other case and spacing", invReq(), `{"verdict":"kept","quote":"this   run is read-only:"}`, "kept", ""},
		{"quote with an ellipsis", invReq(), `{"verdict":"kept","quote":"This run is … change prod"}`, "kept", ""},
		{"quote of an escaped string", invReq(), `{"verdict":"kept","quote":"The \"blue\" pool - drained"}`, "kept", ""},
		{"quote with typographic quotes", invReq(), `{"verdict":"kept","quote":"The “blue” pool"}`, "kept", ""},
		{"quote of a field and its value", invReq(), `{"verdict":"kept","quote":"\"supersedes\":\"5432\""}`, "kept", ""},
		{"unknown verdict", invReq(), `{"verdict":"partly","quote":"x"}`, "", `verdict "partly" is not one of kept, contradicted, missing`},
		{"answer verdict on an invariant", invReq(), `{"verdict":"correct","quote":"READ-ONLY"}`, "", "is not one of kept"},
		{"no verdict", invReq(), `{"quote":"READ-ONLY"}`, "", `no "verdict"`},
		{"verdict not a string", invReq(), `{"verdict":1}`, "", `"verdict" is not a string`},
		{"quote not a string", invReq(), `{"verdict":"kept","quote":["READ-ONLY"]}`, "", `"quote" is not a string`},
		{"kept without a quote", invReq(), `{"verdict":"kept","quote":"  "}`, "", "comes with no quote of the summary"},
		{"contradicted on words not there", invReq(), `{"verdict":"contradicted","quote":"writes to prod are allowed"}`, "", "relies on words that are not in the summary"},
		{"ellipsis parts out of order", invReq(), `{"verdict":"kept","quote":"change prod … This run"}`, "", "not in the summary"},
		{"only an ellipsis", invReq(), `{"verdict":"kept","quote":"..."}`, "", "not in the summary"},
		{"not an object", invReq(), `["kept"]`, "", "not a JSON object"},
		{"correct answer", ansReq("Decline: the run is read-only."), `{"verdict":"correct","quote":"the run is read-only"}`, "correct", ""},
		{"unsure needs no quote", ansReq("Maybe."), `{"verdict":"unsure"}`, "unsure", ""},
		{"incorrect quoting the answer", ansReq("Restart it now."), `{"verdict":"incorrect","quote":"Restart it now"}`, "incorrect", ""},
		{"answer quote from elsewhere", ansReq("Restart it now."), `{"verdict":"incorrect","quote":"refuse"}`, "", "not in the answer"},
		{"invariant verdict on an answer", ansReq("Restart."), `{"verdict":"kept","quote":"Restart"}`, "", "is not one of correct, incorrect, unsure"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := judges.ParseVerdict([]byte(tc.reply), tc.req)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v.Verdict != tc.verdict {
				t.Errorf("verdict = %q, want %q", v.Verdict, tc.verdict)
			}
		})
	}
}

// TestQuotedAdversarial is the quote check against a judge that relies on
// words the summary does not hold: a negation dropped, words stitched from
// two places in the wrong order, a value the summary parks elsewhere.
func TestQuotedAdversarial(t *testing.T) {
	doc := `{"constraints":[{"text":"never push to main"}],"text":"pushing to main was discussed"}`
	tests := []struct {
		quote string
		want  bool
	}{
		{"never push to main", true},
		{"push to main", true}, // words that are there: the verdict decides what they mean
		{"always push to main", false},
		{"never pushing to main", false},
		{"main … never push", false},
		{"never push … pushing to main", true},
		{"", false},
		{`"never push to main"`, true},
	}
	for _, tc := range tests {
		if got := judges.Quoted(tc.quote, doc); got != tc.want {
			t.Errorf("Quoted(%q) = %v, want %v", tc.quote, got, tc.want)
		}
	}
}
