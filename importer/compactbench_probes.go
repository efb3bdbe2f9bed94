package importer

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

const unknownOption = "The conversation does not say."

// itemProbes turns each evaluation item into a probe.
func (cv *cbConverter) itemProbes() {
	for _, it := range cv.c.Items {
		check := ""
		if v, ok := it.Expected["check"]; ok {
			json.Unmarshal(v, &check)
		}
		vals := itemValues(it)
		kind := it.ItemType
		if kind == "" {
			kind = it.Type
		}
		why := fmt.Sprintf("evaluation item %s (%s, %s)", it.Key, kind, check)
		if strings.TrimSpace(it.Prompt) == "" {
			cv.note("%s: no prompt, no probe", why)
			continue
		}
		switch check {
		case "contains_normalized", "exact":
			if len(vals) != 1 {
				cv.note("%s: no value to compare with, no probe", why)
				continue
			}
			cv.answerProbe(it, why, vals[0])
		case "set_match":
			if len(vals) == 0 {
				cv.note("%s: no values, no probe", why)
				continue
			}
			cv.setProbe(it, why, vals)
		case "forbidden_absent":
			if len(vals) != 1 {
				cv.note("%s: no value to compare with, no probe", why)
				continue
			}
			cv.avoidProbe(it, why, vals[0])
		default:
			cv.note("%s: unknown check %q, no probe", why, check)
			cv.warns = append(cv.warns, fmt.Sprintf("evaluation item %s: unknown check %q (skipped)", it.Key, check))
		}
	}
}

type option struct {
	key, text string
	requires  []string
}

func (cv *cbConverter) probe(id, question, why string, opts []option, expect string) {
	o := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	req := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, op := range opts {
		o.Content = append(o.Content, str(op.key), str(op.text))
		if len(op.requires) > 0 {
			ps := make([]*yaml.Node, len(op.requires))
			for i, p := range op.requires {
				ps[i] = str(p)
			}
			req.Content = append(req.Content, str(op.key), flowSeq(ps...))
		}
	}
	pid := cv.id(id)
	cv.built = append(cv.built, cbProbe{id: pid, why: why, opts: opts, expect: expect})
	cv.probes = append(cv.probes, withComment(mapping(
		"id", str(pid),
		"question", str(question),
		"options", o,
		"expect", str(expect),
		"requires", req,
	), why))
}

// answerProbe: the right answer needs the value's evidence; a confusable
// value from the case (when there is one) needs its own; an agent that
// has neither says the conversation does not say.
func (cv *cbConverter) answerProbe(it cbItem, why, v string) {
	pat, at, tail := cv.evidence(v, false)
	if pat == "" {
		cv.note("%s: the transcript never states %q, no probe", why, v)
		return
	}
	cv.markKeep(at, tail, why, v)
	opts := []option{{key: "answer", text: v, requires: []string{pat}}}
	if c := cv.confusable(v, it.Prompt); c != "" {
		if cp, _, _ := cv.evidence(c, false); cp != "" {
			opts = append(opts, option{key: "confused", text: c, requires: []string{cp}})
		}
	}
	opts = append(opts, option{key: "unknown", text: unknownOption})
	cv.probe(it.Key, it.Prompt, why+fmt.Sprintf(": the answer must contain %q", v), opts, "answer")
}

// markKeep marks the evidence turn of v, when it is before the cut, as
// one a faithful summary keeps. (Evidence after the cut is never compacted:
// probeWarnings says so for every probe.)
func (cv *cbConverter) markKeep(at int, tail bool, why, v string) {
	if !tail {
		cv.keep[at] = true
	}
}

// cbProbe is a probe as written: its id, why it was made, its options and
// the expected one.
type cbProbe struct {
	id, why, expect string
	opts            []option
}

