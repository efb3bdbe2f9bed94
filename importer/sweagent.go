package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
	"github.com/compact-eval/compact-eval/scenarios"
)

// sweHistoryItem is one entry of a SWE-agent trajectory's "history": a chat
// message with SWE-agent's own fields.
type sweHistoryItem struct {
	Role        string          `json:"role"`
	Content     json.RawMessage `json:"content"`
	MessageType string          `json:"message_type"`
	IsDemo      bool            `json:"is_demo"`
	Thought     string          `json:"thought"`
	Action      string          `json:"action"`
	ToolCalls   []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolCallIDs []string `json:"tool_call_ids"`
}

// sweStep is one entry of a SWE-agent "trajectory": a (thought, action,
// observation) turn. Its "query" (every message the model saw) is not read.
type sweStep struct {
	sweStepNoQuery
	Query []struct {
		Role        string          `json:"role"`
		Content     json.RawMessage `json:"content"`
		MessageType string          `json:"message_type"`
		IsDemo      bool            `json:"is_demo"`
	} `json:"query"`
}

// sweStepNoQuery decodes a step without its query.
type sweStepNoQuery struct {
	Thought     string `json:"thought"`
	Action      string `json:"action"`
	Observation string `json:"observation"`
	Response    string `json:"response"`
	// State is the environment after the step: an object, or a string of
	// JSON ({"open_file": …, "working_dir": "/repo"}).
	State json.RawMessage `json:"state"`
}

// workingDir reads the working_dir of a step's state, "" when none.
func (s *sweStepNoQuery) workingDir() string { return s.state().WorkingDir }

// openFile reads the open_file of a step's state, "" when none.
func (s *sweStepNoQuery) openFile() string {
	if f := s.state().OpenFile; f != "n/a" {
		return f
	}
	return ""
}

type sweStepState struct {
	WorkingDir string `json:"working_dir"`
	OpenFile   string `json:"open_file"`
}

// state decodes a step's state; zero when it has none.
func (s *sweStepNoQuery) state() sweStepState {
	var st sweStepState
	raw := s.State
	var str string
	if json.Unmarshal(raw, &str) == nil {
		raw = []byte(str)
	}
	if len(raw) > 0 {
		json.Unmarshal(raw, &st)
	}
	return st
}

// maxKeptSteps bounds the text of trajectory steps kept while waiting for a
// "history" (which SWE-agent writes after them).
const maxKeptSteps = 64 << 20

// sweState is what the SWE-agent parser carries from item to item.
type sweState struct {
	step    int
	pending string // a synthesized call still waiting for its observation
	spoke   bool   // an item other than a system prompt has been read
}

