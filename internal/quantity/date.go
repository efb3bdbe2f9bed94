package quantity

import (
	"regexp"
	"strconv"
	"strings"
)

// Date is a day of a month found in text, whatever the spelling: "15 de
// diciembre", "December 15", "15 Dec", "Dec. 15th" and "2026-12-15" are all
// {Month: 12, Day: 15}. The year, when written, is not compared: a summary
// that says "December 15" keeps "15 de diciembre de 2026".
type Date struct {
	Month, Day int
	// Text is the span the date was read from, at Start:End in the text.
	Text       string
	Start, End int
}

var months = map[string]int{}

func init() {
	for i, names := range [][]string{
		{"january", "jan", "enero", "ene"}, {"february", "feb", "febrero"}, {"march", "mar", "marzo"},
		{"april", "apr", "abril", "abr"}, {"may", "mayo"}, {"june", "jun", "junio"}, {"july", "jul", "julio"},
		{"august", "aug", "agosto", "ago"}, {"september", "sep", "sept", "septiembre", "setiembre", "set"},
		{"october", "oct", "octubre"}, {"november", "nov", "noviembre"}, {"december", "dec", "diciembre", "dic"},
	} {
		for _, n := range names {
			months[n] = i + 1
		}
	}
}

const monthRe = `(january|february|march|april|may|june|july|august|september|october|november|december|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec|ene|abr|ago|set|dic)\.?`

var (
	dayMonth = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th|º|ª)?(?:\s+de|\s+of)?\s+` + monthRe + `\b`)
	monthDay = regexp.MustCompile(`(?i)\b` + monthRe + `\s+(\d{1,2})(?:st|nd|rd|th)?\b`)
	isoDate  = regexp.MustCompile(`\b\d{4}-(\d{2})-(\d{2})\b`)
)

// Dates returns every date (day and month) in s, in order of position.
func Dates(s string) []Date {
	var out []Date
	add := func(m, d string, start, end int) {
		mi, ok := months[strings.ToLower(strings.TrimSuffix(m, "."))]
		if !ok {
			n, err := strconv.Atoi(m)
			if err != nil {
				return
			}
			mi = n
		}
		di, err := strconv.Atoi(d)
		if err != nil || di < 1 || di > 31 || mi < 1 || mi > 12 {
			return
		}
		out = append(out, Date{Month: mi, Day: di, Text: s[start:end], Start: start, End: end})
	}
	for _, m := range dayMonth.FindAllStringSubmatchIndex(s, -1) {
		add(s[m[4]:m[5]], s[m[2]:m[3]], m[0], m[1])
	}
	for _, m := range monthDay.FindAllStringSubmatchIndex(s, -1) {
		add(s[m[2]:m[3]], s[m[4]:m[5]], m[0], m[1])
	}
	for _, m := range isoDate.FindAllStringSubmatchIndex(s, -1) {
		add(s[m[2]:m[3]], s[m[4]:m[5]], m[0], m[1])
	}
	// keep the first of overlapping spans, in order
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Start < out[j-1].Start; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	uniq := out[:0]
	for _, d := range out {
		if len(uniq) > 0 && d.Start < uniq[len(uniq)-1].End {
			continue
		}
		uniq = append(uniq, d)
	}
	return uniq
}
