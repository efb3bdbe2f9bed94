package scenarios

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/internal/yamlnode"
	"github.com/compact-eval/compact-eval/result"
	"gopkg.in/yaml.v3"
)

// RecordedCompaction is a compaction the agent really made, kept from its
// log by `compact-eval import` (docs/formats.md §2, "Recorded
// compactions"): the seq it covered through and the summary the agent
// continued from. The summarizer `recorded` returns Summary as a text-only
// summary at Boundary; every other summarizer of the run is cut there too.
// Never sent to a summarizer or an agent.
type RecordedCompaction struct {
	// Boundary is the last seq the compaction covered: an event of the
	// history that splits no tool call from its result.
	Boundary int `json:"boundary"`
	// Summary is the text the agent continued from.
	Summary string `json:"summary"`
	// Tool is the agent that wrote it (claude-code, codex, openhands, …);
	// "" when unknown.
	Tool string `json:"tool,omitempty"`
	// Trigger is RecordedManual, RecordedAuto or "" (the log does not say).
	Trigger string `json:"trigger,omitempty"`
	// PreTokens is the context size before the compaction as the log
	// reports it; 0 when unknown.
	PreTokens int `json:"pre_tokens,omitempty"`
	// Timestamp is when the compaction was written (RFC 3339); "" when
	// unknown.
	Timestamp string `json:"timestamp,omitempty"`

	Pos         result.Pos `json:"-"`
	BoundaryPos result.Pos `json:"-"`
}

// Recorded compaction triggers.
const (
	RecordedManual = "manual"
	RecordedAuto   = "auto"
)

// RecordedAt returns the recorded compaction whose boundary is seq.
func (s *Scenario) RecordedAt(seq int) (*RecordedCompaction, bool) {
	for i := range s.Recorded {
		if s.Recorded[i].Boundary == seq {
			return &s.Recorded[i], true
		}
	}
	return nil, false
}

// RecordedBoundaries lists the boundaries of the recorded compactions, in
// file order.
func (s *Scenario) RecordedBoundaries() []int {
	out := make([]int, len(s.Recorded))
	for i, r := range s.Recorded {
		out[i] = r.Boundary
	}
	return out
}

func (d *decoder) recorded(n *yaml.Node) []RecordedCompaction {
	var out []RecordedCompaction
	d.Items(n, "recorded_compactions", func(item *yaml.Node, what string) {
		r := RecordedCompaction{Pos: pos(item)}
		ok := d.Mapping(item, what, []yamlnode.Field{
			{Name: "boundary", Required: true, Set: func(v *yaml.Node) {
				r.Boundary, r.BoundaryPos = d.Int(v, what+".boundary"), pos(v)
			}},
			{Name: "summary", Required: true, Set: func(v *yaml.Node) {
				r.Summary = d.Text(v, what+".summary")
				if v.Kind == yaml.ScalarNode && strings.TrimSpace(r.Summary) == "" {
					d.Errorf(v, "%s.summary: empty (a compaction with no text has nothing to audit)", what)
				}
			}},
			{Name: "tool", Required: false, Set: func(v *yaml.Node) { r.Tool = d.Text(v, what+".tool") }},
			{Name: "trigger", Required: false, Set: func(v *yaml.Node) {
				r.Trigger = d.Text(v, what+".trigger")
				if v.Kind == yaml.ScalarNode && r.Trigger != RecordedManual && r.Trigger != RecordedAuto {
					d.Errorf(v, "%s.trigger: %q is not a trigger (valid: %s, %s; leave it out when the log does not say)", what, r.Trigger, RecordedManual, RecordedAuto)
				}
			}},
			{Name: "pre_tokens", Required: false, Set: func(v *yaml.Node) {
				r.PreTokens = d.Int(v, what+".pre_tokens")
				if r.PreTokens < 0 {
					d.Errorf(v, "%s.pre_tokens: must not be negative, got %d", what, r.PreTokens)
				}
			}},
			{Name: "timestamp", Required: false, Set: func(v *yaml.Node) {
				r.Timestamp = d.Text(v, what+".timestamp")
				if v.Kind == yaml.ScalarNode {
					if _, err := time.Parse(time.RFC3339Nano, r.Timestamp); err != nil {
						d.Errorf(v, "%s.timestamp: %q is not an RFC 3339 time (2026-03-02T09:30:00Z)", what, r.Timestamp)
					}
				}
			}},
		})
		if ok {
			out = append(out, r)
		}
	})
	return out
}

// recordedCuts makes the recorded boundaries the scenario's cuts: an
// explicit compaction.at must list the same seqs, and the token trigger
// settings (which would choose other cuts) are refused.
func (d *decoder) recordedCuts(s *Scenario, compactionNode *yaml.Node) {
	if len(s.Recorded) == 0 {
		return
	}
	b := s.RecordedBoundaries()
	c := &s.Compaction
	at := s.Pos
	if compactionNode != nil {
		at = pos(compactionNode)
	}
	if len(c.At) > 0 && !slices.Equal(c.At, b) {
		d.errorAt(at, "compaction.at %v differs from the recorded boundaries %v: a scenario with recorded_compactions is cut at their boundaries (leave compaction.at out, or list the same seqs)", c.At, b)
	}
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"threshold_tokens", c.ThresholdTokens != 0},
		{"threshold_fraction", c.ThresholdFraction != 0},
		{"reserve_tokens", c.ReserveTokens != 0},
		{"keep_recent", c.KeepRecent != 0},
	} {
		if f.set {
			d.errorAt(at, "compaction.%s: a scenario with recorded_compactions is cut at their boundaries; %s would choose other cuts (remove it)", f.name, f.name)
		}
	}
	if len(c.At) == 0 {
		c.At = b
		c.AtPos = make([]result.Pos, len(s.Recorded))
		for i, r := range s.Recorded {
			c.AtPos[i] = r.BoundaryPos
		}
	}
	c.FromRecorded = true
}

// recorded checks the recorded compactions against the history: each
// boundary is an event, rises strictly, and splits no tool call from its
// result.
func (l *linter) recorded() {
	last := l.s.LastSeq()
	prev := 0
	for i, r := range l.s.Recorded {
		p := r.BoundaryPos
		if p.Line == 0 {
			p = r.Pos
		}
		what := fmt.Sprintf("recorded_compactions[%d].boundary", i)
		_, isEvent := l.event(r.Boundary)
		switch {
		case r.Boundary < 1 || r.Boundary > last:
			l.errorf(p, "%s: %d is outside the session (events 1..%d)", what, r.Boundary, last)
		case !isEvent:
			l.errorf(p, "%s: %d is not the seq of an event", what, r.Boundary)
		case r.Boundary <= prev:
			l.errorf(p, "%s: %d must be greater than the boundary before it, %d (one compaction a boundary, in order)", what, r.Boundary, prev)
		default:
			for id, res := range l.results {
				if call := l.calls[id]; call <= r.Boundary && res.seq > r.Boundary && res.seq <= last {
					l.errorf(p, "%s: %d splits a protocol unit: call %q at seq %d has its result at seq %d", what, r.Boundary, id, call, res.seq)
				}
			}
		}
		prev = max(prev, r.Boundary)
	}
}