// probeWarnings warns about every probe, mapped from an evaluation item or
// added from the ground truth, that cannot measure a summary:
//
//   - its expected option's evidence (every requires pattern) is stated
//     after the cut, in the final question, which is never compacted: the
//     agent finds it whatever the summary kept, so it can never regress;
//   - two of its options say the same thing (their words, or their
//     required evidence, are one): the agent sees one behaviour under two
//     letters and its choice between them means nothing.
func (cv *cbConverter) probeWarnings() {
	for _, p := range cv.built {
		for _, o := range p.opts {
			if o.key != p.expect || len(o.requires) == 0 {
				continue
			}
			var seqs []string
			for _, r := range o.requires {
				j, _ := cv.find(r, cv.cut, len(cv.events))
				if j < 0 {
					seqs = nil
					break
				}
				seqs = append(seqs, strconv.Itoa(j+1))
			}
			if len(seqs) > 0 {
				cv.warns = append(cv.warns, fmt.Sprintf("probe %s, %s: its answer %q is stated after the cut (seq %s), in the final question, which is never compacted: the probe can never regress",
					p.id, p.why, o.text, strings.Join(slices.Compact(seqs), ", ")))
			}
		}
		for i, a := range p.opts {
			for _, b := range p.opts[i+1:] {
				same := behaviour(a.text) == behaviour(b.text)
				if !same && len(a.requires) > 0 && slices.Equal(a.requires, b.requires) {
					same = true
				}
				if same {
					cv.warns = append(cv.warns, fmt.Sprintf("probe %s, %s: options %s (%q) and %s (%q) are one behaviour under two letters: an agent's choice between them means nothing",
						p.id, p.why, a.key, a.text, b.key, b.text))
				}
			}
		}
	}
}

// behaviour is an option's text as a behaviour: folded, its words only,
// and for a list ("a; b") its distinct items in order of first mention.
func behaviour(text string) string {
	var items []string
	for _, part := range strings.Split(fold(text), ";") {
		w := strings.Join(wordRE.FindAllString(part, -1), " ")
		if w != "" && !slices.Contains(items, w) {
			items = append(items, w)
		}
	}
	slices.Sort(items)
	return strings.Join(items, "; ")
}

func (cv *cbConverter) setProbe(it cbItem, why string, vals []string) {
	var reqs []string
	for _, v := range vals {
		pat, at, tail := cv.evidence(v, false)
		if pat == "" {
			cv.note("%s: the transcript never states %q, no probe", why, v)
			return
		}
		cv.markKeep(at, tail, why, v)
		reqs = append(reqs, pat)
	}
	opts := []option{{key: "all", text: strings.Join(vals, "; "), requires: reqs}}
	if len(vals) > 1 {
		opts = append(opts, option{key: "partial", text: strings.Join(vals[:len(vals)-1], "; "), requires: reqs[:len(reqs)-1]})
	}
	opts = append(opts, option{key: "unknown", text: unknownOption})
	cv.probe(it.Key, it.Prompt, why+fmt.Sprintf(": the answer must name all of %q", vals), opts, "all")
}

// avoidProbe: the answer must not contain f. The agent avoids it when it
// knows why: the decision that replaced it, the rule that forbids it, or
// the fact that ties it to someone else; an agent that knows none of that
// goes ahead with it.
func (cv *cbConverter) avoidProbe(it cbItem, why, f string) {
	ff := fold(f)
	var req string
	at := -1
	for old, nv := range cv.corrected {
		if strings.Contains(old, ff) || strings.Contains(ff, old) {
			req, at, _ = cv.evidence(nv, false)
			if req != "" {
				why += fmt.Sprintf(": %q was replaced by %q", f, nv)
			}
			break
		}
	}
	if req == "" {
		for fb, p := range cv.constrained {
			if strings.Contains(fb, ff) || strings.Contains(ff, fb) {
				req, at = p, -1
				if i, _ := cv.find(p, 0, cv.cut); i >= 0 {
					at = i
				}
				why += fmt.Sprintf(": the user forbade %q", fb)
				break
			}
		}
	}
	if req == "" {
		// Tie f to the entity stated with it, when the prompt names another.
		p, i, tail := cv.evidence(f, false)
		if p == "" {
			cv.note("%s: the transcript never states %q, no probe", why, f)
			return
		}
		req, at = p, i
		if !tail {
			if e := cv.owner(f, i, it.Prompt); e != "" {
				ep := strictPattern(e)
				near := ep + `\W+(?:\w+\W+){0,3}` + p + "|" + p + `\W+(?:\w+\W+){0,3}` + ep
				if _, ok := cv.match(near, cv.folded[i]); ok {
					req = near
					why += fmt.Sprintf(": %q goes with %q", f, e)
				}
			}
		}
		cv.markKeep(at, tail, why, f)
	} else if at >= 0 {
		cv.keep[at] = true
	}
	opts := []option{
		{key: "avoid", text: fmt.Sprintf("Answer without %q: the conversation rules it out here", f), requires: []string{req}},
		{key: "violate", text: fmt.Sprintf("Answer with %q: nothing in the conversation rules it out", f)},
	}
	cv.probe(it.Key, it.Prompt, why+fmt.Sprintf("; the answer must not contain %q", f), opts, "avoid")
}

