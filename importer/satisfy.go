package importer

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/selftest"
	"gopkg.in/yaml.v3"
)

// Tally says what the satisfiability check did with the suggested
// invariants (docs/import.md, "Suggestions a summary can pass").
type Tally struct {
	// Kept passed as made; Repaired passed once a pattern was rebuilt;
	// LeftOut could not be passed and are written as comments saying why.
	Kept, Repaired, LeftOut int
	// Unchecked is why nothing was checked ("" when the check ran): the
	// scenario is over the loader's limits, or did not load.
	Unchecked string
	// Capped names what a cap on the number of suggestions pushed out, one
	// entry a kind: `3 constraints ("never edit vendor/", …)`.
	Capped []string
}

// Line is the one line import prints about its suggestions.
func (t Tally) Line() string {
	var b strings.Builder
	if t.Unchecked != "" {
		fmt.Fprintf(&b, "suggestions: %d written, not checked for satisfiability: %s", t.Kept, t.Unchecked)
	} else {
		fmt.Fprintf(&b, "suggestions: %d kept, %d repaired, %d left out", t.Kept, t.Repaired, t.LeftOut)
		if t.LeftOut > 0 {
			b.WriteString(" (no summary could pass them: the comments say why)")
		}
	}
	if len(t.Capped) > 0 {
		b.WriteString("; a cap pushed out " + strings.Join(t.Capped, ", "))
	}
	return b.String()
}

// maxRepairRounds bounds the rounds of repair: each tries every failing
// suggestion's next pattern at once.
const maxRepairRounds = 3

// checkSuggestions asks selftest, for every suggested invariant at once,
// whether any summary can pass it: selftest.Unsatisfiable builds the
// summary a perfect summarizer would write from the scenario (the same
// oracle `selftest` judges scenarios with) and runs the checks on it. A
// suggestion that fails is rebuilt with its next repair pattern and
// checked again; one with none left is left out, its comment saying why.
// header is the scenario's header YAML (version to compaction).
func (b *builder) checkSuggestions(header []byte, sugs []suggestion) Tally {
	var t Tally
	active := 0
	for i := range sugs {
		if sugs[i].node != nil {
			sugs[i].fate = kept
			active++
		}
	}
	count := func() {
		for _, s := range sugs {
			switch s.fate {
			case kept:
				t.Kept++
			case repaired:
				t.Repaired++
			case leftOut:
				t.LeftOut++
			}
		}
	}
	if active == 0 {
		return t
	}
	events, why := b.eventsForCheck(len(header))
	if why != "" {
		t.Unchecked = why
		count()
		return t
	}
	for round := 0; ; round++ {
		bad, err := b.unsatisfiable(header, events, sugs)
		if err != nil {
			t.Unchecked = err.Error()
			break
		}
		// Repairs first: a suggestion may fail only beside another that
		// fails (a quote that states its fact breaks the other's check), so
		// none is left out while another is being repaired.
		changed := false
		for i := range sugs {
			s := &sugs[i]
			if _, failed := bad[nodeID(s.node)]; failed && s.node != nil && len(s.repairs) > 0 && round < maxRepairRounds {
				s.node = s.with(s.repairs[0])
				s.repairs = s.repairs[1:]
				s.fate = repaired
				changed = true
			}
		}
		if changed {
			continue
		}
		for i := range sugs {
			s := &sugs[i]
			reasons, failed := bad[nodeID(s.node)]
			if s.node == nil || !failed {
				continue
			}
			if len(reasons) > 2 {
				reasons = reasons[:2]
			}
			for k, r := range reasons {
				reasons[k] = clip.String(r, 200)
			}
			s.why += fmt.Sprintf(" — left out, no summary can pass %s: %s", inline(s.node), strings.Join(reasons, "; "))
			s.node, s.fate = nil, leftOut
			changed = true
		}
		if !changed {
			break
		}
	}
	count()
	return t
}

// unsatisfiable loads the scenario with the suggestions active and returns
// selftest's reasons, by invariant id.
func (b *builder) unsatisfiable(header, events []byte, sugs []suggestion) (map[string][]string, error) {
	var nodes []*yaml.Node
	for _, s := range sugs {
		if s.node != nil {
			nodes = append(nodes, s.node)
		}
	}
	if len(nodes) == 0 {
		return nil, nil
	}
	var doc bytes.Buffer
	doc.Write(header)
	if err := encode(&doc, mapping("invariants", seq(nodes...))); err != nil {
		return nil, err
	}
	doc.WriteString("events:\n")
	doc.Write(events)
	sc, err := scenarios.LoadBytes("suggestions.yaml", doc.Bytes())
	if err != nil {
		return nil, fmt.Errorf("the scenario with its suggestions active does not load: %s", firstLine(err.Error()))
	}
	out := map[string][]string{}
	for target, reasons := range selftest.Unsatisfiable(sc, b.cut) {
		if target.Kind == selftest.KindInvariant {
			out[target.ID] = append(out[target.ID], reasons...)
		}
	}
	for _, r := range out {
		sort.Strings(r)
	}
	return out, nil
}

// eventsForCheck returns the rendered events, or why the check cannot run
// on them: a scenario over the loader's limits cannot be loaded, by the
// check or by anyone.
func (b *builder) eventsForCheck(headerLen int) ([]byte, string) {
	if len(b.metas) > scenarios.MaxEvents {
		return nil, fmt.Sprintf("the scenario has more than %d events", scenarios.MaxEvents)
	}
	size := b.store.size()
	if size+int64(headerLen) > scenarios.MaxFileSize {
		return nil, fmt.Sprintf("the scenario is over %d MiB", scenarios.MaxFileSize>>20)
	}
	data, err := b.store.contents()
	if err != nil {
		return nil, err.Error()
	}
	return data, ""
}

// nodeID is the id of a suggested invariant's node, "" for a note.
func nodeID(n *yaml.Node) string {
	if n == nil || len(n.Content) < 2 {
		return ""
	}
	return n.Content[1].Value
}

// inline renders a node on one line, for a comment.
func inline(n *yaml.Node) string {
	var buf bytes.Buffer
	c := *n
	c.Style = yaml.FlowStyle
	if err := encode(&buf, &c); err != nil {
		return "it"
	}
	return strings.TrimSpace(buf.String())
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