// parseSWEAgent reads a SWE-agent .traj file (one JSON object). The
// conversation comes from "history" when present; otherwise from the
// "trajectory" steps, with the task taken from the first step's query.
// Demonstrations (is_demo, message_type "demonstration") are in-context
// examples, not the session: they are dropped and counted. The first system
// prompt becomes the scenario's rules.
func parseSWEAgent(br *bufio.Reader, b *builder) error {
	dec := json.NewDecoder(br)
	tok, err := dec.Token()
	if err != nil {
		return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
	}
	if d, ok := tok.(json.Delim); ok && d == '[' {
		// mini-swe-agent's messages saved alone, as a bare array.
		st := &sweState{}
		for i := 0; dec.More(); i++ {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return inputErrorf(0, "message %d at byte %d: %v", i, dec.InputOffset(), err)
			}
			if err := b.miniMessage(st, raw); err != nil {
				if err := b.skipItem("message", i, err); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return inputErrorf(0, "a SWE-agent trajectory is a JSON object with \"history\" or \"trajectory\", or mini-swe-agent's array of messages")
	}
	var steps []sweStep // kept only until a history is seen, up to a budget
	kept, dropped := 0, false
	sawHistory, sawSteps := false, false
	err = walkObject(dec, func(key string) error {
		switch key {
		case "history":
			st := &sweState{}
			err := streamInto(dec, "history", func(i int, it *sweHistoryItem, err error) error {
				if err != nil {
					return b.skipItem("history item", i, err)
				}
				sawHistory = true
				if err := b.sweHistory(st, it); err != nil {
					return b.skipItem("history item", i, err)
				}
				return nil
			})
			steps = nil
			return err
		case "messages":
			// mini-swe-agent: chat messages, the commands in bash blocks.
			if sawHistory {
				return skipMember(dec)
			}
			st := &sweState{}
			err := streamArray(dec, "messages", func(i int, raw json.RawMessage) error {
				sawHistory = true
				if err := b.miniMessage(st, raw); err != nil {
					return b.skipItem("message", i, err)
				}
				return nil
			})
			steps = nil
			return err
		case "trajectory":
			if sawHistory {
				return skipMember(dec)
			}
			return streamArray(dec, "trajectory", func(i int, raw json.RawMessage) error {
				var s sweStep
				var err error
				if i == 0 {
					err = json.Unmarshal(raw, &s)
				} else {
					// Later queries repeat the whole conversation: not decoded.
					err = json.Unmarshal(raw, &s.sweStepNoQuery)
				}
				if err != nil {
					return b.skipItem("trajectory step", i, err)
				}
				b.setRoot(s.workingDir())
				sawSteps = true
				kept += len(s.Thought) + len(s.Action) + len(s.Observation) + len(s.Response)
				if kept > maxKeptSteps {
					steps, dropped = nil, true
				}
				if !dropped {
					steps = append(steps, s)
				}
				return nil
			})
		case "info":
			var info struct {
				ExitStatus string `json:"exit_status"`
			}
			if err := dec.Decode(&info); err != nil {
				return inputErrorf(0, "info: %v", err)
			}
			if info.ExitStatus != "" {
				b.warns = append(b.warns, "SWE-agent exit status: "+info.ExitStatus)
			}
			return nil
		}
		return skipMember(dec)
	})
	if err != nil {
		return err
	}
	if !sawHistory {
		if !sawSteps {
			return inputErrorf(0, "the trajectory has neither \"history\", \"trajectory\" nor \"messages\" entries")
		}
		if dropped {
			return inputErrorf(0, "the trajectory has no \"history\" and its steps hold over %d MiB: too large to rebuild in memory", maxKeptSteps>>20)
		}
		b.warns = append(b.warns, "no \"history\": the session was rebuilt from the \"trajectory\" steps")
		return b.sweSteps(steps)
	}
	return nil
}

func (b *builder) sweHistory(st *sweState, it *sweHistoryItem) error {
	if it.IsDemo || it.MessageType == "demonstration" {
		b.drop("SWE-agent demonstrations (in-context examples)")
		return nil
	}
	text, err := b.contentText(it.Content)
	if err != nil {
		return fmt.Errorf("content: %w", err)
	}
	// Before 1.0, SWE-agent wrote no message_type: its system prompt is
	// the system item that opens the history.
	prompt := it.MessageType == "system_prompt" || it.MessageType == "" && !st.spoke
	if it.Role != "system" {
		st.spoke = true
	}
	switch it.Role {
	case "system":
		if prompt && b.rules == "" {
			b.rules = text
			return nil
		}
		st.spoke = true
		return b.text(scenarios.RoleSystem, text)
	case "assistant":
		st.step++
		thought := strings.TrimSpace(it.Thought)
		if thought == "" && it.Action == "" {
			thought = text
		}
		if len(it.ToolCalls) > 0 {
			for _, tc := range it.ToolCalls {
				if err := b.call(thought, tc.ID, tc.Function.Name, argsValue(tc.Function.Arguments)); err != nil {
					return err
				}
				thought = ""
			}
			return nil
		}
		action := strings.TrimSpace(it.Action)
		if action == "" {
			return b.text(scenarios.RoleAssistant, thought)
		}
		// No function calling: the action is a command, and the next
		// observation is its output.
		id := fmt.Sprintf("step-%d", st.step)
		if err := b.call(thought, id, commandName(action), commandArgs(action)); err != nil {
			return err
		}
		st.pending = id
		return nil
	case "tool":
		for _, id := range it.ToolCallIDs {
			if err := b.result(id, sweStatus(text), text); err != nil {
				return err
			}
		}
		if len(it.ToolCallIDs) == 0 && st.pending != "" {
			id := st.pending
			st.pending = ""
			return b.result(id, sweStatus(text), text)
		}
		return nil
	case "user":
		if st.pending != "" && (it.MessageType == "observation" || it.MessageType == "") {
			id := st.pending
			st.pending = ""
			return b.result(id, sweStatus(text), text)
		}
		return b.text(scenarios.RoleUser, text)
	}
	b.drop("history items with role " + orDash(it.Role))
	return nil
}

// sweSteps rebuilds a session from trajectory steps: the first step's query
// gives the system prompt and the task; each step is a call and its output.
func (b *builder) sweSteps(steps []sweStep) error {
	if len(steps) > 0 {
		for _, q := range steps[0].Query {
			if q.IsDemo || q.MessageType == "demonstration" {
				b.drop("SWE-agent demonstrations (in-context examples)")
				continue
			}
			text, err := b.contentText(q.Content)
			if err != nil {
				return err
			}
			switch q.Role {
			case "system":
				if b.rules == "" {
					b.rules = text
					continue
				}
				err = b.text(scenarios.RoleSystem, text)
			case "user":
				err = b.text(scenarios.RoleUser, text)
			}
			if err != nil {
				return err
			}
		}
	}
	for i, s := range steps {
		action := strings.TrimSpace(s.Action)
		thought := strings.TrimSpace(s.Thought)
		if action == "" {
			if err := b.text(scenarios.RoleAssistant, firstNonEmpty(thought, s.Response)); err != nil {
				return err
			}
			continue
		}
		id := fmt.Sprintf("step-%d", i+1)
		name := commandName(action)
		if err := b.call(thought, id, name, commandArgs(action)); err != nil {
			return err
		}
		status := sweStatus(s.Observation)
		if err := b.result(id, status, s.Observation); err != nil {
			return err
		}
		if f := s.openFile(); status == scenarios.StatusOK && editsOpenFile[name] && f != "" {
			// SWE-agent's edit names no file: it writes the open one,
			// which the step's state names.
			b.edited(f)
		}
	}
	return nil
}

// editsOpenFile are the SWE-agent commands that write the open file.
var editsOpenFile = map[string]bool{"edit": true, "insert": true, "append": true}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// commandName is the first word of a command line ("bash" when it has none).
func commandName(action string) string {
	f := strings.Fields(action)
	if len(f) == 0 {
		return "bash"
	}
	name := f[0]
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}

func commandArgs(action string) []byte {
	b, _ := json.Marshal(map[string]string{"command": action})
	return b
}

// miniMessage is one message of a mini-swe-agent trajectory.
type miniMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls json.RawMessage `json:"tool_calls"`
}

