package meaning

// Clause is a stretch of a text that says one thing: tokens T0 to T1
// (exclusive), bytes A to B, in sentence Sent.
type Clause struct {
	T0, T1 int
	A, B   int
	Sent   int
	// Heading is the index of a short clause ending in a colon that opens
	// this one ("Done: the migration, the reindex"), or -1.
	Heading int
}

// clauseMarks end a clause; sentenceMarks also end a sentence.
var (
	clauseMarks   = set(`; : | — – - … • *`)
	sentenceMarks = set(". ! ? \n")
	// contrast words start a new clause: what follows says something else.
	contrastWords = set(`but however whereas pero sino`)
	// abbreviations whose dot ends no clause.
	abbreviations = set(`e.g i.e vs cf etc approx ca no fig`)
)

// clauses cuts toks into clauses. A dash, a colon, a semicolon, a pipe and
// a bullet end a clause (a parenthesis does not: what it holds qualifies
// its clause); a sentence ends at . ! ?
// (not after an abbreviation) and at a newline; "but", "however", "pero"
// start a clause of their own.
func clauses(toks []Token) []Clause {
	var out []Clause
	start, sent := 0, 0
	flush := func(end int) {
		if end > start && hasWord(toks[start:end]) {
			out = append(out, Clause{T0: start, T1: end, A: toks[start].A, B: toks[end-1].B, Sent: sent, Heading: -1})
		}
		start = end
	}
	code := false // inside `…`: a code span is one phrase
	for i, tk := range toks {
		if tk.W == "`" {
			code = !code
		}
		switch {
		case code && tk.W != "\n":
		case tk.Word && contrastWords[tk.W] && i > start && !(tk.W == "yet" && toks[i-1].W == "not"):
			// "not yet" is no contrast: "not yet approved", "not yet finished"
			flush(i)
		case tk.Word:
		case tk.W == "[" && messageHeader(toks, i) && i > start:
			// "[#61 assistant]": a transcript's next message is a
			// statement of its own, whatever punctuation the last lacked
			flush(i)
			sent++
		case sentenceMarks[tk.W] && !(tk.W == "." && i > 0 && abbreviation(toks, i-1)):
			flush(i)
			start = i + 1
			sent++
		case clauseMarks[tk.W]:
			flush(i)
			start = i + 1
		}
	}
	flush(len(toks))
	markHeadings(toks, out)
	return out
}

// roles are the speakers of a transcript's message header.
var roles = set(`user assistant tool system developer`)

// messageHeader reports whether toks[i], a "[", opens a transcript's
// message header: "[#61 assistant]", "[#60 tool rb_ls]".
func messageHeader(toks []Token, i int) bool {
	return i+3 < len(toks) && toks[i+1].W == "#" && toks[i+2].Word && isDigits(toks[i+2].W) && roles[toks[i+3].W]
}

func isDigits(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

// abbreviation reports whether the word at i, before a dot, is an
// abbreviation whose dot ends no clause; "no" is one only before a number
// ("No. 5"), otherwise it ends a Spanish sentence ("La 4.2.0 no.").
func abbreviation(toks []Token, i int) bool {
	if !abbreviations[toks[i].W] {
		return false
	}
	if toks[i].W == "no" {
		return i+2 < len(toks) && toks[i+2].Value
	}
	return true
}

// markHeadings links each clause to a heading before it in its sentence or
// line: a clause of at most four words that ends right before a colon.
func markHeadings(toks []Token, cs []Clause) {
	for i := 1; i < len(cs); i++ {
		h := &cs[i-1]
		if cs[i].Sent != h.Sent && !endsAtColon(toks, h) {
			continue
		}
		switch {
		case endsAtColon(toks, h) && words(toks[h.T0:h.T1]) <= 4:
			cs[i].Heading = i - 1
		case h.Heading >= 0 && cs[i].Sent == h.Sent && !endsAtColon(toks, h):
			cs[i].Heading = h.Heading
		}
	}
}

func endsAtColon(toks []Token, c *Clause) bool {
	return c.T1 < len(toks) && toks[c.T1].W == ":"
}

func hasWord(toks []Token) bool { return words(toks) > 0 }

func words(toks []Token) int {
	n := 0
	for _, t := range toks {
		if t.Word {
			n++
		}
	}
	return n
}

// set makes a set of the space-separated words of s.
func set(s string) map[string]bool {
	m := map[string]bool{}
	w := ""
	for _, r := range s + " " {
		if r == ' ' {
			if w != "" {
				m[w] = true
			}
			w = ""
			continue
		}
		w += string(r)
	}
	return m
}
