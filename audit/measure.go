package audit

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Repeat is a tool call repeated after a compaction: after the boundary
// (and before the next compaction) the agent made a call of the same
// tool, with the same arguments, that got the same result as a call
// before the boundary that succeeded. The agent did again what it had
// done, and learned nothing new: the summary had not kept it. A call
// repeated in a loop (tests run again) counts only when it printed the
// same as before; a call whose result differs, or has none, never counts.
// Each such call counts once per compaction.
type Repeat struct {
	// Seq is the call after the boundary; FirstSeq the same call before it.
	Seq      int    `json:"seq"`
	FirstSeq int    `json:"first_seq"`
	Tool     string `json:"tool"`
	Args     string `json:"args"`
}

// repeatedCalls lists the calls after boundary, up to next (0: the end),
// that repeat a call before it (Repeat).
func repeatedCalls(sc *scenarios.Scenario, boundary, next int) []Repeat {
	results := map[string]scenarios.Event{}
	for _, e := range sc.Events {
		if r := e.ToolResult; r != nil {
			if _, dup := results[r.CallID]; !dup {
				results[r.CallID] = e
			}
		}
	}
	sig := func(e scenarios.Event) (string, string, bool) {
		c := e.ToolCall
		r, ok := results[c.ID]
		if !ok {
			return "", "", false
		}
		args, _ := json.Marshal(c.Args) // map keys sorted: canonical
		return c.Name + "\x00" + string(args) + "\x00" + strings.Join(strings.Fields(r.ToolResult.Text), " "), string(args), r.ToolResult.Status == "" || r.ToolResult.Status == scenarios.StatusOK
	}
	before := map[string]int{}
	var out []Repeat
	counted := map[string]bool{}
	for _, e := range sc.Events {
		if e.ToolCall == nil {
			continue
		}
		key, args, ok := sig(e)
		if key == "" {
			continue
		}
		switch {
		case e.Seq <= boundary:
			if _, seen := before[key]; !seen && ok {
				before[key] = e.Seq
			}
		case next == 0 || e.Seq <= next:
			if first, was := before[key]; was && !counted[key] {
				counted[key] = true
				out = append(out, Repeat{Seq: e.Seq, FirstSeq: first, Tool: e.ToolCall.Name, Args: args})
			}
		}
	}
	return out
}

// Reopen is a question reopened after a compaction: after the boundary
// (and before the next compaction) the agent asks the user a question it
// had asked before the boundary and the user had answered there. A
// question is a sentence of an assistant's text that ends with "?" in a
// turn the user's text turn follows at once (the agent stopped and
// asked; a turn the agent goes on from with a tool call asks nobody), and
// the user's turn is its answer (an interruption, "[Request interrupted
// by user]", is none). Two questions are the same when they share at
// least three content words (words of three letters or more, case and
// accents folded, the common function words of English and Spanish left
// out) and at least half of all their content words. Each question
// answered before the boundary counts once per compaction.
type Reopen struct {
	// Seq is the turn that asks it again; AskedSeq the one that asked it
	// before the boundary and AnsweredSeq the user's answer.
	Seq         int    `json:"seq"`
	AskedSeq    int    `json:"asked_seq"`
	AnsweredSeq int    `json:"answered_seq"`
	Question    string `json:"question"`
}

type question struct {
	seq, answered int
	text          string
	words         map[string]bool
}

