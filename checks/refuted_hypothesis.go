package checks

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/polarity"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// RefutedHypothesisCheck checks a `refuted_hypothesis` invariant: once the
// event at refuted_by_seq refuted a hypothesis, the summary never presents
// it as established or still open, in any field.
//
// Rule. Every clause that matches the invariant's patterns is read by
// class (internal/polarity): stated as it was ("the CDN adds the
// latency"), or as open, likely or confirmed ("is still the most plausible
// explanation", "remains to be seen", "sigue en pie"), it contradicts the
// refutation; a negation, a retraction ("ruled out", "refuted",
// "descartada"), a cancellation or a mistake cue bearing on it, a frame of
// history ("initially we thought") or reported speech does not. Affirming
// idioms negate nothing: "No doubt the CDN adds the latency" asserts it. A
// clause that names the hypothesis in words no table holds ("was
// revisited") makes the check uncertain when nothing else fails.
// On a structured summary: (1) no field but hypotheses[] and
// corrections[].supersedes asserts the hypothesis (verified, decisions,
// constraints, next_steps, errors, text, …); (2) every hypotheses[] entry
// whose claim matches has status `refuted` and resolved_by equal to
// refuted_by_seq (`open`, `confirmed` or no status fail, as does a wrong or
// missing resolved_by; the claim itself is the hypothesis as it was
// stated, hedges included, and its status says what became of it); (3) when conclusion patterns are given, one of them
// matches some field in a clause that affirms it. On a text-only summary,
// (1) and (3) read text. A summary that does not mention the hypothesis at
// all passes (1) and (2). Skip while refuted_by_seq is after the cut.
type RefutedHypothesisCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.RefutedHypothesis
}

// Check implements Check.
func (c RefutedHypothesisCheck) Check(in *Input) []result.CheckResult {
	if c.Inv == nil {
		return nilInvariant(result.TypeRefutedHypothesis)
	}
	inv := c.Inv
	st, r, ok := invariant(in, inv, inv.RefutedBySeq)
	if !ok {
		return []result.CheckResult{r}
	}
	if r, bad := badPattern(r, inv.Match, inv.Conclusion); bad {
		return []result.CheckResult{r}
	}
	var msgs []string
	fail := func(e result.Evidence, msg string) {
		r.Evidence = append(r.Evidence, e)
		msgs = append(msgs, msg)
	}
	fields := [][]leaf{st.textLeaves()}
	if !st.sum.TextOnly() {
		fields = st.currentOutsideHypotheses()
	}
	// Every clause that names the hypothesis is read: stated as it was,
	// or as likely, open or confirmed, it contradicts the refutation.
	sub := polarity.HypothesisSubject()
	rs := st.readPatterns(fields, sub, inv.Match)
	if c, ok := firstReading(rs, polarity.Contradicts); ok {
		f := fieldOf(c.l.ptr)
		how := "asserted"
		if c.r.Class == polarity.Epistemic {
			how = fmt.Sprintf("restated as %s (%s)", c.r.Sense, readingNote(c.r))
		}
		fail(result.Evidence{Pointer: c.l.ptr, Seq: inv.RefutedBySeq, Text: clip.String(c.l.text, clipLen), Pattern: anyOf(inv.Match), Note: readingNote(c.r)},
			fmt.Sprintf("the hypothesis refuted at #%d is %s in %s at %s (%q)", inv.RefutedBySeq, how, f, c.l.ptr, clip.String(c.r.Clause, clipLen)))
	}
	uncertain, hasUncertain := firstReading(rs, polarity.CannotTell)
	listed := 0
	claims := st.hypothesisClaims()
	for i, h := range st.sum.Hypotheses {
		p, _, ok := textmatch.FindAny(inv.Match, claims[i])
		if !ok {
			continue
		}
		listed++
		status := h.Status
		if status == "" {
			status = "(none)"
		}
		if h.Status != summary.HypothesisRefuted {
			fail(result.Evidence{Pointer: ptrf("hypotheses", i, "status"), Seq: inv.RefutedBySeq, Text: clip.String(h.Claim, clipLen), Pattern: p, Note: "status " + status},
				fmt.Sprintf("hypothesis %s is %s after its refutation at #%d", fmt.Sprintf("/hypotheses/%d", i), status, inv.RefutedBySeq))
			continue
		}
		if h.ResolvedBy != inv.RefutedBySeq {
			fail(result.Evidence{Pointer: ptrf("hypotheses", i, "resolved_by"), Seq: inv.RefutedBySeq, Text: fmt.Sprint(h.ResolvedBy), Pattern: p, Note: fmt.Sprintf("want %d", inv.RefutedBySeq)},
				fmt.Sprintf("hypothesis %s has resolved_by %d; it was refuted at #%d", fmt.Sprintf("/hypotheses/%d", i), h.ResolvedBy, inv.RefutedBySeq))
		}
	}
	var concl *result.Evidence
	if len(inv.Conclusion) > 0 {
		concLeaves := st.current()
		if st.sum.TextOnly() {
			concLeaves = [][]leaf{st.textLeaves()}
		}
		if o, ok := firstAffirmed(st.occurrencesIn(concLeaves, inv.Conclusion, contradicts)); ok {
			concl = &result.Evidence{Pointer: o.l.ptr, Seq: inv.RefutedBySeq, Text: clip.String(o.match, clipLen), Pattern: o.pattern, Note: "conclusion"}
		} else {
			fail(result.Evidence{Seq: inv.RefutedBySeq, Pattern: anyOf(inv.Conclusion), Note: "conclusion missing"},
				fmt.Sprintf("the conclusion of the refutation at #%d is missing (%s)", inv.RefutedBySeq, anyOf(inv.Conclusion)))
		}
	}
	if len(msgs) > 0 {
		r.Status = result.Fail
		r.Message = msgs[0]
		if len(msgs) > 1 {
			r.Message += fmt.Sprintf(" (%s)", plural(len(msgs), "problem"))
		}
		return []result.CheckResult{r}
	}
	if !hasUncertain {
		// in a language the patterns are not in, the hypothesis is found
		// by its names only, and cannot be told; in theirs, a clause that
		// names it as a cause in other words cannot be told either
		e, ok := st.hypothesisAcrossLanguages(fields, inv)
		if !ok {
			e, ok = st.hypothesisAsCause(fields, inv)
		}
		if ok {
			r.Status = result.Uncertain
			r.Message = e.Note
			r.Evidence = append(r.Evidence, e)
			return []result.CheckResult{r}
		}
	}
	if hasUncertain {
		r.Status = result.Uncertain
		r.Message = uncertainMessage(uncertain, fmt.Sprintf("the hypothesis refuted at #%d", inv.RefutedBySeq))
		r.Evidence = append(r.Evidence, result.Evidence{Pointer: uncertain.l.ptr, Seq: inv.RefutedBySeq, Text: clip.String(uncertain.l.text, clipLen), Pattern: anyOf(inv.Match), Note: readingNote(uncertain.r)})
		return []result.CheckResult{r}
	}
	r.Status = result.Pass
	switch {
	case listed > 0:
		r.Message = fmt.Sprintf("hypothesis listed as refuted by #%d and nowhere as established", inv.RefutedBySeq)
	default:
		r.Message = "hypothesis not presented as established or open"
	}
	if concl != nil {
		r.Evidence = append(r.Evidence, *concl)
		r.Message += fmt.Sprintf("; conclusion kept at %s", concl.Pointer)
	}
	return []result.CheckResult{r}
}