// bashBlock is a fenced command block, as mini-swe-agent asks for them.
var bashBlock = lazyre.New("(?s)```(?:bash|sh|mswea_bash_command)?[ \t]*\n(.*?)\n?```")

// returnCode reads mini-swe-agent's "<returncode>N</returncode>".
var returnCode = lazyre.New(`^\s*<returncode>(-?\d+)</returncode>`)

// miniMessage adds one mini-swe-agent message. Without tool calling, an
// assistant message holding exactly one bash block is a call of that
// command (the text before it its thought), and the user message after it
// is its output: an error unless its <returncode> is 0. With tool calling
// (later versions), and for everything else, the message is read as a Chat
// Completions message; the system message that opens it is the rules.
func (b *builder) miniMessage(st *sweState, raw json.RawMessage) error {
	var m miniMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	text := func() (string, error) { return b.contentText(m.Content) }
	switch m.Role {
	case "system":
		if !st.spoke && b.rules == "" {
			t, err := text()
			if err != nil {
				return err
			}
			b.rules = t
			return nil
		}
	case "assistant":
		if tc := bytes.TrimSpace(m.ToolCalls); len(tc) == 0 || string(tc) == "null" || string(tc) == "[]" {
			t, err := text()
			if err != nil {
				return err
			}
			if blocks := bashBlock.FindAllStringSubmatchIndex(t, 2); len(blocks) == 1 {
				st.spoke = true
				st.step++
				id := fmt.Sprintf("step-%d", st.step)
				cmd := strings.TrimSpace(t[blocks[0][2]:blocks[0][3]])
				if err := b.call(strings.TrimSpace(t[:blocks[0][0]]), id, "bash", commandArgs(cmd)); err != nil {
					return err
				}
				st.pending = id
				return nil
			}
		}
	case "user":
		if st.pending != "" {
			t, err := text()
			if err != nil {
				return err
			}
			id := st.pending
			st.pending = ""
			status := scenarios.StatusOK
			if m := returnCode.FindStringSubmatch(t); m != nil && m[1] != "0" {
				status = scenarios.StatusError
			}
			return b.result(id, status, t)
		}
	}
	st.spoke = true
	return b.message(chatOpenAI, raw)
}

// rejectedEdit marks the observation of an edit SWE-agent's tools refused
// to apply: the linting edit tool's syntax error ("Your proposed edit has
// introduced new syntax error(s)", "Your changes have NOT been applied"),
// str_replace_editor's "No replacement was performed".
var rejectedEdit = lazyre.New(`(?i)your proposed edit has introduced new syntax error|your changes have not been applied|edit (?:was|has) not been applied|no replacement was performed`)

// sweStatus is the status of a SWE-agent observation: an error when the
// tool refused the edit, ok otherwise. The regexp runs only on an
// observation that holds one of the words every refusal has (a byte scan,
// about a hundred times faster than the case-folding regexp on the
// observations of a whole trajectory).
func sweStatus(text string) string {
	if mayRefuse(text) && rejectedEdit.MatchString(text) {
		return scenarios.StatusError
	}
	return scenarios.StatusOK
}

// refusalWords are words one of which every match of rejectedEdit holds,
// lower-case ASCII with no k or s: ASCII case folding then finds every
// spelling the regexp's (?i) does (only k and s have non-ASCII folds).
var refusalWords = []string{"applied", "yntax error", "replacement"}

// mayRefuse reports whether text holds one of refusalWords in any ASCII
// case.
func mayRefuse(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i] | 0x20
		if c != 'a' && c != 'y' && c != 'r' {
			continue
		}
		for _, w := range refusalWords {
			if c == w[0] && len(text)-i >= len(w) && equalFoldASCII(text[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}

// equalFoldASCII reports whether s equals the lower-case ASCII word w in
// ASCII case folding.
func equalFoldASCII(s, w string) bool {
	for j := 0; j < len(w); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}
