package importer

import (
	"encoding/json"
	"strings"

	"github.com/compact-eval/compact-eval/scenarios"
)

// Claude Code writes a message the user types while the agent works as
// queue-operation lines, not as a user line:
//
//	enqueue   the text (content) is queued;
//	dequeue   it is sent when the turn ends: the user line that follows
//	          holds it, so the queue line is only a copy;
//	remove    the running turn absorbed it (reason "absorbed_mid_turn";
//	          no reason before Claude Code 2.1.246): the agent saw it, and
//	          no user line ever holds it, so the remove (or the enqueue
//	          before it, when the remove has no text) is the user's turn;
//	popAll    the queued texts went back to the input box; whatever the user
//	          then sent is a user line of its own.
//
// A queued text that is wholly one harness block (a <task-notification>
// of a background task) is not the user's.

// maxQueued bounds the texts waiting in the queue.
const maxQueued = 64

// ccQueue holds the texts enqueued and not yet dequeued or removed.
type ccQueue struct{ texts []string }

// take removes text from the queue (the oldest when text is ""), and
// returns the text removed.
func (q *ccQueue) take(text string) string {
	for i, t := range q.texts {
		if text == "" || t == text {
			q.texts = append(q.texts[:i], q.texts[i+1:]...)
			return t
		}
	}
	return text
}

// ccQueueOperation reads one queue-operation line.
func (b *builder) ccQueueOperation(q *ccQueue, l *ccLine) error {
	b.stamp(l.Timestamp)
	text := queuedText(l.Content)
	switch l.Operation {
	case "enqueue":
		if text == "" {
			b.drop("queue-operation enqueue lines with no text")
			return nil
		}
		if len(q.texts) == maxQueued {
			q.texts = q.texts[1:]
			b.drop("queued messages past the queue's bound (not followed)")
		}
		q.texts = append(q.texts, text)
		return nil
	case "dequeue":
		q.take(text)
		b.drop("queued messages sent as the next user turn (queue-operation dequeue: the user line holds the text)")
		return nil
	case "remove":
		text = q.take(text)
		if strings.TrimSpace(text) == "" {
			b.drop("queue-operation remove lines with no text")
			return nil
		}
		if harnessBlock(text) {
			b.drop("queued harness notifications (a background task's <task-notification>, not the user's)")
			return nil
		}
		note := "typed while the agent worked, absorbed into its turn (queue-operation remove"
		if r := strings.Join(strings.Fields(l.Reason), " "); r != "" && len(r) <= 64 {
			note += ", " + r
		}
		b.counts["messages typed while the agent worked and absorbed into its turn (queue-operation remove), kept as user turns"]++
		return b.put(rec{kind: kindText, role: scenarios.RoleUser, text: b.trim(text), note: note + ")"})
	case "popAll", "clear":
		if n := len(q.texts); n > 0 {
			b.counts["queued messages taken back before the agent saw them (queue-operation "+l.Operation+")"] += n
		}
		q.texts = q.texts[:0]
		return nil
	}
	b.drop("queue-operation lines of operation " + orDash(l.Operation))
	return nil
}

// queuedText is the text of a queue line's content: a string, or content
// blocks.
func queuedText(raw json.RawMessage) string {
	t, _, err := textOf(raw)
	if err != nil {
		return ""
	}
	return t
}

// harnessBlock reports a text that is wholly one tagged block
// ("<task-notification>…</task-notification>").
func harnessBlock(text string) bool {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "<") {
		return false
	}
	end := strings.IndexAny(t, " >")
	if end < 2 {
		return false
	}
	name := t[1:end]
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return strings.HasSuffix(t, "</"+name+">")
}
