package runner

import (
	"sort"
	"sync"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// prepared is what every unit of one scenario shares: per-event token
// counts, their prefix sums and the safe cut boundaries. It is computed once
// per scenario and read concurrently.
type prepared struct {
	sc      *scenarios.Scenario
	counter *tokens.Counter
	// tok[i] is the token count attributed to sc.Events[i].
	tok []int
	// prefix[i] is the sum of tok[:i].
	prefix []int
	// safe[i] is true when a cut at sc.Events[i].Seq splits no protocol unit.
	safe []bool
	// headerBase counts the header (rules and goal) with no summary.
	headerBase int
	// arrivalTokens is the token count of the arrivals rendered on their own.
	arrivalTokens int
	// secrets hides the scenario's secrets (checks.SecretRedactor): every
	// unit is redacted with it, and model calls carry it so that the
	// response cache never stores a leak.
	secrets *redact.Redactor
	// memo holds a memoizable agent's decisions for this scenario.
	memo decisionMemo
	// texts holds the rendered text of the event runs sent to summarizers.
	texts textMemo
	// full is the scenario's full context, set once (fullContext) and read
	// once by the reference agent for every unit and probe.
	full     agents.Context
	fullOnce sync.Once
	// recall indexes the history for the recall tool, built on the first
	// recall arm (recallIndex).
	recall     *agents.RecallIndex
	recallOnce sync.Once

	// planned is the plan of its units (PlanOf), computed once.
	planned     *result.Plan
	plannedOnce sync.Once

	// loadErr is set (and everything else empty) when the scenario could not
	// be loaded; ref then names it.
	loadErr error
	ref     Ref
}

func prepare(sc *scenarios.Scenario, counter *tokens.Counter) *prepared {
	p := &prepared{sc: sc, counter: counter}
	n := len(sc.Events)
	p.tok = eventTokens(sc.Events, counter)
	p.prefix = make([]int, n+1)
	for i, t := range p.tok {
		p.prefix[i+1] = p.prefix[i] + t
	}
	p.safe = safeBoundaries(sc.Events)
	p.headerBase = counter.Count(transcript.Header(transcript.Context{Rules: sc.Rules, Goal: sc.Goal}))
	for _, t := range eventTokens(sc.Arrivals, counter) {
		p.arrivalTokens += t
	}
	p.secrets = checks.SecretRedactor(sc)
	return p
}

// eventTokens counts each rendered message once and attributes it to the
// first event it renders; a synthetic reply counts with the call before it.
func eventTokens(events []scenarios.Event, counter *tokens.Counter) []int {
	tok := make([]int, len(events))
	if len(events) == 0 {
		return tok
	}
	index := make(map[int]int, len(events))
	for i, e := range events {
		index[e.Seq] = i
	}
	last := 0
	for _, m := range transcript.EventMessages(events) {
		at := last
		if len(m.Seqs) > 0 {
			at = index[m.Seqs[0]]
		}
		tok[at] += counter.Count(transcript.MessageText(m))
		last = at
	}
	return tok
}

// safeBoundaries marks, for each event index, whether cutting right after it
// keeps every tool call together with its result.
func safeBoundaries(events []scenarios.Event) []bool {
	n := len(events)
	callAt := map[string]int{}
	open := make([]int, n+1) // difference array of "inside a protocol unit"
	for i, e := range events {
		if e.ToolCall != nil {
			callAt[e.ToolCall.ID] = i
		}
		if e.ToolResult != nil {
			if c, ok := callAt[e.ToolResult.CallID]; ok && c < i {
				open[c]++
				open[i]--
			}
		}
	}
	safe := make([]bool, n)
	depth := 0
	for i := range n {
		depth += open[i]
		safe[i] = depth == 0
	}
	return safe
}

// recallIndex is the scenario's history indexed for the recall tool.
func (p *prepared) recallIndex() *agents.RecallIndex {
	p.recallOnce.Do(func() { p.recall = agents.NewRecallIndex(p.sc.Events, p.counter.Count) })
	return p.recall
}

// fullContext is the scenario's full context, the same for every unit:
// the reference agent reads it once (agents.Context.ReadOnce).
func (p *prepared) fullContext() agents.Context {
	p.fullOnce.Do(func() {
		p.full, _ = Contexts(p.sc, nil, 0)
		p.full.ReadOnce()
	})
	return p.full
}

// indexOf returns the index of the event with seq, or of the last event with
// a smaller seq (-1 when there is none).
func (p *prepared) indexOf(seq int) int {
	ev := p.sc.Events
	return sort.Search(len(ev), func(i int) bool { return ev[i].Seq > seq }) - 1
}

// sum returns the tokens of events with index in (from, to].
func (p *prepared) sum(from, to int) int {
	if to < from {
		return 0
	}
	return p.prefix[to+1] - p.prefix[from+1]
}

// plan is the plan every unit of the scenario records.
func (p *prepared) plan() *result.Plan {
	p.plannedOnce.Do(func() { p.planned = PlanOf(p.sc) })
	return p.planned
}

// summaryLabelTokens is what transcript.Header adds around a summary
// ("Summary of earlier events:\n" … "\n"): the header with a summary of S
// tokens counts headerBase + summaryLabelTokens + S.
const summaryLabelTokens = 5