// hypLang is what the refuted_hypothesis check knows of an invariant's
// patterns across languages, built once per scenario: the languages they
// are written in, and the names they hold (a literal word of three letters
// or more that no language's function words hold: redis, cdn-edge), which a
// clause in another language writes as they are.
type hypLang struct {
	langs []string
	names []string
}

func (st *state) hypothesisLanguages(inv *scenarios.RefutedHypothesis) hypLang {
	if st.sd != nil {
		if v, ok := st.sd.subjects.Load(inv); ok {
			return v.(hypLang)
		}
	}
	var res []*regexp.Regexp
	for _, p := range inv.Match {
		if re, err := textmatch.Compile(p); err == nil {
			res = append(res, re)
		}
	}
	var stmts []string
	if st.sd != nil {
		if i := st.sd.eventIndex(inv.HypothesisSeq); i >= 0 {
			stmts = append(stmts, st.sd.folded[i])
		}
	}
	h := hypLang{langs: polarity.LanguagesOf(res, stmts...)}
	seen := map[string]bool{}
	for _, w := range polarity.LiteralWords(res) {
		if len(w) >= 3 && polarity.Language(w) == "" && !seen[w] {
			seen[w] = true
			h.names = append(h.names, w)
		}
	}
	if st.sd != nil {
		got, _ := st.sd.subjects.LoadOrStore(inv, h)
		return got.(hypLang)
	}
	return h
}

