package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
)

// openAIFakes are the OpenAI-compatible fakes the scripts started, by
// script work dir, and the request count each had at the last
// openairequests.
var (
	openAIFakesMu sync.Mutex
	openAIFakes   = map[string]*llmtest.Handler{}
	openAISeen    = map[string]int{}
)

// cmdOpenAIFake is the script command "openaifake [-truncate|-garbage]
// [-leak FILE] [LATENCY]": it starts an OpenAI-compatible chat-completions
// endpoint for this script that answers every request with
// llmtest.Simulated (a summary document, the first option, a judge's
// "missing"), each after LATENCY (default 0), and points OPENAI_BASE_URL at
// it. With -truncate every reply is cut at the request's limit (half its
// content, finish_reason "length"); with -garbage every judge's question
// gets words that are no verdict (a model that never answers in the format
// asked). With -leak, FILE holds one JSON string: every summary's text is
// that string instead of "simulated summary" (a summarizer that leaks).
func cmdOpenAIFake(ts *testscript.TestScript, neg bool, args []string) {
	mode := ""
	if len(args) > 0 && (args[0] == "-truncate" || args[0] == "-garbage") {
		mode, args = args[0], args[1:]
	}
	leak := ""
	if len(args) >= 2 && args[0] == "-leak" {
		b, err := os.ReadFile(ts.MkAbs(args[1]))
		ts.Check(err)
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			ts.Fatalf("openaifake -leak %s: not one JSON string: %v", args[1], err)
		}
		leak, args = strings.TrimSpace(string(b)), args[2:]
	}
	if neg || len(args) > 1 {
		ts.Fatalf("usage: openaifake [-truncate|-garbage] [-leak FILE] [LATENCY]")
	}
	simulated := func(r llmtest.Request) llmtest.Reply {
		rep := llmtest.Simulated(r)
		if leak != "" {
			rep.Content = strings.Replace(rep.Content, `"simulated summary"`, leak, 1)
		}
		return rep
	}
	h := llmtest.NewHandler()
	switch mode {
	case "-truncate":
		h.SetDefault(func(r llmtest.Request) llmtest.Reply { return llmtest.Truncated(simulated(r)) })
	case "-garbage":
		h.SetDefault(func(r llmtest.Request) llmtest.Reply {
			if rep := simulated(r); !strings.Contains(rep.Content, `"verdict"`) {
				return rep
			}
			return llmtest.Text("I think the summary is mostly fine, probably.")
		})
	default:
		h.SetDefault(simulated)
	}
	if len(args) == 1 {
		d, err := time.ParseDuration(args[0])
		if err != nil {
			ts.Fatalf("openaifake %q: %v", args[0], err)
		}
		h.Latency = d
	}
	srv := httptest.NewServer(h)
	ts.Defer(srv.Close)
	openAIFakesMu.Lock()
	openAIFakes[ts.Getenv("WORK")] = h
	openAISeen[ts.Getenv("WORK")] = 0 // a new fake counts from 0
	openAIFakesMu.Unlock()
	ts.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
}

// cmdOpenAIRequests is "openairequests N": it fails unless the script's
// OpenAI-compatible fake received exactly N requests since the last
// openairequests.
func cmdOpenAIRequests(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: openairequests N")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("openairequests %q: not a number", args[0])
	}
	openAIFakesMu.Lock()
	defer openAIFakesMu.Unlock()
	h := openAIFakes[ts.Getenv("WORK")]
	if h == nil {
		ts.Fatalf("no openaifake started")
	}
	n := h.Count()
	got := n - openAISeen[ts.Getenv("WORK")]
	openAISeen[ts.Getenv("WORK")] = n
	if got != want {
		ts.Fatalf("the OpenAI-compatible fake received %d requests, want %d", got, want)
	}
}

// cmdOpenAIMaxTokens is "openaimaxtokens N…": it fails unless every
// request the script's OpenAI-compatible fake received carries an output
// limit (max_tokens, or max_completion_tokens) and the limits sent are
// exactly N…, in increasing order.
func cmdOpenAIMaxTokens(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: openaimaxtokens N…")
	}
	openAIFakesMu.Lock()
	h := openAIFakes[ts.Getenv("WORK")]
	openAIFakesMu.Unlock()
	if h == nil {
		ts.Fatalf("no openaifake started")
	}
	seen := map[int]bool{}
	reqs := h.Requests()
	for i, r := range reqs {
		n := max(r.Chat.MaxTokens, r.Chat.MaxCompletionTokens)
		if n < 1 {
			ts.Fatalf("request %d of %d carries no max_tokens: %.300s", i+1, len(reqs), r.Body)
		}
		seen[n] = true
	}
	var got []string
	for _, n := range slices.Sorted(maps.Keys(seen)) {
		got = append(got, strconv.Itoa(n))
	}
	if strings.Join(got, " ") != strings.Join(args, " ") {
		ts.Fatalf("the %d requests carried max_tokens %s, want %s", len(reqs), strings.Join(got, " "), strings.Join(args, " "))
	}
}