// owner is the entity named in the sentence that states f at event i and
// not named in the prompt.
func (cv *cbConverter) owner(f string, i int, prompt string) string {
	fp := fold(prompt)
	text := cv.folded[i]
	best, bestDist := "", math.MaxInt
	fpos := strings.Index(text, fold(f))
	if fpos < 0 {
		return ""
	}
	for _, e := range cv.c.GroundTruth.entities {
		fe := fold(e.name)
		if fe == "" || strings.Contains(fp, fe) || strings.Contains(fold(f), fe) {
			continue
		}
		if k := strings.Index(text, fe); k >= 0 {
			d := k - fpos
			if d < 0 {
				d = -d
			}
			if d < bestDist {
				best, bestDist = e.name, d
			}
		}
	}
	return best
}

// covered reports whether an evaluation item already asks for v.
func (cv *cbConverter) covered(v string) bool {
	fv := fold(v)
	for _, o := range cv.values {
		fo := fold(o)
		if fo != "" && (strings.Contains(fv, fo) || strings.Contains(fo, fv)) {
			return true
		}
	}
	return false
}

// truthProbes asks about the ground truth no evaluation item asks about:
// immutable facts, entities, unresolved and deferred items.
func (cv *cbConverter) truthProbes() {
	gt := cv.c.GroundTruth
	for _, f := range gt.ImmutableFacts {
		key, val := label(f)
		if val == "" || cv.covered(val) {
			continue
		}
		why := fmt.Sprintf("immutable fact %q", f)
		pat, at, tail := cv.evidenceIn(val, true, true)
		if pat == "" || tail {
			cv.note("%s: not stated in these words before the cut, or only beside a replaced value, no probe", f)
			continue
		}
		cv.keep[at] = true
		q := "What did the conversation establish?"
		if key != "" {
			q = fmt.Sprintf("What did the conversation establish about the %s?", strings.ReplaceAll(key, "_", " "))
		}
		opts := []option{{key: "answer", text: val, requires: []string{pat}}}
		if c := cv.confusable(val, key); c != "" {
			if cp, _, _ := cv.evidence(c, false); cp != "" {
				opts = append(opts, option{key: "confused", text: c, requires: []string{cp}})
			}
		}
		opts = append(opts, option{key: "unknown", text: unknownOption})
		cv.probe("fact-"+firstWords(f, 6), q, why, opts, "answer")
		cv.values = append(cv.values, val)
	}
	for _, e := range gt.entities {
		if cv.covered(e.name) {
			continue
		}
		why := fmt.Sprintf("entity %q (%s)", e.name, e.role)
		pat, at, tail := cv.evidenceIn(e.name, false, true)
		if pat == "" || tail {
			cv.note("%s: named before the cut only beside a replaced value, no probe", why)
			continue
		}
		cv.keep[at] = true
		opts := []option{{key: "answer", text: e.name, requires: []string{pat}}}
		if c := cv.confusable(e.name); c != "" {
			if cp, _, _ := cv.evidence(c, false); cp != "" {
				opts = append(opts, option{key: "confused", text: c, requires: []string{cp}})
			}
		}
		opts = append(opts, option{key: "unknown", text: unknownOption})
		cv.probe("entity-"+firstWords(e.name, 4), fmt.Sprintf("Who is the %s in this conversation?", strings.ReplaceAll(e.role, "_", " ")), why, opts, "answer")
		cv.values = append(cv.values, e.name)
	}
	open := func(items []string, what, question, none string) {
		for _, u := range items {
			if strings.TrimSpace(u) == "" || cv.covered(u) {
				continue
			}
			why := fmt.Sprintf("%s %q", what, u)
			pat, at, tail := cv.evidenceIn(u, true, true)
			if pat == "" || tail {
				cv.note("%s: not stated in these words before the cut, no probe", why)
				continue
			}
			cv.keep[at] = true
			cv.probe(what+"-"+firstWords(u, 6), question, why, []option{
				{key: "open", text: u, requires: []string{pat}},
				{key: "none", text: none},
			}, "open")
		}
	}
	open(gt.UnresolvedItems, "unresolved", "What is still unresolved?", "Nothing is left open.")
	open(gt.DeferredItems, "deferred", "What was deferred for later?", "Nothing was deferred.")
}
