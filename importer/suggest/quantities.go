package suggest

import (
	"strconv"
	"strings"

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
			s.seen[key] = true
			s.quantities = append(s.quantities, Quantity{Idx: idx, Value: v, Unit: unit, Raw: strings.TrimSpace(strings.Trim(m[0], " ,.;:()"))})
		}
	}
}

// commandRE is a line that is a shell command.
var commandRE = lazyre.New(`^\s*(?:\$ |# |sudo |sed |awk |grep |find |xargs |sleep |timeout |curl |kubectl |docker |git |go |npm |make |python3? |bash |sh )`)

func isCommandLine(line string) bool { return commandRE.MatchString(line) }
