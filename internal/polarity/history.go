package polarity

// HistoryFrame reports whether the value at [start, end) of the text is
// named as history rather than as current: a value the history class of
// classes.tsv frames (a proposal, a past plan, a past use, a status that
// retires it), read across the structure of its clause:
//
//   - a frame before the value in its clause bears on it when nothing
//     stands between them but words (no other value, no conjunction that
//     starts a new predicate): "we first proposed 200 rows/s", "the
//     earlier plan was 200 rows/s", "(overridden 200 rows/s)", "the region
//     the dashboards had mislabelled as eu-central", "(antes 200 filas/s)";
//     "antes" followed by de, del or que is a preposition of time;
//   - a frame after the value bears on it right after it, past commas,
//     values coordinated with it, a relative word, an adverb ("ya") and an
//     appositive ("200 rows/s was considered", "200 filas/s, la cifra
//     anterior, ya descartada", "200 rows/s, which was replaced by …");
//   - in brackets, a frame after the value anywhere in the parenthetical
//     bears on every value in it: "(its rate and chunk defaults, 200
//     rows/s and 1000, are superseded)".
//
// The verdict is of kind Former, with the frame as its cue. A value
// stated as current in a plain clause ("the rate is 200 rows/s") has no
// frame.
func (x *Text) HistoryFrame(start, end int) (Verdict, bool) {
	x.buildClasses()
	x.buildValFrames()
	ci := x.clauseAt(start)
	if ci < 0 {
		return Verdict{}, false
	}
	c := &x.clauses[ci]
	first, last := -1, -1 // the value's tokens, positions in c.toks
	for j, ti := range c.toks {
		tk := x.toks[ti]
		if tk.b > start && tk.a < end {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	if first < 0 {
		return Verdict{}, false
	}
	frames := x.vf.byClause[ci]
	verdict := func(f valFrame) (Verdict, bool) {
		return Verdict{Kind: Former, Cue: x.s[f.a:f.b], At: f.a}, true
	}
	// before the value
	for k := len(frames) - 1; k >= 0; k-- {
		f := frames[k]
		if !f.before || f.last >= first {
			continue
		}
		if f.temporal(x, c) {
			continue
		}
		if x.reachesForward(c, f.last+1, first) {
			return verdict(f)
		}
	}
	// after the value
	for _, f := range frames {
		if !f.after || f.first <= last {
			continue
		}
		if c.parent >= 0 || x.reachesBack(c, last+1, f.first) {
			return verdict(f)
		}
	}
	return Verdict{}, false
}

// valFrame is one history frame found in a clause: tokens [first, last]
// of the clause, and whether it bears on what follows (before) or on what
// precedes it.
type valFrame struct {
	first, last int
	a, b        int
	// before: it bears on what follows; after: on what precedes (a
	// word may do both: "replaced 200 rows/s", "200 rows/s replaced")
	before, after bool
	antes         bool // the word "antes" alone
}

// temporal reports whether frame f is "antes" used as a preposition of
// time ("antes del cierre").
func (f valFrame) temporal(x *Text, c *clause) bool {
	if !f.antes || f.last+1 >= len(c.toks) {
		return false
	}
	switch x.toks[c.toks[f.last+1]].low {
	case "de", "del", "que":
		return true
	}
	return false
}

type valFrames struct {
	byClause [][]valFrame
}

// buildValFrames finds the history frames of every clause: the entries of
// sense superseded (their own trie) and the history entries of sense
// past the class reader found.
func (x *Text) buildValFrames() {
	x.vfOnce.Do(func() {
		tab := classesOf()
		x.vf.byClause = make([][]valFrame, len(x.clauses))
		for k := range x.clauses {
			c := &x.clauses[k]
			var out []valFrame
			for j := 0; j < len(c.toks); j++ {
				best, bestEntries := x.longest(tab.valTrie, c, j)
				if best < 0 {
					continue
				}
				f := valFrame{first: j, last: best, a: x.toks[c.toks[j]].a, b: x.toks[c.toks[best]].b}
				for _, e := range bestEntries {
					f.before = f.before || tab.entries[e].Follows
					f.after = f.after || !tab.entries[e].Follows
				}
				f.antes = j == best && x.toks[c.toks[j]].low == "antes"
				out = append(out, f)
				j = best
			}
			for _, h := range x.ci.byClause[k] {
				for _, e := range h.entries {
					if en := tab.entries[e]; en.Class == HistoryClass {
						out = append(out, valFrame{first: h.first, last: h.last, a: h.a, b: h.b, before: en.Follows, after: !en.Follows})
						break
					}
				}
			}
			for i := 1; i < len(out); i++ {
				for j := i; j > 0 && out[j].first < out[j-1].first; j-- {
					out[j], out[j-1] = out[j-1], out[j]
				}
			}
			x.vf.byClause[k] = out
		}
	})
}

// Words that end the reach of a history frame over the words between it
// and a value: a conjunction that starts another predicate.
var frameBarriers = set(`and but so because since while whereas now then y pero porque aunque mientras ahora luego pues`)

// reachesForward reports whether a frame that ends before position from
// of clause c reaches the value at position to: no other value and no
// barrier between them.
func (x *Text) reachesForward(c *clause, from, to int) bool {
	for j := from; j < to; j++ {
		tk := x.toks[c.toks[j]]
		if tk.value || frameBarriers[tk.low] {
			return false
		}
	}
	return true
}

// Words a frame after a value may stand behind: relative words, adverbs
// and coordinators of values.
var frameSkips = set(`which that who whose que cual cuales quien already now since ya hoy and or y o e ni
	also too tambien both ambos ambas`)

// reachesBack reports whether a frame that starts at position to of
// clause c bears on the value that ends before position from: only
// commas, values (coordinated with it), skip words and an appositive (a
// determiner and at most three words, closed by a comma) between them.
func (x *Text) reachesBack(c *clause, from, to int) bool {
	for j := from; j < to; j++ {
		tk := x.toks[c.toks[j]]
		switch {
		case !tk.word && (tk.low == "," || tk.low == "-"):
		case tk.value, frameSkips[tk.low], copulas[tk.low], auxiliaries[tk.low]:
		case determiners[tk.low]:
			// an appositive: "200 filas/s, la cifra anterior, ya …"
			k := j + 1
			for k < to && k <= j+4 && x.toks[c.toks[k]].word {
				k++
			}
			if k >= to || x.toks[c.toks[k]].low != "," {
				return false
			}
			j = k
		default:
			return false
		}
	}
	return true
}