// cmdPlanMatches is "planmatches PLAN TOLERANCE": PLAN is the stdout of a
// run --dry-run against the script's OpenAI-compatible fake, saved before
// the real run that followed it. It fails unless the requests the plan said
// the run would send equal the requests the fake received since the last
// openairequests, and its prompt tokens are within TOLERANCE (a fraction,
// 0.1 for 10%) of the tokens of the messages the fake received, counted
// with the offline tokenizer as llm.EstimateTokens counts them. It logs
// both figures.
func cmdPlanMatches(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: planmatches PLAN TOLERANCE")
	}
	tol, err := strconv.ParseFloat(args[1], 64)
	if err != nil {
		ts.Fatalf("planmatches: tolerance %q: %v", args[1], err)
	}
	wantReq, wantIn := 0, 0
	rows := 0
	for _, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
		f := strings.Fields(line)
		// role target requests cached repeats exec-calls tokens-in tokens-out cost
		if len(f) != 9 || f[0] == "role" {
			continue
		}
		req, err1 := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(f[2], "~"), "+"))
		in, err2 := strconv.Atoi(f[6])
		if err1 != nil || err2 != nil {
			ts.Fatalf("planmatches: not a plan row: %q", line)
		}
		wantReq, wantIn, rows = wantReq+req, wantIn+in, rows+1
	}
	if rows == 0 {
		ts.Fatalf("planmatches: %s holds no plan row", args[0])
	}
	openAIFakesMu.Lock()
	defer openAIFakesMu.Unlock()
	h := openAIFakes[ts.Getenv("WORK")]
	if h == nil {
		ts.Fatalf("no openaifake started")
	}
	reqs := h.Requests()
	seen := openAISeen[ts.Getenv("WORK")]
	got := reqs[seen:]
	openAISeen[ts.Getenv("WORK")] = len(reqs)
	in := 0
	for _, r := range got {
		in += llm.EstimateTokens(&r.Chat)
	}
	ts.Logf("plan: %d requests, %d tokens in; the fake: %d requests, %d tokens in (%+.1f%%)", wantReq, wantIn, len(got), in, 100*float64(wantIn-in)/float64(max(in, 1)))
	if len(got) != wantReq {
		for _, l := range requestLines(got) {
			ts.Logf("%s", l)
		}
		ts.Fatalf("the plan said %d requests, the fake received %d", wantReq, len(got))
	}
	if math.Abs(float64(wantIn-in)) > tol*float64(in) {
		ts.Fatalf("the plan said %d tokens in, the fake received %d: off by more than %g", wantIn, in, tol)
	}
}

// requestLines describes each distinct request of reqs, in order of first
// arrival: how many times its body arrived and at which positions, its
// tokens, its response format, who asked (the first words of the system
// prompt) and about what (the first words of the last message). A run
// sends a request once per trial (the same body may come once per trial:
// the trial is in the cache key, not the body), so when a run sends more
// than its plan counted, the extra one is the line a passing run lacks.
func requestLines(reqs []llmtest.Request) []string {
	at := map[string][]int{}
	var order []string
	for i, r := range reqs {
		k := string(r.Body)
		if at[k] == nil {
			order = append(order, k)
		}
		at[k] = append(at[k], i+1)
	}
	var out []string
	for _, k := range order {
		pos := at[k]
		chat := reqs[pos[0]-1].Chat
		who, what, format := "", "", "text"
		if n := len(chat.Messages); n > 0 {
			who, what = chat.Messages[0].Content, chat.Messages[n-1].Content
		}
		if f := chat.ResponseFormat; f != nil {
			format = string(f.Type)
		}
		out = append(out, fmt.Sprintf("sent %d× (requests %v, %d tokens, %s): asked by %.50q about %.120q", len(pos), pos, llm.EstimateTokens(&chat), format, who, what))
	}
	return out
}
