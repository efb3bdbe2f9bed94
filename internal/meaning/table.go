package meaning

import (
	"regexp"
	"strings"
)

// A value in a markdown table is read with its column and its row: a
// column headed "was" or "old" names it as the old value, one headed
// "now" or "new" as the value now, and otherwise the row's other cells
// say what it is ("| values-prod.yaml | old, from before the move |
// stale |"), each read as a predicate of it.

// oldColumn and nowColumn are headers that give their cells a role.
var (
	oldColumn = set(`was old before previous previously former formerly superseded replaced earlier initial original antes anterior antiguo antigua era previo`)
	nowColumn = set(`now new current corrected after actual ahora nuevo nueva actual corregido despues correct`)
)

// tableCell is the cell of a table body row that holds a value.
type tableCell struct {
	header string   // the column's header, trimmed
	others []string // the row's other cells, trimmed
}

// tableCellAt returns the cell of a markdown table's body row that holds
// bytes a to b of t; ok is false outside a table's body. The text may be
// folded onto one line ("| a | b | |---|---| | x | y |"): a table is
// found by its separator row, which gives the number of columns.
func (t *Text) tableCellAt(a, b int) (tableCell, bool) {
	sepA, sepB, n := lastSeparator(t.s[:a])
	if n == 0 {
		return tableCell{}, false
	}
	header, ok := cellsBefore(t.s[:sepA], n)
	if !ok {
		return tableCell{}, false
	}
	for off := sepB; ; {
		row, spans, next, ok := rowAt(t.s, off, n)
		if !ok || spans[0][0] > a {
			return tableCell{}, false
		}
		for j, sp := range spans {
			if a >= sp[0] && b <= sp[1] {
				out := tableCell{header: header[j]}
				for k, c := range row {
					if k != j {
						out.others = append(out.others, c)
					}
				}
				return out, true
			}
		}
		off = next
	}
}

// separatorRe is a table's separator row: |---|:--:|.
var separatorRe = regexp.MustCompile(`\|(?:[ \t]*:?-+:?[ \t]*\|)+`)

// lastSeparator finds the last separator row of s: its bytes and its
// number of columns, 0 when there is none.
func lastSeparator(s string) (a, b, n int) {
	if !strings.Contains(s, "-|") {
		return 0, 0, 0
	}
	ms := separatorRe.FindAllStringIndex(s, -1)
	if len(ms) == 0 {
		return 0, 0, 0
	}
	m := ms[len(ms)-1]
	return m[0], m[1], strings.Count(s[m[0]:m[1]], "|") - 1
}

// cellsBefore returns the n cells of the row that ends s ("| a | b |").
func cellsBefore(s string, n int) ([]string, bool) {
	s = strings.TrimRight(s, " \n")
	if !strings.HasSuffix(s, "|") {
		return nil, false
	}
	parts := strings.Split(s[:len(s)-1], "|")
	if len(parts) < n+1 {
		return nil, false
	}
	out := parts[len(parts)-n:]
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out, true
}

// rowAt reads the row of n cells that starts at or after off: its cells
// trimmed, their byte spans, and where the next row may start.
func rowAt(s string, off, n int) (row []string, spans [][2]int, next int, ok bool) {
	for off < len(s) && (s[off] == ' ' || s[off] == '\n') {
		off++
	}
	if off >= len(s) || s[off] != '|' {
		return nil, nil, 0, false
	}
	at := off + 1
	for k := 0; k < n; k++ {
		j := strings.IndexByte(s[at:], '|')
		if j < 0 {
			return nil, nil, 0, false
		}
		row = append(row, strings.TrimSpace(s[at:at+j]))
		spans = append(spans, [2]int{at, at + j})
		at += j + 1
	}
	return row, spans, at, true
}

// tableOld tells whether the table cell at bytes a to b names its value
// as the old one, and why; decided is false when the table says nothing
// of it.
func (t *Text) tableOld(a, b int) (old bool, why string, decided bool) {
	cell, ok := t.tableCellAt(a, b)
	if !ok {
		return false, "", false
	}
	h := strings.Join(strings.Fields(strings.ToLower(cell.header)), " ")
	switch {
	case oldColumn[h] || strings.HasPrefix(h, "old ") || strings.HasPrefix(h, "previous "):
		return true, "in the column " + quote(cell.header), true
	case nowColumn[h] || strings.HasPrefix(h, "new ") || strings.HasPrefix(h, "current "):
		return false, "in the column " + quote(cell.header), true
	}
	value := t.s[a:b]
	for _, c := range cell.others {
		if c == "" {
			continue
		}
		// the cell read as a predicate of the value: "X is stale", "X is
		// old, from before the move"
		s := value + " is " + c
		x := New(s)
		ci := x.ClauseAt(0)
		if ci < 0 {
			continue
		}
		m := Mention{}
		m.T0, m.T1 = x.tokenRange(ci, 0, len(value))
		if m.T0 < 0 || x.valueBetween(m.T1, len(x.toks)) {
			continue // another value: "| rate | 200 rows/s | 50 rows/s |"
		}
		if h, old := x.oldMarker(ci, m); old {
			return true, "in its row: " + quote(x.words(h.T0, h.T1)), true
		}
		for _, h := range x.hitsOf(ci, Stale) {
			if h.T0 >= m.T1 {
				return true, "in its row: " + quote(x.words(h.T0, h.T1)), true
			}
		}
	}
	return false, "", false
}
