// Package exectest holds small exec-protocol programs (docs/formats.md §4) used by
// tests: a correct summarizer, one that crashes, one that hangs, one that
// prints garbage, one that writes 20 MB, a correct agent and an agent that
// dumps its stdin (to prove what never reaches a process), and a judge that
// gives scripted verdicts.
//
// Each program is a func() that reads os.Stdin, writes os.Stdout and exits.
// They speak the wire format from the outside, with their own types, as a
// user's program in another language would. testdata/exec/NAME/main.go wraps
// each in a binary (Build compiles them), and Commands registers them with
// testscript.Main as exec-NAME commands for CLI scripts.
//
// Environment read by the programs:
//
//	EXECTEST_STDIN_LOG  file that summarizer-good, agent-good and
//	                    agent-dumpstdin append every request to
//	EXECTEST_PID_FILE   file that summarizer-hang writes its child's pid to
//	EXECTEST_JUDGE_RULES file of judge-scripted's verdicts (see JudgeScripted)
//	EXECTEST_HOLD_FILE  summarizer-good waits while this file exists (at
//	                    most a minute), so a test decides when calls end
package exectest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Programs lists the program names, each a folder under testdata/exec.
var Programs = []string{
	"summarizer-good", "summarizer-crash", "summarizer-hang", "summarizer-garbage",
	"summarizer-huge", "agent-good", "agent-dumpstdin", "judge-scripted", "agent-recall",
}

// Commands maps "exec-NAME" to each program, for testscript.Main.
func Commands() map[string]func() {
	return map[string]func(){
		"exec-summarizer-good":    SummarizerGood,
		"exec-summarizer-crash":   SummarizerCrash,
		"exec-summarizer-hang":    SummarizerHang,
		"exec-summarizer-garbage": SummarizerGarbage,
		"exec-summarizer-huge":    SummarizerHuge,
		"exec-agent-good":         AgentGood,
		"exec-agent-dumpstdin":    AgentDumpStdin,
		"exec-judge-scripted":     JudgeScripted,
		"exec-agent-recall":       AgentRecall,
	}
}

// HugeSize is how many bytes summarizer-huge writes (above the 16 MiB cap).
const HugeSize = 20_000_000

// CrashStderr is what summarizer-crash writes to stderr before exiting 3.
const CrashStderr = "summarizer-crash: simulated failure in the summarizer\n"

// GarbageOutput is what summarizer-garbage prints.
const GarbageOutput = "this is not JSON, sorry\n"

// SummarizerGood answers a summarize request with a small structured summary
// built only from the events: user instructions become constraints, tool
// results verified claims, tool calls without a result pending operations;
// covers_through is the cut.
// With $EXECTEST_DELAY set (a Go duration), it waits that long first, so
// that a test can interrupt a run while calls are in flight. With
// $EXECTEST_HOLD_FILE set, it waits while that file exists (at most a
// minute): a test that must act while a run is busy holds it for as long as
// it needs, however slow the machine.
func SummarizerGood() {
	if d, err := time.ParseDuration(os.Getenv("EXECTEST_DELAY")); err == nil {
		time.Sleep(d)
	}
	if hold := os.Getenv("EXECTEST_HOLD_FILE"); hold != "" {
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(hold); err != nil {
				break
			}
		}
	}
	os.Exit(summarizerGood(os.Stdin, os.Stdout, os.Stderr))
}

// SummarizerCrash writes CrashStderr and exits with status 3.
func SummarizerCrash() {
	io.Copy(io.Discard, os.Stdin)
	fmt.Fprint(os.Stderr, CrashStderr)
	os.Exit(3)
}

// SummarizerHang starts a child that sleeps, writes the child's pid to
// $EXECTEST_PID_FILE, says so on stderr and sleeps forever: only killing the
// whole process group ends both.
func SummarizerHang() {
	if len(os.Args) > 1 && os.Args[1] == "child" {
		sleepForever()
	}
	child := exec.Command(os.Args[0], "child")
	child.Stdout, child.Stderr = os.Stdout, os.Stderr
	if err := child.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "summarizer-hang: starting child: %v\n", err)
		os.Exit(2)
	}
	if f := os.Getenv("EXECTEST_PID_FILE"); f != "" {
		if err := os.WriteFile(f, []byte(strconv.Itoa(child.Process.Pid)), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "summarizer-hang: %v\n", err)
			os.Exit(2)
		}
	}
	fmt.Fprintln(os.Stderr, "summarizer-hang: sleeping forever")
	sleepForever()
}