// reopenedQuestions lists the questions asked after boundary, up to next
// (0: the end), that reopen one the history had answered (Reopen).
func reopenedQuestions(sc *scenarios.Scenario, boundary, next int) []Reopen {
	var answered []question
	var out []Reopen
	counted := map[int]bool{}
	evs := sc.Events
	for i, e := range evs {
		if e.Role != scenarios.RoleAssistant || e.Text == "" {
			continue
		}
		qs := questions(e.Text)
		if len(qs) == 0 {
			continue
		}
		switch {
		case e.Seq <= boundary:
			if i+1 >= len(evs) || !isAnswer(evs[i+1]) || evs[i+1].Seq > boundary {
				continue
			}
			for _, q := range qs {
				answered = append(answered, question{seq: e.Seq, answered: evs[i+1].Seq, text: q, words: contentWords(q)})
			}
		case next == 0 || e.Seq <= next:
			for _, q := range qs {
				w := contentWords(q)
				for _, a := range answered {
					if !counted[a.seq] && same(a.words, w) {
						counted[a.seq] = true
						out = append(out, Reopen{Seq: e.Seq, AskedSeq: a.seq, AnsweredSeq: a.answered, Question: q})
						break
					}
				}
			}
		}
	}
	return out
}

// isAnswer reports whether e is a user's own text turn.
func isAnswer(e scenarios.Event) bool {
	t := strings.TrimSpace(e.Text)
	return e.Role == scenarios.RoleUser && e.ToolResult == nil && t != "" && !strings.HasPrefix(t, "[Request interrupted")
}

// questions are the sentences of text that end with "?".
func questions(text string) []string {
	var out []string
	start := 0
	for i, r := range text {
		if r != '?' && r != '.' && r != '!' && r != '\n' {
			continue
		}
		s := strings.TrimSpace(text[start:i])
		if r == '?' && s != "" {
			out = append(out, s+"?")
		}
		start = i + 1
	}
	return out
}

// stopWords are function words, in English and Spanish, that say nothing
// of what a question is about.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the and for you your are was were with that this these those what which who whom whose when where why how
		should would could can will shall may might must does did have has had not but all any our out into from about there their them they
		then than also just like want need sure okay now use using its it's let me please yes one
		que los las una uno del por para con como cual cuál cuando donde quien sus ese esa este esta esto eso hay debo debe puedo puede quieres quiere
		tambien también pero más mas muy sin sobre entre ahora usar uso`) {
		stopWords[w] = true
	}
}

// contentWords are the words of s of three letters or more, folded, with
// the function words left out.
func contentWords(s string) map[string]bool {
	out := map[string]bool{}
	f := strings.ToLower(textmatch.Fold(s))
	for _, w := range strings.FieldsFunc(f, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.' && r != '/'
	}) {
		w = strings.Trim(w, "-./")
		if len([]rune(w)) >= 3 && !stopWords[w] {
			out[w] = true
		}
	}
	return out
}

// same reports whether two questions share at least three content words
// and half of all their words.
func same(a, b map[string]bool) bool {
	shared := 0
	for w := range a {
		if b[w] {
			shared++
		}
	}
	all := len(a) + len(b) - shared
	return shared >= 3 && 2*shared >= all
}

// errorWindows are the tool calls in the window before the boundary (up
// to window of them, since the previous compaction prev) and after it
// (up to window, before the next one), and how many of their results
// were errors.
func errorWindows(sc *scenarios.Scenario, prev, boundary, next, window int) (before, after Window) {
	status := map[string]string{}
	for _, e := range sc.Events {
		if r := e.ToolResult; r != nil {
			if _, dup := status[r.CallID]; !dup {
				status[r.CallID] = r.Status
			}
		}
	}
	var pre, post []scenarios.Event
	for _, e := range sc.Events {
		if e.ToolCall == nil {
			continue
		}
		switch {
		case e.Seq > prev && e.Seq <= boundary:
			pre = append(pre, e)
		case e.Seq > boundary && (next == 0 || e.Seq <= next):
			post = append(post, e)
		}
	}
	if len(pre) > window {
		pre = pre[len(pre)-window:]
	}
	if len(post) > window {
		post = post[:window]
	}
	win := func(calls []scenarios.Event) Window {
		w := Window{Calls: len(calls)}
		for _, c := range calls {
			if status[c.ToolCall.ID] == scenarios.StatusError {
				w.Errors++
			}
		}
		if len(calls) > 0 {
			w.From, w.To = calls[0].Seq, calls[len(calls)-1].Seq
		}
		return w
	}
	return win(pre), win(post)
}
