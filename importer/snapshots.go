package importer

import (
	"crypto/sha256"
)

// Traces (OpenTelemetry GenAI spans, LangSmith runs) do not record a
// session as a list of events: each model call records the context it
// was sent, the history so far, and its reply. convo rebuilds the events
// from those snapshots: a call's context normally repeats the last one's
// and its reply, so only what follows them is new; after a compaction the
// context opens with the summary and what the agent kept, and a message
// already an event is not added again.

// snapMsg is one message of a snapshot: a fingerprint of it, how to add
// it as events, and, for a message that holds a compaction's summary (a
// compaction part), the summary.
type snapMsg struct {
	fp      [16]byte
	add     func() error
	summary *string
}

// fingerprint is the digest a message is compared by.
func fingerprint(raw []byte) [16]byte {
	s := sha256.Sum256(raw)
	var fp [16]byte
	copy(fp[:], s[:16])
	return fp
}

// convo is the state of the rebuilding.
type convo struct {
	ctx        [][16]byte        // the last call's context and reply
	emitted    map[[16]byte]bool // every message added
	compacted  bool              // the last call compacted: the next context opens with its summary
	lastTokens int               // the last call's context size, as the trace counts it
}

func newConvo() *convo { return &convo{emitted: map[[16]byte]bool{}} }

// call adds what a model call shows that is new: the messages of its
// context after the last context and reply, then its reply. A reply that
// is a compaction (finish reason "compaction") is recorded as one, with
// the call's context size, not added as events; the summary is its text.
func (c *convo) call(b *builder, input, output []snapMsg, compaction *string, tokens int, stamp string) error {
	switch {
	case c.compacted:
		// The context the compaction left: its summary, then what was
		// kept, which is already events.
		c.compacted = false
		for _, m := range input {
			if m.summary != nil || c.emitted[m.fp] {
				continue
			}
			if err := c.add(b, m, stamp); err != nil {
				return err
			}
		}
	case prefixOf(c.ctx, input):
		for _, m := range input[len(c.ctx):] {
			if err := c.add(b, m, stamp); err != nil {
				return err
			}
		}
	default:
		// A context that does not extend the last one (an edited
		// history, or a call that records only its last messages).
		for _, m := range input {
			if !c.emitted[m.fp] {
				if err := c.add(b, m, stamp); err != nil {
					return err
				}
			}
		}
	}
	if compaction != nil {
		if err := b.compaction(*compaction, compactionMeta{preTokens: tokens, timestamp: stamp}, -1); err != nil {
			return err
		}
		c.compacted, c.ctx = true, nil
		c.lastTokens = 0
		return nil
	}
	for _, m := range output {
		if err := c.add(b, m, stamp); err != nil {
			return err
		}
	}
	c.ctx = c.ctx[:0]
	for _, m := range input {
		c.ctx = append(c.ctx, m.fp)
	}
	for _, m := range output {
		c.ctx = append(c.ctx, m.fp)
	}
	if tokens > 0 {
		c.lastTokens = tokens
	}
	return nil
}

// add adds one message; a message holding a compaction's summary records
// the compaction (every event so far is what it replaced).
func (c *convo) add(b *builder, m snapMsg, stamp string) error {
	c.emitted[m.fp] = true
	if m.summary != nil {
		return b.compaction(*m.summary, compactionMeta{preTokens: c.lastTokens, timestamp: stamp}, -1)
	}
	return m.add()
}

// prefixOf reports whether ctx is a prefix of msgs.
func prefixOf(ctx [][16]byte, msgs []snapMsg) bool {
	if len(ctx) > len(msgs) {
		return false
	}
	for i, fp := range ctx {
		if msgs[i].fp != fp {
			return false
		}
	}
	return true
}