// SummarizerGarbage prints GarbageOutput and exits 0.
func SummarizerGarbage() {
	io.Copy(io.Discard, os.Stdin)
	fmt.Print(GarbageOutput)
}

// SummarizerHuge writes a valid summary document of HugeSize bytes: valid
// JSON, but above the output cap.
func SummarizerHuge() {
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	prefix := `{"schema_version": 1, "covers_through": 1, "text": "`
	w.WriteString(prefix)
	chunk := bytes.Repeat([]byte("a"), 1<<16)
	for n := len(prefix) + 2; n < HugeSize; n += len(chunk) {
		if _, err := w.Write(chunk); err != nil {
			os.Exit(1) // the reader went away: that is the point
		}
	}
	w.WriteString(`"}`)
	w.Flush()
}

// AgentGood answers a decide request with the first option, and an answer
// request (a free-text probe) with "my answer on the ARM arm".
func AgentGood() { os.Exit(agent(os.Stdin, os.Stdout, os.Stderr, false)) }

// AgentDumpStdin appends its request to $EXECTEST_STDIN_LOG (required) and
// answers with the first option.
func AgentDumpStdin() { os.Exit(agent(os.Stdin, os.Stdout, os.Stderr, true)) }

// AgentRecall decides by one word: the last option when $EXECTEST_RECALL_WORD
// (default "read-only") occurs, case folded, in its context (rules, goal,
// summary, events) or in an event the recall tool returned, else the first
// option. On the recall arm, when the word is not in its context, it first
// asks the recall tool: by the seqs the summary cites (every source_seq),
// else by a search with the question and the options' descriptions; it
// decides once a call has been answered. With $EXECTEST_RECALL_GREEDY=1 it
// asks the tool forever (the harness must stop it at the budget).
func AgentRecall() { os.Exit(agentRecall(os.Stdin, os.Stdout, os.Stderr)) }

func agentRecall(stdin io.Reader, stdout, stderr io.Writer) int {
	in, err := readRequest(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "agent-recall: %v\n", err)
		return 2
	}
	var req struct {
		Arm   string `json:"arm"`
		Probe struct {
			Question string          `json:"question"`
			Options  json.RawMessage `json:"options"`
		} `json:"probe"`
		Context struct {
			Rules   string          `json:"rules"`
			Goal    string          `json:"goal"`
			Summary json.RawMessage `json:"summary"`
			Events  []wireEvent     `json:"events"`
		} `json:"context"`
		Recall *struct {
			CallsLeft int `json:"calls_left"`
			Results   []struct {
				Events []wireEvent `json:"events"`
			} `json:"results"`
		} `json:"recall"`
	}
	if err := json.Unmarshal(in, &req); err != nil {
		fmt.Fprintf(stderr, "agent-recall: decoding request: %v\n", err)
		return 2
	}
	var keys, descs []string
	dec := json.NewDecoder(strings.NewReader(string(req.Probe.Options)))
	if _, err := dec.Token(); err != nil {
		fmt.Fprintf(stderr, "agent-recall: options: %v\n", err)
		return 2
	}
	for dec.More() {
		k, _ := dec.Token()
		var d string
		if err := dec.Decode(&d); err != nil {
			fmt.Fprintf(stderr, "agent-recall: options: %v\n", err)
			return 2
		}
		keys, descs = append(keys, k.(string)), append(descs, d)
	}
	word := os.Getenv("EXECTEST_RECALL_WORD")
	if word == "" {
		word = "read-only"
	}
	text := func(events []wireEvent) string {
		var b strings.Builder
		for _, e := range events {
			b.WriteString(e.Text + "\n")
			if e.ToolResult != nil {
				b.WriteString(e.ToolResult.Text + "\n")
			}
		}
		return b.String()
	}
	seen := req.Context.Rules + "\n" + req.Context.Goal + "\n" + string(req.Context.Summary) + "\n" + text(req.Context.Events)
	asked := req.Recall != nil && len(req.Recall.Results) > 0
	if req.Recall != nil {
		for _, r := range req.Recall.Results {
			seen += text(r.Events)
		}
	}
	found := strings.Contains(strings.ToLower(seen), strings.ToLower(word))
	reply := map[string]any{"choice": keys[0], "reason": word + " not found"}
	if found {
		reply = map[string]any{"choice": keys[len(keys)-1], "reason": word + " found"}
	}
	if req.Recall != nil && (os.Getenv("EXECTEST_RECALL_GREEDY") == "1" || !found && !asked) {
		var sum struct {
			Constraints []struct {
				SourceSeq int `json:"source_seq"`
			} `json:"constraints"`
			Decisions []struct {
				SourceSeq int `json:"source_seq"`
			} `json:"decisions"`
		}
		json.Unmarshal(req.Context.Summary, &sum)
		var seqs []int
		for _, c := range append(sum.Constraints, sum.Decisions...) {
			if c.SourceSeq > 0 {
				seqs = append(seqs, c.SourceSeq)
			}
		}
		if len(seqs) > 0 {
			reply = map[string]any{"recall": map[string]any{"seqs": seqs}}
		} else {
			reply = map[string]any{"recall": map[string]any{"query": req.Probe.Question + " " + strings.Join(descs, " ")}}
		}
	}
	if err := json.NewEncoder(stdout).Encode(reply); err != nil {
		return 1
	}
	return 0
}

