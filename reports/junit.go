package reports

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/reports/internal/junit"
	"github.com/compact-eval/compact-eval/result"
)

// WriteJUnit writes r as JUnit XML. Each test case gathers one check (or
// probe) of one scenario × summarizer across generations and trials: it
// fails when any outcome failed, errors when none failed but one errored,
// and is skipped when every outcome was skipped. A unit whose summarizer
// failed outright gets a "summarizer/run" case with an <error>. Provenance
// (harness, agent, tokenizer, scenario digests, summarizer models and prompt
// digests) goes in each suite's <properties>.
func WriteJUnit(w io.Writer, r *result.Result) error {
	return writeJUnit(w, r, Options{})
}

// writeJUnit is WriteJUnit with a gate: with a baseline, a first suite
// "new against the baseline" holds a case per change against it.
func writeJUnit(w io.Writer, r *result.Result, opts Options) error {
	doc := BuildJUnit(r)
	if c := opts.comparison(); c != nil {
		s := baselineJUnitSuite(c)
		doc.Suites = append([]junit.Suite{s}, doc.Suites...)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Skipped += s.Skipped
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	// Written by hand rather than with xml.Encoder: the same document, at a
	// fraction of the cost for large runs. TestJUnitCounts parses it back.
	bw.WriteString(xml.Header)
	fmt.Fprintf(bw, "<testsuites name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%s\">\n",
		xmlEsc(doc.Name), doc.Tests, doc.Failures, doc.Errors, doc.Skipped, doc.Time)
	for _, s := range doc.Suites {
		fmt.Fprintf(bw, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%s\"",
			xmlEsc(s.Name), s.Tests, s.Failures, s.Errors, s.Skipped, s.Time)
		if s.Timestamp != "" {
			fmt.Fprintf(bw, " timestamp=\"%s\"", s.Timestamp)
		}
		bw.WriteString(">\n    <properties>\n")
		for _, p := range s.Properties {
			fmt.Fprintf(bw, "      <property name=\"%s\" value=\"%s\"/>\n", xmlEsc(p.Name), xmlEsc(p.Value))
		}
		bw.WriteString("    </properties>\n")
		for _, c := range s.Cases {
			fmt.Fprintf(bw, "    <testcase classname=\"%s\" name=\"%s\" time=\"%s\"", xmlEsc(c.Classname), xmlEsc(c.Name), c.Time)
			if c.File != "" {
				fmt.Fprintf(bw, " file=\"%s\"", xmlEsc(c.File))
			}
			if c.Line != 0 {
				fmt.Fprintf(bw, " line=\"%d\"", c.Line)
			}
			switch {
			case c.Failure != nil:
				fmt.Fprintf(bw, ">\n      <failure message=\"%s\" type=\"%s\">%s</failure>\n    </testcase>\n", xmlEsc(c.Failure.Message), xmlEsc(c.Failure.Type), xmlEsc(c.Failure.Body))
			case c.Error != nil:
				fmt.Fprintf(bw, ">\n      <error message=\"%s\" type=\"%s\">%s</error>\n    </testcase>\n", xmlEsc(c.Error.Message), xmlEsc(c.Error.Type), xmlEsc(c.Error.Body))
			case c.Skipped != nil:
				fmt.Fprintf(bw, ">\n      <skipped message=\"%s\"/>\n    </testcase>\n", xmlEsc(c.Skipped.Message))
			default:
				bw.WriteString("/>\n")
			}
		}
		bw.WriteString("  </testsuite>\n")
	}
	bw.WriteString("</testsuites>\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing junit: %w", err)
	}
	return nil
}

// xmlEsc escapes s for XML text and attribute values, dropping characters
// XML 1.0 cannot hold (control characters from a summarizer's stderr).
func xmlEsc(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '&' || c == '<' || c == '>' || c == '"' || c == '\'' || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	xml.EscapeText(&b, []byte(strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r != 0xFFFE && r != 0xFFFF {
			return r
		}
		return -1
	}, s)))
	return b.String()
}

type caseKey struct{ scenario, summarizer, check, name string }