// hypothesisAcrossLanguages finds a field written in a language the
// invariant's patterns are not in that names the hypothesis (one of its
// names) and either says it is open, likely or confirmed (an epistemic
// word of the class reader), or is a hypotheses[] entry whose status is
// not refuted. The patterns cannot tell whether it is the refuted idea:
// the check is uncertain, and says why.
func (st *state) hypothesisAcrossLanguages(fields [][]leaf, inv *scenarios.RefutedHypothesis) (result.Evidence, bool) {
	h := st.hypothesisLanguages(inv)
	if len(h.langs) == 0 || len(h.names) == 0 {
		return result.Evidence{}, false
	}
	look := func(l leaf) (lang, what string, ok bool) {
		low := l.lower
		if low == "" {
			low = strings.ToLower(l.folded)
		}
		if len(low) != len(l.folded) {
			return "", "", false
		}
		var spans []polarity.Span
		for _, n := range h.names {
			for off := 0; off < len(low); {
				i := findToken(low[off:], n)
				if i < 0 {
					break
				}
				spans = append(spans, polarity.Span{Start: off + i, End: off + i + len(n)})
				off += i + len(n)
			}
		}
		if len(spans) == 0 {
			return "", "", false
		}
		// the language last: most fields name none of the names
		lang = st.pol(l).Language()
		if lang == "" || slices.Contains(h.langs, lang) {
			return "", "", false
		}
		if isHypothesisClaim(l.ptr) {
			return lang, "", true
		}
		for _, r := range st.pol(l).Read(polarity.HypothesisSubject(), spans) {
			switch {
			case r.Reading != polarity.Contradicts:
			case r.Class == polarity.Epistemic:
				return lang, "as open, likely or confirmed", true
			case statedOf(low, spans):
				// "el Redis de sesiones expulsa claves": the name stands as
				// what a plain statement is about, which may restate the
				// idea or refute it in words no table holds
				return lang, "in a plain statement", true
			}
		}
		return "", "", false
	}
	note := func(l leaf, lang, what string) result.Evidence {
		return result.Evidence{Pointer: l.ptr, Seq: inv.RefutedBySeq, Text: clip.String(l.text, clipLen), Pattern: anyOf(inv.Match),
			Note: fmt.Sprintf("%s, written in %s, which the patterns (%s) are not in, names the hypothesis refuted at #%d (%s) %s: cannot tell whether it restates it",
				l.ptr, languageName(lang), languageNames(h.langs), inv.RefutedBySeq, strings.Join(h.names, ", "), what)}
	}
	for _, seg := range fields {
		for _, l := range seg {
			if lang, what, ok := look(l); ok {
				return note(l, lang, what), true
			}
		}
	}
	if st.sum.TextOnly() {
		return result.Evidence{}, false
	}
	claims := st.hypothesisClaims()
	for i, hy := range st.sum.Hypotheses {
		if hy.Status == summary.HypothesisRefuted {
			continue
		}
		if _, _, ok := textmatch.FindAny(inv.Match, claims[i]); ok {
			continue // the patterns read it
		}
		l := leaf{ptr: ptrf("hypotheses", i, "claim"), text: hy.Claim, folded: claims[i]}
		if lang, _, ok := look(l); ok {
			status := hy.Status
			if status == "" {
				status = "(none)"
			}
			return note(l, lang, "with status "+status), true
		}
	}
	return result.Evidence{}, false
}

// causeWords say that something is the cause of something else, in the
// words a summary uses when the patterns' verbs are not there ("the CDN
// turned out to be the culprit for the latency", "Cloudflare is behind
// the extra latency").
var causeWords = set(`cause causes caused causing culprit culprits behind responsible blame blamed explains explained explaining attributable attributed causa causas causado causada causante culpable culpa responsable explica explican`)

// framedWords present an idea as a guess, or its refutation, in words the
// class reader does not link to the names: a field that holds one of them
// ("we first thought the CDN was behind it; #31 disproved it", "the CDN was
// suspected of causing it until #31") reports the idea, it does not assert
// it; "as first suspected" confirms the guess and frames nothing.
var framedWords = set(`thought suspected suspect suspicion suspicions assumed believed guessed guess hypothesis hypothesized theory hunch speculated disproved disproven refuted ruled excluded debunked cleared exonerated falsified sospecha sospechamos sospechaba pensamos pensabamos creimos creiamos supusimos hipotesis teoria descartado descartada descartamos refutado refutada desmentido desmentida`)