// wireEvent is an event as the exec protocol sends it.
type wireEvent struct {
	Seq      int    `json:"seq"`
	Role     string `json:"role"`
	Text     string `json:"text"`
	ToolCall *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"tool_call"`
	ToolResult *struct {
		CallID string `json:"call_id"`
		Status string `json:"status"`
		Text   string `json:"text"`
	} `json:"tool_result"`
}

type summarizeRequest struct {
	Protocol        int             `json:"protocol"`
	Kind            string          `json:"kind"`
	ScenarioID      string          `json:"scenario_id"`
	Generation      int             `json:"generation"`
	Cut             int             `json:"cut"`
	Goal            string          `json:"goal"`
	Rules           string          `json:"rules"`
	PreviousSummary json.RawMessage `json:"previous_summary"`
	Events          []wireEvent     `json:"events"`
}

type statement struct {
	Text      string `json:"text"`
	SourceSeq int    `json:"source_seq"`
}

type claim struct {
	Claim     string `json:"claim"`
	SourceSeq int    `json:"source_seq"`
}

type pending struct {
	OpID        string `json:"op_id"`
	Description string `json:"description"`
	Status      string `json:"status"`
	SourceSeq   int    `json:"source_seq"`
}

type summary struct {
	SchemaVersion int         `json:"schema_version"`
	CoversThrough int         `json:"covers_through"`
	Goal          string      `json:"goal,omitempty"`
	Constraints   []statement `json:"constraints,omitempty"`
	Verified      []claim     `json:"verified,omitempty"`
	Pending       []pending   `json:"pending,omitempty"`
	Text          string      `json:"text,omitempty"`
}

var instruction = regexp.MustCompile(`(?i)\b(only|never|do not|don't|must|read[- ]?only)\b`)

func summarizerGood(stdin io.Reader, stdout, stderr io.Writer) int {
	in, err := readRequest(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "summarizer-good: %v\n", err)
		return 2
	}
	var req summarizeRequest
	if err := json.Unmarshal(in, &req); err != nil {
		fmt.Fprintf(stderr, "summarizer-good: decoding request: %v\n", err)
		return 2
	}
	if req.Protocol != 1 || req.Kind != "summarize" {
		fmt.Fprintf(stderr, "summarizer-good: want protocol 1 kind summarize, got %d %q\n", req.Protocol, req.Kind)
		return 2
	}
	var s summary
	// Iterative rebuilds carry the previous summary's facts forward.
	if len(req.PreviousSummary) > 0 && string(req.PreviousSummary) != "null" {
		if err := json.Unmarshal(req.PreviousSummary, &s); err != nil {
			fmt.Fprintf(stderr, "summarizer-good: previous summary: %v\n", err)
			return 2
		}
	}
	s.SchemaVersion, s.CoversThrough, s.Goal = 1, req.Cut, req.Goal
	var last string
	for _, e := range req.Events {
		switch {
		case e.Role == "user" && instruction.MatchString(e.Text):
			s.Constraints = append(s.Constraints, statement{Text: clip(e.Text, 200), SourceSeq: e.Seq})
		case e.ToolCall != nil:
			s.Pending = append(s.Pending, pending{OpID: e.ToolCall.ID, Description: e.ToolCall.Name, Status: "unknown", SourceSeq: e.Seq})
		case e.ToolResult != nil:
			if e.ToolResult.Status == "timeout" {
				break // the call stays pending
			}
			s.Pending = removePending(s.Pending, e.ToolResult.CallID)
			if e.ToolResult.Status == "ok" || e.ToolResult.Status == "" {
				s.Verified = append(s.Verified, claim{Claim: clip(e.ToolResult.Text, 200), SourceSeq: e.Seq})
			}
		}
		if e.Role == "assistant" && e.Text != "" {
			last = e.Text
		}
	}
	s.Text = fmt.Sprintf("Summary of %s through event %d.", req.ScenarioID, req.Cut)
	if last != "" {
		s.Text += " Last assistant note: " + clip(last, 200)
	}
	if err := json.NewEncoder(stdout).Encode(s); err != nil {
		fmt.Fprintf(stderr, "summarizer-good: %v\n", err)
		return 1
	}
	return 0
}

func removePending(ps []pending, id string) []pending {
	out := ps[:0]
	for _, p := range ps {
		if p.OpID != id {
			out = append(out, p)
		}
	}
	return out
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

func agent(stdin io.Reader, stdout, stderr io.Writer, mustDump bool) int {
	if mustDump && os.Getenv("EXECTEST_STDIN_LOG") == "" {
		fmt.Fprintln(stderr, "agent-dumpstdin: EXECTEST_STDIN_LOG is not set")
		return 2
	}
	in, err := readRequest(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return 2
	}
	var req struct {
		Protocol int    `json:"protocol"`
		Kind     string `json:"kind"`
		Arm      string `json:"arm"`
		Probe    struct {
			ID      string          `json:"id"`
			Options json.RawMessage `json:"options"`
		} `json:"probe"`
	}
	if err := json.Unmarshal(in, &req); err != nil {
		fmt.Fprintf(stderr, "agent: decoding request: %v\n", err)
		return 2
	}
	if req.Protocol == 1 && req.Kind == "answer" {
		if len(req.Probe.Options) > 0 {
			fmt.Fprintf(stderr, "agent: a free-text probe came with options\n")
			return 2
		}
		reply := map[string]string{"answer": "my answer on the " + req.Arm + " arm", "reason": "free text"}
		if err := json.NewEncoder(stdout).Encode(reply); err != nil {
			return 1
		}
		return 0
	}
	if req.Protocol != 1 || req.Kind != "decide" {
		fmt.Fprintf(stderr, "agent: want protocol 1 kind decide, got %d %q\n", req.Protocol, req.Kind)
		return 2
	}
	first, err := firstKey(req.Probe.Options)
	if err != nil {
		fmt.Fprintf(stderr, "agent: probe %q options: %v\n", req.Probe.ID, err)
		return 2
	}
	reply := map[string]string{"choice": first, "reason": "the first option, on the " + req.Arm + " arm"}
	if err := json.NewEncoder(stdout).Encode(reply); err != nil {
		return 1
	}
	return 0
}

// readRequest reads stdin, checks the protocol environment variable and
// appends the request to $EXECTEST_STDIN_LOG when it is set.
func readRequest(stdin io.Reader) ([]byte, error) {
	if v := os.Getenv("COMPACT_EVAL_PROTOCOL"); v != "1" {
		return nil, fmt.Errorf("COMPACT_EVAL_PROTOCOL is %q, want 1", v)
	}
	in, err := io.ReadAll(stdin)
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	if name := os.Getenv("EXECTEST_STDIN_LOG"); name != "" {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		_, err = f.Write(append(append([]byte(nil), in...), '\n'))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
	}
	return in, nil
}

// firstKey returns the first key of a JSON object, in document order.
func firstKey(obj json.RawMessage) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", fmt.Errorf("want a JSON object")
	}
	t, err := dec.Token()
	if err != nil {
		return "", err
	}
	k, ok := t.(string)
	if !ok {
		return "", fmt.Errorf("no options")
	}
	return k, nil
}