type caseAcc struct {
	key                    caseKey
	file                   string
	line                   int
	fails, errs, passes, n int
	uncertain              int
	msgs                   []string
	lastMsg                string
	dur                    time.Duration
}

// BuildJUnit builds the JUnit document of r without writing it.
func BuildJUnit(r *result.Result) *junit.Suites {
	files := []string{}
	byFile := map[string][]*caseAcc{}
	index := map[caseKey]*caseAcc{}
	unitDur := map[string]time.Duration{}
	props := map[string]map[string]string{}
	get := func(u *result.Unit, check, name string, line int) *caseAcc {
		k := caseKey{u.Scenario.ID, u.Summarizer, check, name}
		a := index[k]
		if a == nil {
			a = &caseAcc{key: k, file: u.Scenario.File, line: line}
			index[k] = a
			byFile[u.Scenario.File] = append(byFile[u.Scenario.File], a)
		}
		return a
	}
	for i := range r.Units {
		u := &r.Units[i]
		f := u.Scenario.File
		if _, ok := props[f]; !ok {
			files = append(files, f)
			props[f] = map[string]string{}
		}
		p := props[f]
		p["scenario."+u.Scenario.ID+".digest"] = u.Scenario.Digest
		unitDur[f] += u.Duration
		if u.Status == result.UnitError {
			a := get(u, "run", "", 0)
			a.n++
			a.errs++
			a.msgs = append(a.msgs, fmt.Sprintf("trial %d: %s", u.Trial+1, u.Error))
		}
		for _, g := range u.Generations {
			if g.Recorded != nil {
				p["summarizer."+u.Summarizer+".recorded.g"+strconv.Itoa(g.N)] = g.Recorded.String()
			}
			if g.Call.Model != "" {
				p["summarizer."+u.Summarizer+".model"] = g.Call.Model
			}
			if g.Call.PromptDigest != "" {
				p["summarizer."+u.Summarizer+".prompt_digest"] = g.Call.PromptDigest
			}
			per := time.Duration(0)
			if len(g.Checks) > 0 {
				per = g.Call.Latency / time.Duration(len(g.Checks))
			}
			for _, c := range g.Checks {
				a := get(u, c.Check, c.Invariant, c.Pos.Line)
				a.n++
				a.dur += per
				switch c.Status {
				case result.Pass:
					a.passes++
				case result.Fail:
					a.fails++
					a.msgs = append(a.msgs, fmt.Sprintf("trial %d %s: %s%s", u.Trial+1, GenLabel(&g), c.Message, evidenceText(c.Evidence)))
				case result.Error:
					a.errs++
					a.msgs = append(a.msgs, fmt.Sprintf("trial %d %s: error: %s", u.Trial+1, GenLabel(&g), c.Message))
				case result.Uncertain:
					a.uncertain++
					a.msgs = append(a.msgs, fmt.Sprintf("trial %d %s: uncertain: %s%s", u.Trial+1, GenLabel(&g), c.Message, evidenceText(c.Evidence)))
				default:
					a.lastMsg = c.Message
				}
			}
		}
		for _, pr := range u.Probes {
			a := get(u, result.CheckDecisions, pr.ID, 0)
			a.n++
			a.dur += pr.Full.Call.Latency + pr.Compacted.Call.Latency
			where := fmt.Sprintf("trial %d", u.Trial+1)
			switch pr.Class {
			case result.Kept:
				a.passes++
			case result.CompactionRegression:
				a.fails++
				a.msgs = append(a.msgs, fmt.Sprintf("%s: %s\n%s", where, RegressionText(pr), pr.Diff))
			case result.ProbeUncertain:
				a.uncertain++
				a.msgs = append(a.msgs, fmt.Sprintf("%s: uncertain: %s", where, UncertainText(pr)))
			case result.ProbeErrored:
				a.errs++
				a.msgs = append(a.msgs, where+": "+pr.ErrorText())
			default:
				a.lastMsg = fmt.Sprintf("%s: the agent did not choose %q on the full context", pr.Class, pr.Expect)
			}
		}
	}
	for i := range r.Units {
		u := &r.Units[i]
		props[u.Scenario.File]["summarizer."+u.Summarizer+".spec"] = u.Summarizer
	}
	doc := &junit.Suites{Name: "compact-eval " + r.RunID}
	order := map[string]int{}
	for i, s := range result.Summarizers(r) {
		order[s] = i
	}
	var total time.Duration
	for _, f := range files {
		s := junit.Suite{Name: f, Time: seconds(unitDur[f])}
		if !r.Started.IsZero() {
			s.Timestamp = r.Started.UTC().Format("2006-01-02T15:04:05")
		}
		total += unitDur[f]
		base := []junit.Property{
			{Name: "compact-eval.harness", Value: r.Harness}, {Name: "compact-eval.run_id", Value: r.RunID},
			{Name: "compact-eval.agent", Value: r.Config.Agent}, {Name: "compact-eval.tokenizer", Value: r.Config.Tokenizer},
			{Name: "compact-eval.trials", Value: fmt.Sprint(max(1, r.Config.Trials))},
		}
		s.Properties = append(append(base, trialProperties(r)...), recallProperties(r)...)
		for _, k := range slices.Sorted(mapKeys(props[f])) {
			s.Properties = append(s.Properties, junit.Property{Name: k, Value: props[f][k]})
		}
		accs := byFile[f]
		sort.SliceStable(accs, func(i, j int) bool {
			a, b := accs[i].key, accs[j].key
			switch {
			case a.scenario != b.scenario:
				return a.scenario < b.scenario
			case a.summarizer != b.summarizer:
				return order[a.summarizer] < order[b.summarizer]
			case a.check != b.check:
				return result.LessCheck(a.check, b.check)
			}
			return a.name < b.name
		})
		for _, a := range accs {
			name := a.key.summarizer + "/" + a.key.check
			if a.key.name != "" {
				name += "/" + a.key.name
			}
			c := junit.Case{Classname: a.key.scenario, Name: name, Time: seconds(a.dur), File: a.file, Line: a.line}
			switch {
			case a.fails > 0:
				c.Failure = &junit.Problem{Message: firstLine(a.msgs), Type: failureType(a.key.check), Body: strings.Join(a.msgs, "\n")}
				s.Failures++
			case a.uncertain > 0:
				// Not a pass, and not the harness's fault: a failure of its
				// own type, so that CI shows it red and a tool can filter it
				// (docs/formats.md §7).
				c.Failure = &junit.Problem{Message: firstLine(a.msgs), Type: string(result.Uncertain), Body: strings.Join(a.msgs, "\n")}
				s.Failures++
			case a.errs > 0:
				c.Error = &junit.Problem{Message: firstLine(a.msgs), Type: "error", Body: strings.Join(a.msgs, "\n")}
				s.Errors++
			case a.passes == 0:
				c.Skipped = &junit.Skipped{Message: a.lastMsg}
				s.Skipped++
			}
			s.Tests++
			s.Cases = append(s.Cases, c)
		}
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
		doc.Suites = append(doc.Suites, s)
	}
	doc.Time = seconds(total)
	return doc
}

func failureType(check string) string {
	switch {
	case check == result.CheckDecisions:
		return "compaction_regression"
	case slices.Contains(result.StructuralChecks, check):
		return "structural"
	}
	return "invariant"
}

func firstLine(msgs []string) string {
	if len(msgs) == 0 {
		return ""
	}
	s, _, _ := strings.Cut(msgs[0], "\n")
	if len(msgs) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(msgs)-1)
	}
	return s
}

func evidenceText(es []result.Evidence) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString("\n  evidence:")
		if e.Pointer != "" {
			fmt.Fprintf(&b, " pointer=%s", e.Pointer)
		}
		if e.Seq != 0 {
			fmt.Fprintf(&b, " seq=%d", e.Seq)
		}
		if e.Text != "" {
			fmt.Fprintf(&b, " text=%q", e.Text)
		}
		if e.Pattern != "" {
			fmt.Fprintf(&b, " pattern=%q", e.Pattern)
		}
		if e.Note != "" {
			fmt.Fprintf(&b, " note=%q", e.Note)
		}
	}
	return b.String()
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }
