package suggest

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/internal/textmatch"

	"github.com/compact-eval/compact-eval/internal/lazyre"
)

var quantityRE = lazyre.New(`(?i)(?:^|[^\w.,/'-])(\d{1,3}(?:,\d{3})+|\d+(?:[.,]\d+)?)\s?(%|percent|por ciento|ms|milliseconds?|milisegundos?|seconds?|secs?|segundos?|s|minutes?|minutos?|mins?|hours?|horas?|h|days?|d[ií]as?|tokens?|kib|mib|gib|kb|mb|gb|tb|bytes?|req/s|rps|qps|usd|eur|€|°c|ms/op)(?:[^\w%/]|$)`)

// codeRE matches code spans and fenced blocks, which hold commands, not
// prose.
var codeRE = lazyre.New("(?s)```.*?```|`[^`\n]*`")

// quantity finds numbers with units in the prose of user and system text:
// never in code spans, fenced blocks or lines that are shell commands.
func (s *Scanner) quantity(idx int, text string) {
	text = codeRE.ReplaceAllString(text, " ")
	for _, line := range strings.Split(text, "\n") {
		if isCommandLine(line) {
			continue
		}
		for _, m := range quantityRE.FindAllStringSubmatch(line, -1) {
			if len(s.quantities) >= maxQuantities {
				if raw := strings.TrimSpace(m[0]); !s.seen["q:"+raw] {
					s.seen["q:"+raw] = true
					s.pushOut("quantity", raw)
				}
				continue
			}
			num := m[1]
			if strings.Count(num, ",") >= 1 && len(num) > 4 && num[len(num)-4] == ',' {
				num = strings.ReplaceAll(num, ",", "")
			} else {
				num = strings.ReplaceAll(num, ",", ".")
			}
			v, err := strconv.ParseFloat(num, 64)
			if err != nil {
				continue
			}
			unit := strings.ToLower(m[2])
			key := "q:" + strconv.FormatFloat(v, 'g', -1, 64) + unit
			if s.seen[key] {
				continue
			}
			raw := strings.TrimSpace(strings.Trim(m[0], " ,.;:()"))
			at := strings.Index(line, raw)
			subject := figureSubject(line[:max(at, 0)], line[max(at, 0)+len(raw):])
			if subject == "" && percentUnits[unit] {
				continue // "98%": a share of nothing a reader can name
			}
			s.seen[key] = true
			s.quantities = append(s.quantities, Quantity{Idx: idx, Value: v, Unit: unit, Raw: raw, Subject: subject})
		}
	}
}

// commandRE is a line that is a shell command.
var commandRE = lazyre.New(`^\s*(?:\$ |# |sudo |sed |awk |grep |find |xargs |sleep |timeout |curl |kubectl |docker |git |go |npm |make |python3? |bash |sh )`)

func isCommandLine(line string) bool { return commandRE.MatchString(line) }

// percentUnits are the units of a figure that means nothing without its
// subject: a share of what?
var percentUnits = map[string]bool{"%": true, "percent": true, "por ciento": true}

// subjectStop are words that are not a figure's subject: articles,
// prepositions, verbs of keeping and setting, pronouns, comparatives.
var subjectStop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the a an to at under over above below of by for in on is are was were be been
		keep set use make stay remain go get put do not don't never always must should can could would will
		it its it's this that these those than about around within max maximum min minimum least most up down and
		or but with after before every each per only just from into less more no i'm we you i my our your all any
		some sure done certain complete also then now currently still there here out off via between until
		need needs want wants have has had reach reaches hit achieve require requires got see saw take takes took
		uses used using give gives gave show shows showed
		es el la los las de del en un una y o que por para con mas menos al lo se su sus como hasta desde entre`) {
		subjectStop[w] = true
	}
}

// subjectWord reports a word that can name what a figure measures.
func subjectWord(w string) bool {
	if len(w) < 2 || subjectStop[w] {
		return false
	}
	letters, digits := 0, 0
	for _, r := range w {
		switch {
		case r >= 'a' && r <= 'z':
			letters++
		case r >= '0' && r <= '9':
			digits++
		case r == '_', r == '-':
		default:
			return false
		}
	}
	return letters >= 2 || letters == 1 && digits > 0 // "p99"
}

// figureSubject returns the pattern of what a figure measures: up to two
// content words just before it in its clause ("the error budget under
// 0.5%"), else the first one after it ("98% coverage", "5 MB per file");
// "" when the clause names none.
func figureSubject(before, after string) string {
	clauseEnd := func(r rune) bool { return strings.ContainsRune(",;:()[]!?", r) }
	if i := strings.LastIndexFunc(before, clauseEnd); i >= 0 {
		before = before[i+1:]
	}
	if i := strings.LastIndex(before, ". "); i >= 0 {
		before = before[i+2:] // the figure's own sentence
	}
	if i := strings.IndexFunc(after, clauseEnd); i >= 0 {
		after = after[:i]
	}
	words := func(s string) []string { return strings.Fields(strings.ToLower(textmatch.Fold(strings.Trim(s, ".")))) }
	var subj []string
	bw := words(before)
	for i := len(bw) - 1; i >= 0 && len(subj) < 2; i-- {
		w := strings.Trim(bw[i], openPunct+closePunct)
		if !subjectWord(w) {
			if len(subj) > 0 {
				break
			}
			continue
		}
		subj = append([]string{w}, subj...)
	}
	if len(subj) == 0 {
		for _, w := range words(after) {
			if w = strings.Trim(w, openPunct+closePunct); subjectWord(w) {
				subj = []string{w}
				break
			}
		}
	}
	for i, w := range subj {
		subj[i] = regexp.QuoteMeta(w)
	}
	return strings.Join(subj, `\W+`)
}