func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

// JudgeScripted is an exec judge whose verdicts come from the file named by
// $EXECTEST_JUDGE_RULES, one rule a line: "KEY VERDICT [QUOTE…]", where KEY
// is an invariant id, "probe:ID" for a free-text probe's answers, or "*"
// for anything else; blank lines and lines starting with # are ignored.
// VERDICT is given back as the verdict, except three words that misbehave
// on purpose: "crash" (exit 3 with a message on stderr), "garbage" (print
// text that is not JSON) and "wrong-quote" (verdict kept, quoting words
// that are in no summary). QUOTE is the quote to give; without one the
// judge quotes the first 24 characters of the summary's "text" field (of
// the answer, for an answer), so that kept and contradicted verdicts quote
// words that are there. A rule "KEY /REGEXP/ VERDICT [QUOTE…]" applies only
// when REGEXP (no spaces) matches the judged text (the summary document as
// sent, or the answer): the first such rule that matches wins over every
// other rule for KEY, so that a scripted judge can read the document. With
// no rule for a request (or no file) the verdict is missing for an
// invariant and unsure for an answer.
func JudgeScripted() { os.Exit(judgeScripted(os.Stdin, os.Stdout, os.Stderr)) }

func judgeScripted(stdin io.Reader, stdout, stderr io.Writer) int {
	in, err := readRequest(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "judge-scripted: %v\n", err)
		return 2
	}
	var req struct {
		Protocol  int    `json:"protocol"`
		Kind      string `json:"kind"`
		Invariant *struct {
			ID string `json:"id"`
		} `json:"invariant"`
		Summary json.RawMessage `json:"summary"`
		Probe   *struct {
			ID string `json:"id"`
		} `json:"probe"`
		Answer *string `json:"answer"`
	}
	if err := json.Unmarshal(in, &req); err != nil {
		fmt.Fprintf(stderr, "judge-scripted: decoding request: %v\n", err)
		return 2
	}
	var key, verdict, text string
	switch {
	case req.Protocol != 1:
		fmt.Fprintf(stderr, "judge-scripted: want protocol 1, got %d\n", req.Protocol)
		return 2
	case req.Kind == "judge_invariant" && req.Invariant != nil:
		key, verdict = req.Invariant.ID, "missing"
		var s struct {
			Text string `json:"text"`
		}
		json.Unmarshal(req.Summary, &s)
		text = s.Text
	case req.Kind == "judge_answer" && req.Probe != nil && req.Answer != nil:
		key, verdict, text = "probe:"+req.Probe.ID, "unsure", *req.Answer
	default:
		fmt.Fprintf(stderr, "judge-scripted: unexpected request kind %q\n", req.Kind)
		return 2
	}
	quote := ""
	if name := os.Getenv("EXECTEST_JUDGE_RULES"); name != "" {
		data, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "judge-scripted: %v\n", err)
			return 2
		}
		judged := string(req.Summary)
		if req.Answer != nil {
			judged = *req.Answer
		}
		found := false
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || strings.HasPrefix(f[0], "#") || (f[0] != key && f[0] != "*") {
				continue
			}
			if c := f[1]; len(c) > 2 && strings.HasPrefix(c, "/") && strings.HasSuffix(c, "/") {
				re, err := regexp.Compile(c[1 : len(c)-1])
				if err != nil {
					fmt.Fprintf(stderr, "judge-scripted: rule %q: %v\n", line, err)
					return 2
				}
				if len(f) < 3 || !re.MatchString(judged) {
					continue
				}
				verdict, quote = f[2], strings.Join(f[3:], " ")
				break
			}
			if found && f[0] == "*" {
				continue
			}
			verdict, quote, found = f[1], strings.Join(f[2:], " "), f[0] == key
		}
	}
	if quote == "" {
		quote = clip(text, 24)
	}
	switch verdict {
	case "crash":
		fmt.Fprintln(stderr, "judge-scripted: simulated crash")
		return 3
	case "garbage":
		fmt.Fprint(stdout, GarbageOutput)
		return 0
	case "wrong-quote":
		verdict, quote = "kept", "words that are in no summary at all"
	}
	reply := map[string]string{"verdict": verdict, "quote": quote, "reason": "scripted verdict for " + key}
	if err := json.NewEncoder(stdout).Encode(reply); err != nil {
		return 1
	}
	return 0
}
