package agents

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// RecallToolName is the name of the recall tool a model agent is offered
// on the recall arm.
const RecallToolName = "recall"

// RecallToolDescription is what a model agent is told the recall tool
// does.
const RecallToolDescription = "Reload events of this session that the summary replaced. " +
	"Give seqs (the event numbers the summary cites, e.g. its source_seq values) to get those events, " +
	"or query (a few words) to search the stored events, best match first. " +
	"Each call returns a few events; the number of calls is limited."

// RecallToolParameters is the JSON Schema of the recall tool's arguments.
var RecallToolParameters = json.RawMessage(`{"type":"object","properties":{` +
	`"seqs":{"type":"array","items":{"type":"integer"},"description":"seqs of the events to reload"},` +
	`"query":{"type":"string","description":"words to search the stored events for"}},` +
	`"additionalProperties":false}`)

// recallArgs are the recall tool's arguments.
type recallArgs struct {
	Seqs  []int   `json:"seqs"`
	Query *string `json:"query"`
}

// runRecall runs one recall tool call with the given JSON arguments and
// returns what the agent is told: the events' text, or why nothing came
// back.
func runRecall(rc *Recall, arguments string) string {
	var args recallArgs
	if err := json.Unmarshal([]byte(arguments), &args); err != nil {
		return "error: the arguments are not a JSON object {\"seqs\": [...]} or {\"query\": \"...\"}: " + err.Error()
	}
	var got []RecalledEvent
	var err error
	switch {
	case (args.Query != nil) == (len(args.Seqs) > 0):
		return "error: give either seqs or query"
	case args.Query != nil:
		got, err = rc.Search(*args.Query)
	default:
		got, err = rc.Get(args.Seqs)
	}
	if err != nil {
		return "error: " + err.Error()
	}
	text := RecallText(got)
	if calls := rc.Calls(); len(calls) > 0 {
		if m := calls[len(calls)-1].Missing; len(m) > 0 {
			text += fmt.Sprintf("(no stored event with seq %v)\n", m)
		}
	}
	return text + fmt.Sprintf("(%d recall calls left)", rc.Left())
}

// recallToolNote is what a call to a tool other than recall is told on
// the recall arm: the history's tools are declared (the API needs them for
// the calls it replays) but nothing runs them.
const recallToolNote = "error: only the recall tool can be called now; answer with the JSON object when you are done"

// toolCall is one tool call of a model's reply, whatever the API: its id,
// the tool's name and its arguments (a JSON object).
type toolCall struct{ ID, Name, Arguments string }

// recallTurn is one reply of a model on the recall arm: its text and the
// tool calls it makes.
type recallTurn struct {
	Text  string
	Calls []toolCall
}

// recallRounds drives a model's conversation on the recall arm, the same
// way for every API. ask sends the conversation so far, offering the
// recall tool with tool_choice auto (auto true) while the budget lasts and
// for at most twice as many rounds as calls, with tool_choice none after
// that. Each recall call of a reply is run, a call to another tool is told
// only recall can run, and feed appends the calls and their results to the
// conversation. The text of the first reply that calls nothing is
// returned; a reply that still calls a tool under tool_choice none, with
// no text, is an error.
func recallRounds(rc *Recall, ask func(auto bool) (recallTurn, error), feed func(t recallTurn, results []string)) (string, error) {
	for round := 0; ; round++ {
		auto := rc.Left() > 0 && round < 2*rc.Limits().Calls
		t, err := ask(auto)
		if err != nil {
			return "", err
		}
		if len(t.Calls) == 0 || !auto {
			if strings.TrimSpace(t.Text) == "" && len(t.Calls) > 0 {
				return "", errors.New("the reply called a tool after the recall budget was spent")
			}
			return t.Text, nil
		}
		results := make([]string, len(t.Calls))
		for i, c := range t.Calls {
			results[i] = recallToolNote
			if c.Name == RecallToolName {
				results[i] = runRecall(rc, c.Arguments)
			}
		}
		feed(t, results)
	}
}

// recallConversation asks req on the recall arm through a model API and
// fills d: a recall session of req's store and limits, the rounds of
// recallRounds, then the final reply read as a choice or an answer
// (recallReply). send posts the conversation so far (tool_choice auto or
// none) and returns the reply as a turn and whether the cache answered
// it; its errors already name the agent. feed appends a turn's calls and
// their results to the conversation. Any other error is prefixed with
// who ("anthropic agent m"). d records whether every round was a cache
// hit and every recall call made.
func recallConversation(d *Decision, req *Request, who string, send func(auto bool) (recallTurn, bool, error), feed func(recallTurn, []string)) (*Decision, error) {
	rc := req.Recall.Store().Session(req.Recall.Limits())
	hit := true
	var sendErr error
	ask := func(auto bool) (recallTurn, error) {
		t, h, err := send(auto)
		if err != nil {
			sendErr = err
			return recallTurn{}, err
		}
		hit = hit && h
		return t, nil
	}
	text, err := recallRounds(rc, ask, feed)
	if err == nil {
		err = recallReply(d, req, text)
	}
	d.Call.CacheHit = hit
	d.RecallCalls = rc.Calls()
	if err != nil && err != sendErr {
		err = fmt.Errorf("%s: %w", who, err)
	}
	return d, err
}

// recallSchemaParts is RecallToolParameters split for APIs whose SDK
// takes a schema in parts: its properties, verbatim (a map would be
// marshalled in a random order, and a request that changes bytes between
// runs misses the response cache), and its other members.
func recallSchemaParts() (properties json.RawMessage, rest map[string]any) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(RecallToolParameters, &m); err != nil {
		panic("agents: RecallToolParameters is not JSON: " + err.Error())
	}
	rest = map[string]any{}
	for k, v := range m {
		if k != "properties" && k != "type" {
			rest[k] = v
		}
	}
	return m["properties"], rest
}

// isRecallError tells whether a recall tool result says the call failed
// (the results of runRecall and recallToolNote that start "error: ").
func isRecallError(result string) bool { return strings.HasPrefix(result, "error: ") }

// recallReply reads the final reply of the recall arm into d: the choice
// of a choice probe, or the answer of a free-text probe.
func recallReply(d *Decision, req *Request, text string) error {
	var err error
	if req.FreeText() {
		d.Answer, d.Reason, err = answerFromText(text)
		return err
	}
	d.Choice, d.Reason, err = decisionFromText(text, req.Probe.Options)
	return err
}
