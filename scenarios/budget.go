package scenarios

// MaxNodes bounds the YAML nodes (keys, values, lists, mappings) of one
// scenario file. The YAML parser builds the whole node tree before the
// loader sees a single event, at roughly 200 bytes a node, so the count is
// bounded before parsing: a file of 8 MiB of tiny values ("- {role: user,
// text: x}" 280,001 times) would otherwise cost half a gigabyte before the
// event limit could refuse it. 500,000 nodes hold MaxEvents events of 25
// nodes each (a tool call with its arguments takes about 15).
const MaxNodes = 500_000

// nodeBound returns an upper bound on the nodes yaml.v3 builds from data,
// in one pass over the bytes without parsing, and the offset at which the
// bound first exceeds limit (-1 when it never does).
//
// The bound counts every token that can start a node: a scalar (plain,
// quoted, or a block scalar whose content lines are skipped), an alias, a
// flow collection, and each block indicator ("- ", "? ", ": ") that may
// open an implicit collection or stand for a null. It never counts fewer
// nodes than the parser makes (the test and the fuzz target check this);
// it counts up to about twice as many for block-style files, which the
// limit allows for. Tags and anchors make no node and are skipped.
func nodeBound(data []byte, limit int) (n, over int) {
	// The document node and the root collection have no token of their own.
	n, over = 2, -1
	type frame struct{ mapping, key, colon bool }
	var flow []frame
	lineStart := 0
	last := -1      // column of the last token that started on this line
	scalar := false // the last token was a node that a ':' may make a key
	add := func(at int) {
		n++
		if n > limit && over < 0 {
			over = at
		}
	}
	// token marks a scalar or collection inside the innermost flow mapping.
	token := func() {
		if len(flow) > 0 {
			flow[len(flow)-1].key = true
		}
	}
	// entryEnd counts the null value of a flow mapping key given without
	// ':' ("{a, b}").
	entryEnd := func(at int) {
		if f := &flow[len(flow)-1]; f.mapping && f.key && !f.colon {
			add(at)
		}
	}
	space := func(j int) bool {
		return j >= len(data) || data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r'
	}
	flowInd := func(c byte) bool { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}' }
	i := 0
	for i < len(data) && over < 0 {
		c := data[i]
		col := i - lineStart
		switch {
		case c == '\n':
			i++
			lineStart, last = i, -1
			if len(flow) == 0 {
				scalar = false
			}
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			add(i)
			token()
			last = col
			j := i + 1
			for j < len(data) {
				if data[j] == '\n' {
					lineStart = j + 1
				}
				if c == '"' && data[j] == '\\' {
					j += 2
					continue
				}
				if data[j] == c {
					if c == '\'' && j+1 < len(data) && data[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			i = j + 1
			scalar = true
		case c == '[' || c == '{':
			add(i)
			token()
			flow = append(flow, frame{mapping: c == '{'})
			scalar = false
			i++
		case c == ']' || c == '}':
			if len(flow) > 0 {
				entryEnd(i)
				flow = flow[:len(flow)-1]
			}
			scalar = true
			i++
		case c == ',' && len(flow) > 0:
			entryEnd(i)
			f := &flow[len(flow)-1]
			f.key, f.colon = false, false
			scalar = false
			i++
		case c == ':' && (space(i+1) || len(flow) > 0):
			if !scalar {
				add(i) // ": a" has a null key
			}
			if len(flow) == 0 {
				add(i) // a null value, or the mapping this key opens
			} else {
				f := &flow[len(flow)-1]
				f.colon = true
				if !f.mapping {
					add(i) // "[a: b]" is a list of one-pair mappings
				}
				j := i + 1
				for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\r' || data[j] == '\n') {
					j++
				}
				if j >= len(data) || data[j] == ',' || data[j] == '}' || data[j] == ']' || data[j] == '#' {
					add(i) // an empty (null) value
				}
			}
			scalar = false
			i++
		case (c == '-' || c == '?') && space(i+1) && len(flow) == 0:
			add(i) // the list this entry opens, or a null entry
			if c == '?' {
				add(i) // "?" alone: a null key and a null value
			}
			last = col
			scalar = false
			i++
		case (c == '|' || c == '>') && len(flow) == 0 && blockHeader(data[i+1:]):
			add(i)
			parent := last
			if parent < 0 {
				parent = col
			}
			// Skip the header line, then every blank line or line indented
			// deeper than the parent: the scalar's content.
			for i < len(data) && data[i] != '\n' {
				i++
			}
			for i < len(data) {
				j := i + 1
				k := j
				for k < len(data) && data[k] == ' ' {
					k++
				}
				if k < len(data) && data[k] != '\n' && data[k] != '\r' && !(data[k] == '\t' && blankRest(data[k:])) && k-j <= parent {
					break
				}
				i = k
				for i < len(data) && data[i] != '\n' {
					i++
				}
			}
			// i is at the newline before the next structural line (or the end).
		case c == '!':
			// A tag: part of the node that follows.
			for i < len(data) && !space(i) && !(len(flow) > 0 && flowInd(data[i])) {
				i++
			}
		case c == '&':
			// An anchor: part of the node that follows. Its name stops
			// where the parser's does, at the first odd character.
			i++
			for i < len(data) && anchorChar(data[i]) {
				i++
			}
		default:
			// A plain scalar or an alias: up to ": ", " #", the end of the
			// line or, in a flow collection, a flow indicator. A plain
			// scalar continued on the next line counts again there.
			add(i)
			token()
			last = col
			j := i + 1
			for j < len(data) {
				d := data[j]
				if d == '\n' || d == ':' && (space(j+1) || len(flow) > 0 && j+1 < len(data) && flowInd(data[j+1])) ||
					d == '#' && (data[j-1] == ' ' || data[j-1] == '\t') || len(flow) > 0 && flowInd(d) {
					break
				}
				j++
			}
			i = j
			scalar = true
		}
	}
	return n, over
}

// blockHeader reports whether rest (what follows a '|' or '>') is the rest
// of a block scalar header: indicators, then only space or a comment.
func blockHeader(rest []byte) bool {
	i := 0
	for i < len(rest) && (rest[i] == '-' || rest[i] == '+' || rest[i] >= '0' && rest[i] <= '9') {
		i++
	}
	if i < len(rest) && rest[i] != ' ' && rest[i] != '\t' && rest[i] != '\n' && rest[i] != '\r' {
		return false
	}
	return true
}

// blankRest reports whether b holds only spaces and tabs up to its line end.
func blankRest(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r':
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}

func anchorChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
