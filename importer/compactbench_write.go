package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
	"gopkg.in/yaml.v3"
)

func withComment(n *yaml.Node, c string) *yaml.Node {
	n.HeadComment = c
	return n
}

// maxRatio is the compression bound that judges the case fairly: the
// tokens of a faithful structured summary (the turns that hold the
// evidence, each quoted and cited) over the tokens it replaces, with a
// quarter more room, rounded up to 0.05; never tighter than the default
// 0.5, never above 1.
func (cv *cbConverter) maxRatio() (float64, int, int) {
	counter := tokens.Default()
	idx := make([]int, 0, len(cv.keep))
	for i := range cv.keep {
		if i < cv.cut {
			idx = append(idx, i)
		}
	}
	sort.Ints(idx)
	type entry struct {
		Claim     string `json:"claim"`
		SourceSeq int    `json:"source_seq"`
	}
	doc := struct {
		SchemaVersion int     `json:"schema_version"`
		CoversThrough int     `json:"covers_through"`
		Goal          string  `json:"goal"`
		Verified      []entry `json:"verified"`
	}{1, cv.cut, cbGoal, nil}
	for _, i := range idx {
		doc.Verified = append(doc.Verified, entry{strings.TrimSpace(cv.events[i].Text), i + 1})
	}
	raw, _ := json.Marshal(doc)
	fair := counter.Count(string(raw))
	replaced := counter.Count(transcript.EventsText(cv.events[:cv.cut]))
	if replaced == 0 {
		return 1, fair, replaced
	}
	r := math.Ceil(float64(fair)*1.25/float64(replaced)*20) / 20
	return math.Min(1, math.Max(scenarios.DefaultMaxRatio, r)), fair, replaced
}

const cbGoal = "Continue the conversation with the user and answer their questions about what was agreed in it."

// write renders the scenario.
func (cv *cbConverter) write(w io.Writer, id string) error {
	c := cv.c
	ratio, fair, replaced := cv.maxRatio()
	if float64(fair) > ratio*float64(replaced) {
		cv.warns = append(cv.warns, fmt.Sprintf("the compacted turns hold %d tokens and a faithful summary about %d: even max_ratio 1 may fail a faithful summary (a short case; judge compression on longer difficulties)", replaced, fair))
	}
	title := "CompactBench case"
	if c.CaseID != "" {
		title += " " + c.CaseID
	}
	var meta []string
	if c.TemplateKey != "" {
		t := c.TemplateKey
		if c.TemplateVersion != "" {
			t += " " + c.TemplateVersion
		}
		meta = append(meta, "template "+t)
	}
	if c.Seed != "" {
		meta = append(meta, "seed "+c.Seed.String())
	}
	if c.Difficulty != "" {
		meta = append(meta, c.Difficulty)
	}
	if len(meta) > 0 {
		title += " (" + strings.Join(meta, ", ") + ")"
	}
	tags := []*yaml.Node{str("compactbench")}
	if fam := family(c.TemplateKey); fam != "" {
		tags = append(tags, str(fam))
	}
	if d := sanitize(c.Difficulty); d != "" {
		tags = append(tags, str(d))
	}
	compaction := withStyle(mapping("at", flowSeq(intNode(cv.cut)), "max_ratio", floatNode(ratio)), yaml.FlowStyle)
	header := mapping(
		"version", intNode(scenarios.Version),
		"id", str(id),
		"title", str(title),
		"tags", flowSeq(tags...),
		"goal", str(cbGoal),
		"compaction", compaction,
	)
	header.Content[len(header.Content)-2].HeadComment = fmt.Sprintf(
		"The cut leaves the case's final question (seq %d) in the tail. max_ratio: a faithful\n"+
			"summary of the evidence turns is about %d tokens of the %d replaced (x1.25, at least 0.5).", cv.cut+1, fair, replaced)
	header.HeadComment = "Imported from a CompactBench case: docs/compactbench.md says how each part maps.\n" +
		"The turns' tags (the case's answer key) are left out. Drift cycles do not map: CompactBench\n" +
		"generates their continuation turns at run time, and the case file does not hold them."
	for _, n := range cv.notes {
		header.HeadComment += "\nNot mapped: " + n
	}
	var buf bytes.Buffer
	if err := encode(&buf, header); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.Write(buf.Bytes())
	if len(cv.invs) > 0 {
		buf.Reset()
		if err := encode(&buf, mapping("invariants", seq(cv.invs...))); err != nil {
			return err
		}
		bw.WriteString("\n")
		bw.Write(buf.Bytes())
	}
	if len(cv.probes) > 0 {
		buf.Reset()
		if err := encode(&buf, mapping("probes", seq(cv.probes...))); err != nil {
			return err
		}
		bw.WriteString("\n")
		bw.Write(buf.Bytes())
	}
	bw.WriteString("\nevents:\n")
	var line []byte
	for i, e := range cv.events {
		line = appendEvent(line[:0], &rec{kind: kindText, role: e.Role, text: e.Text}, i+1)
		bw.Write(line)
	}
	return bw.Flush()
}

func (cv *cbConverter) report(rep *Report, id string) {
	rep.ID = id
	rep.Events = len(cv.events)
	rep.Cut = cv.cut
	rep.Invariants = len(cv.invs)
	rep.Probes = len(cv.probes)
	rep.Warnings = append(rep.Warnings, cv.warns...)
}