// hypothesisAsCause finds a clause, in any language and outside a
// hypotheses[] entry marked refuted, that the patterns do not match but that names two of the hypothesis's names with
// a word of cause, and that no negation, cancellation, permission,
// retraction or mistake bears on: "the CDN turned out to be the culprit
// for the latency after all". It may re-assert the refuted idea in other
// words, or state another cause beside the names: the check cannot tell,
// and says so.
func (st *state) hypothesisAsCause(fields [][]leaf, inv *scenarios.RefutedHypothesis) (result.Evidence, bool) {
	h := st.hypothesisLanguages(inv)
	if len(h.names) < 2 {
		return result.Evidence{}, false
	}
	for _, seg := range fields {
		for _, l := range seg {
			low := l.lower
			if low == "" {
				low = strings.ToLower(l.folded)
			}
			if len(low) != len(l.folded) {
				continue
			}
			type at struct {
				word string
				pos  int
			}
			var names, causes []at
			for _, n := range h.names {
				if causeWords[n] {
					continue
				}
				if i := findToken(low, n); i >= 0 {
					names = append(names, at{n, i})
				}
			}
			if len(names) == 0 {
				continue
			}
			for _, w := range wordsAt(low) {
				if causeWords[w.word] {
					causes = append(causes, at{w.word, w.pos})
				}
			}
			if len(causes) == 0 || matchesAny(inv.Match, l.folded) {
				continue // the patterns read a field they match
			}
			p := st.pol(l)
			// a field that says, of the names, that the idea was refuted,
			// or only was one ("we first thought", "was suspected of"),
			// restates no claim
			var spans []polarity.Span
			for _, n := range names {
				spans = append(spans, polarity.Span{Start: n.pos, End: n.pos + len(n.word)})
			}
			said := false
			for _, r := range p.Read(polarity.HypothesisSubject(), spans) {
				said = said || r.Reading == polarity.Affirms || r.Reading == polarity.History
			}
			ws := wordsAt(low)
			for i, w := range ws {
				if !framedWords[w.word] {
					continue
				}
				// "as first suspected", "como sospechabamos" confirm the
				// guess: no frame
				confirms := false
				for j := max(i-2, 0); j < i; j++ {
					confirms = confirms || ws[j].word == "as" || ws[j].word == "como"
				}
				said = said || !confirms
			}
			if said {
				continue
			}
			// in the patterns' language the names of both sides of the
			// idea are there to be found; in another, its names (cdn,
			// redis) are written as they are and the rest is translated
			need, either := 2, false
			if lang := p.Language(); lang != "" && !slices.Contains(h.langs, lang) {
				need, either = 1, true
			}
			if len(names) < need {
				continue
			}
			for _, c := range causes {
				var with []string
				bears := false // a name the word of cause is said of
				for _, n := range names {
					if !p.SameClause(n.pos, c.pos) {
						continue
					}
					with = append(with, n.word)
					switch {
					case n.pos < c.pos && !detached(low[n.pos+len(n.word):c.pos]):
						bears = true
					case either && n.pos > c.pos && !detached(low[c.pos+len(c.word):n.pos]):
						bears = true // "la latencia es culpa de Cloudflare"
					}
				}
				if len(with) < need || !bears {
					continue
				}
				if _, denied := p.Has(c.pos, polarity.Contradiction...); denied {
					continue
				}
				note := fmt.Sprintf("%s names the hypothesis refuted at #%d (%s) with a word of cause (%q) in words its patterns (%s) do not match: cannot tell whether it re-asserts it",
					l.ptr, inv.RefutedBySeq, strings.Join(with, ", "), c.word, anyOf(inv.Match))
				return result.Evidence{Pointer: l.ptr, Seq: inv.RefutedBySeq, Text: clip.String(l.text, clipLen), Pattern: anyOf(inv.Match), Note: note}, true
			}
		}
	}
	return result.Evidence{}, false
}

// detached reports whether the words between a name and a word of cause
// after it attach the cause to something else: a comma or a colon, or a
// relative pronoun ("the CDN cut-over came the same morning as v2.31.0,
// which caused the latency").
func detached(between string) bool {
	if strings.ContainsAny(between, ",;:") {
		return true
	}
	for _, w := range wordsAt(between) {
		if relativeWords[w.word] || w.word == "that" {
			return true
		}
	}
	return false
}

// wordAt is a word of a text and its byte offset.
type wordAt struct {
	word string
	pos  int
}

// wordsAt returns the words (letters) of low with their offsets.
func wordsAt(low string) []wordAt {
	var out []wordAt
	start := -1
	for i, r := range low {
		if unicode.IsLetter(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, wordAt{low[start:i], start})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, wordAt{low[start:], start})
	}
	return out
}

// mentionWords put a name inside a phrase about something else: "la
// caché del DNS", "the cache of the DNS".
var mentionWords = set(`de del en con sobre para por al desde hacia of in on for with about from to into via`)

// statedOf reports whether one of the spans of low stands as what a
// clause says something of, not inside a prepositional phrase.
func statedOf(low string, spans []polarity.Span) bool {
	for _, sp := range spans {
		end := strings.TrimRight(low[:sp.Start], " ")
		start := strings.LastIndexAny(end, " ,;:(") + 1
		if !mentionWords[end[start:]] {
			return true
		}
	}
	return false
}

func isHypothesisClaim(ptr string) bool {
	return strings.HasPrefix(ptr, "/hypotheses/") && strings.HasSuffix(ptr, "/claim")
}
