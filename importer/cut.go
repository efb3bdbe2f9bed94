package importer

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Cut asks for the compaction cut: after the event Seq exactly, or near a
// Fraction of the session's events, moved as the default cut is so that it
// splits no call from its result. The zero value is the default: near two
// thirds.
type Cut struct {
	Seq      int
	Fraction float64
}

// IsZero reports whether c asks for the default cut.
func (c Cut) IsZero() bool { return c.Seq == 0 && c.Fraction == 0 }

// String is the form ParseCut reads: "45", "0.9".
func (c Cut) String() string {
	switch {
	case c.Seq > 0:
		return strconv.Itoa(c.Seq)
	case c.Fraction > 0:
		s := strconv.FormatFloat(c.Fraction, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0" // a fraction, not seq 1
		}
		return s
	}
	return ""
}

// ParseCut reads the --cut value: a seq (an integer, "45": the cut falls
// after event 45, as compaction.at says it), or a fraction of the session's
// events ("0.9", "90%", "1" written "1.0" or "100%": the whole session).
func ParseCut(s string) (Cut, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Cut{}, nil
	}
	if p, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || f <= 0 || f > 100 {
			return Cut{}, fmt.Errorf("%q: a percentage of the session's events is above 0%% and at most 100%%", s)
		}
		return Cut{Fraction: f / 100}, nil
	}
	if !strings.ContainsAny(s, ".eE") {
		n, err := strconv.Atoi(s)
		if err != nil {
			return Cut{}, fmt.Errorf("%q is neither an event's seq (45) nor a fraction of the session's events (0.9, 90%%)", s)
		}
		if n < 1 {
			return Cut{}, fmt.Errorf("%d: a seq is 1 or more (the cut falls after that event; for a fraction of the session write 0.9 or 90%%)", n)
		}
		return Cut{Seq: n}, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return Cut{}, fmt.Errorf("%q is neither an event's seq (45) nor a fraction of the session's events (0.9, 90%%)", s)
	}
	if math.IsNaN(f) || f <= 0 || f > 1 {
		return Cut{}, fmt.Errorf("%s: a fraction of the session's events is above 0 and at most 1 (a seq is written without a point: 45)", s)
	}
	return Cut{Fraction: f}, nil
}

func (c Cut) validate() error {
	switch {
	case c.Seq < 0:
		return errors.New("--cut: a seq is 1 or more")
	case c.Seq > 0 && c.Fraction != 0:
		return errors.New("--cut: a seq or a fraction, not both")
	case math.IsNaN(c.Fraction) || c.Fraction < 0 || c.Fraction > 1:
		return errors.New("--cut: a fraction of the session's events is above 0 and at most 1")
	}
	return nil
}

// splitting returns, for each p in 1..n, whether cutting after event p
// (1-based) separates a call from its result: valid[p-1] is false then.
func splitting(metas []meta) []bool {
	n := len(metas)
	open := make([]int32, n+1)
	for i, m := range metas {
		if m.kind == kindCall && m.result >= 0 {
			open[i]++
			open[m.result]--
		}
	}
	valid := make([]bool, n)
	var run int32
	for i := 0; i < n; i++ {
		run += open[i]
		valid[i] = run == 0
	}
	return valid
}

// nearestValid returns the seq nearest to target, earlier first (later only
// when nothing earlier works), at which a cut splits no call from its
// result.
func nearestValid(valid []bool, target int) int {
	n := len(valid)
	for p := target; p >= 1; p-- {
		if valid[p-1] {
			return p
		}
	}
	for p := target + 1; p <= n; p++ {
		if valid[p-1] {
			return p
		}
	}
	return n
}

// askedCut places the cut Options.Cut asks for in the session's events.
// A seq is taken exactly, or refused with the seqs nearest to it that
// split no call from its result; a fraction is moved as the default is.
func (b *builder) askedCut() (int, error) {
	c, n := b.opts.Cut, len(b.metas)
	valid := splitting(b.metas)
	if c.Fraction > 0 {
		target := int(math.Round(c.Fraction * float64(n)))
		return nearestValid(valid, max(1, min(target, n))), nil
	}
	if c.Seq > n {
		return 0, inputErrorf(0, "--cut %d: the session has %d events (a seq from 1 to %d, or a fraction such as 0.9)", c.Seq, n, n)
	}
	if valid[c.Seq-1] {
		return c.Seq, nil
	}
	call := c.Seq - 1
	for call >= 0 && !(b.metas[call].kind == kindCall && b.metas[call].result > int32(c.Seq-1)) {
		call--
	}
	before, after := 0, 0
	for p := c.Seq - 1; p >= 1 && before == 0; p-- {
		if valid[p-1] {
			before = p
		}
	}
	for p := c.Seq + 1; p <= n && after == 0; p++ {
		if valid[p-1] {
			after = p
		}
	}
	var near []string
	if before > 0 {
		near = append(near, strconv.Itoa(before))
	}
	if after > 0 {
		near = append(near, strconv.Itoa(after))
	}
	what := "a tool call from its result"
	if call >= 0 {
		what = fmt.Sprintf("the call at seq %d from its result at seq %d", call+1, b.metas[call].result+1)
	}
	return 0, inputErrorf(0, "--cut %d splits %s: cut at %s instead", c.Seq, what, strings.Join(near, " or "))
}

// errCaseCut refuses --cut for a CompactBench case, whose cut leaves its
// final question in the tail.
func errCaseCut(c Cut) error {
	return inputErrorf(0, "--cut %s: a CompactBench case is cut before its final question, which the probes ask: import it without --cut", c)
}

// cutComment says, above compaction.at, where the cut was placed and why.
func (b *builder) cutComment() string {
	c := b.opts.Cut
	switch {
	case c.Seq > 0:
		return fmt.Sprintf("The cut is after seq %d, as --cut asked.", c.Seq)
	case c.Fraction > 0:
		return fmt.Sprintf("The cut lands near %s of the session, as --cut asked, moved so that it splits no tool call from its result.", strconv.FormatFloat(c.Fraction*100, 'f', -1, 64)+"%")
	}
	return "The cut lands near two thirds of the session, moved so that it splits no tool call from its result."
}
