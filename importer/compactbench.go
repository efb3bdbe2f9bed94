package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/compact-eval/compact-eval/internal/lazyre"
	"github.com/compact-eval/compact-eval/scenarios"
)

// A CompactBench case (a generated case as `compactbench generate` writes
// it): the transcript, the ground truth the compactor must keep and the
// evaluation items asked after compaction. docs/compactbench.md says how
// each part becomes part of a scenario and what does not map.
type cbCase struct {
	CaseID          string          `json:"case_id"`
	TemplateKey     string          `json:"template_key"`
	TemplateVersion string          `json:"template_version"`
	Seed            json.Number     `json:"seed"`
	Difficulty      string          `json:"difficulty"`
	Transcript      *cbTranscript   `json:"transcript"`
	GroundTruth     cbTruth         `json:"ground_truth"`
	Items           []cbItem        `json:"evaluation_items"`
	raw             json.RawMessage // for the entity map's order
}

type cbTranscript struct {
	Turns []cbTurn `json:"turns"`
}

type cbTurn struct {
	Role    string   `json:"role"`
	Content string   `json:"content"`
	Tags    []string `json:"tags"`
}

type cbTruth struct {
	ImmutableFacts     []string `json:"immutable_facts"`
	LockedDecisions    []string `json:"locked_decisions"`
	ForbiddenBehaviors []string `json:"forbidden_behaviors"`
	ForbiddenBritish   []string `json:"forbidden_behaviours"`
	UnresolvedItems    []string `json:"unresolved_items"`
	DeferredItems      []string `json:"deferred_items"`
	entities           []cbEntity
}

type cbEntity struct{ name, role string }

type cbItem struct {
	Key      string                     `json:"key"`
	ItemType string                     `json:"item_type"`
	Type     string                     `json:"type"`
	Prompt   string                     `json:"prompt"`
	Expected map[string]json.RawMessage `json:"expected"`
}

// isCompactBenchCase reports whether a decoded object looks like a case:
// a transcript with turns, and ground truth or evaluation items.
// The prefix is the path of the case in the shape ("" for the document,
// "/*" for the elements of an array).
func isCompactBenchCase(sh shape, prefix string) bool {
	top := sh[prefix]
	if top == nil {
		return false
	}
	_, gt := top["ground_truth"]
	_, items := top["evaluation_items"]
	_, turns := sh[prefix+"/transcript"]["turns"]
	return turns && (gt || items)
}

// parseCase decodes one case.
func parseCase(raw json.RawMessage) (*cbCase, error) {
	var c cbCase
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&c); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			return nil, fmt.Errorf("not a CompactBench case: %s is a %s, want a %s", ute.Field, ute.Value, ute.Type)
		}
		return nil, fmt.Errorf("not a CompactBench case: %v", err)
	}
	if c.Transcript == nil || len(c.Transcript.Turns) == 0 {
		return nil, errors.New("not a CompactBench case: no transcript.turns")
	}
	c.GroundTruth.ForbiddenBehaviors = append(c.GroundTruth.ForbiddenBehaviors, c.GroundTruth.ForbiddenBritish...)
	ents, err := entityMap(raw)
	if err != nil {
		return nil, err
	}
	c.GroundTruth.entities = ents
	c.raw = raw
	return &c, nil
}

// entityMap reads ground_truth.entity_map in file order.
func entityMap(raw json.RawMessage) ([]cbEntity, error) {
	gt, err := resolvePointer(raw, []string{"ground_truth"})
	if err != nil {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(gt, &obj) != nil {
		return nil, nil
	}
	em, ok := obj["entity_map"]
	if !ok || string(bytes.TrimSpace(em)) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(em))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("ground_truth.entity_map: want an object of names to roles")
	}
	var out []cbEntity
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("ground_truth.entity_map: %v", err)
		}
		var role string
		if err := dec.Decode(&role); err != nil {
			return nil, fmt.Errorf("ground_truth.entity_map[%q]: want a string role", kt)
		}
		out = append(out, cbEntity{name: kt.(string), role: role})
	}
	return out, nil
}

// cbConverter turns one case into a scenario.
type cbConverter struct {
	c      *cbCase
	events []scenarios.Event
	folded []string // folded, lower-cased event texts
	tags   [][]string
	cut    int // events 1..cut are compacted; the final question stays after it
	warns  []string
	notes  []string // comments written at the top of the scenario
	invs   []*yaml.Node
	probes []*yaml.Node
	// built keeps each probe's options, for the warnings that read them
	// all (probeWarnings).
	built []cbProbe
	ids   map[string]bool
	// evidence turns (0-based) a faithful summary must keep, for max_ratio
	keep map[int]bool
	// corrections made: old value (folded) -> new value
	corrected map[string]string
	// forbidden behaviours kept as constraints: folded phrase -> pattern
	constrained map[string]string
	values      []string // every item value, for confusables and coverage
	// res caches this case's compiled patterns. (textmatch's cache is
	// process-wide and unbounded: a suite of thousands of cases, each with
	// its own values, would keep every pattern of every case.)
	res map[string]*regexp.Regexp
}

func newCase(raw json.RawMessage) (*cbConverter, error) {
	c, err := parseCase(raw)
	if err != nil {
		return nil, err
	}
	cv := &cbConverter{c: c, ids: map[string]bool{}, res: map[string]*regexp.Regexp{}, keep: map[int]bool{}, corrected: map[string]string{}, constrained: map[string]string{}}
	if err := cv.convert(); err != nil {
		return nil, err
	}
	return cv, nil
}

func (cv *cbConverter) convert() error {
	empty := 0
	for i, t := range cv.c.Transcript.Turns {
		var role scenarios.Role
		switch strings.ToLower(strings.TrimSpace(t.Role)) {
		case "user":
			role = scenarios.RoleUser
		case "assistant":
			role = scenarios.RoleAssistant
		case "system":
			role = scenarios.RoleSystem
		default:
			return fmt.Errorf("transcript.turns[%d]: role %q is not user, assistant or system", i, t.Role)
		}
		if strings.TrimSpace(t.Content) == "" {
			empty++
			continue
		}
		cv.events = append(cv.events, scenarios.Event{Seq: len(cv.events) + 1, Role: role, Text: t.Content})
		cv.folded = append(cv.folded, fold(t.Content))
		cv.tags = append(cv.tags, t.Tags)
	}
	if empty > 0 {
		cv.warns = append(cv.warns, fmt.Sprintf("empty turns dropped: %d", empty))
	}
	// The cut: everything before the final user turn (the question the
	// case ends on), which stays in the tail as it does in CompactBench,
	// where the model answers after the compacted artifact.
	last := -1
	for i := len(cv.events) - 1; i >= 0; i-- {
		if cv.events[i].Role == scenarios.RoleUser {
			last = i
			break
		}
	}
	switch {
	case last > 0:
		cv.cut = last
	case len(cv.events) > 1:
		cv.cut = len(cv.events) - 1
	default:
		return errors.New("the transcript has nothing to compact before its final question")
	}
	for _, it := range cv.c.Items {
		cv.values = append(cv.values, itemValues(it)...)
	}
	cv.forbidden()
	cv.itemProbes()
	cv.truthProbes()
	cv.probeWarnings()
	return nil
}

// family is a template key without its version ("buried_constraint_v1_3"
// -> "buried-constraint").
func family(key string) string {
	k := versionSuffix.ReplaceAllString(strings.ToLower(key), "")
	return sanitize(strings.TrimSuffix(k, "_starter"))
}

var versionSuffix = lazyre.New(`_v\d+(?:_\d+)*$`)

// caseID is the scenario id of a case: Options.ID, else the case's
// case_id, else the file's name (with the record's index when the file
// holds several).
func caseID(opts Options, c *cbCase, index, records int) string {
	if opts.ID != "" {
		return opts.ID
	}
	if id := sanitize(c.CaseID); id != "" {
		return fitID(id)
	}
	if records > 1 {
		if file := sanitize(fileStem(opts.Name)); file != "" {
			return fitID(fmt.Sprintf("%s-%d", file, index))
		}
		return fitID(fmt.Sprintf("case-%d", index))
	}
	return SanitizeID(opts.Name)
}

// importCase imports the case at opts.Index of a file of cases (one case,
// a JSON array of cases, or JSONL with one case a line).
func importCase(br *bufio.Reader, w io.Writer, opts Options, rep *Report) error {
	var cv *cbConverter
	found := false
	n, err := eachRecord(br, opts.MaxLineBytes, func(i, line int, raw json.RawMessage, rerr error) error {
		if rerr != nil && i != opts.Index {
			if opts.Strict {
				return &InputError{Line: line, Err: fmt.Errorf("case %d: %w", i, rerr)}
			}
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("line %d: malformed, skipped: %v", line, rerr))
			return nil
		}
		if i != opts.Index {
			return nil
		}
		found = true
		if rerr != nil {
			return &InputError{Line: line, Err: fmt.Errorf("case %d: %w", i, rerr)}
		}
		c, err := newCase(raw)
		if err != nil {
			return &InputError{Line: line, Err: fmt.Errorf("case %d: %w", i, err)}
		}
		cv = c
		return nil
	})
	if err != nil {
		return err
	}
	if !found {
		return inputErrorf(0, "--record %d: the input holds %d cases", opts.Index, n)
	}
	rep.Record, rep.Records = opts.Index, n
	if n > 1 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the input holds %d cases; imported #%d (pick another with --record N, or all with --all)", n, opts.Index))
	}
	id := caseID(opts, cv.c, opts.Index, n)
	var buf bytes.Buffer
	if err := cv.write(&buf, id); err != nil {
		return err
	}
	cv.report(rep, id)
	_, err = w.Write(buf.Bytes())
	return err
}

// eachCase is ImportEach for CompactBench cases.
func eachCase(br *bufio.Reader, opts Options, base *Report, emit func(rep *Report, write func(io.Writer) error, err error) error) (int, error) {
	used := map[string]bool{}
	return eachRecord(br, opts.MaxLineBytes, func(i, line int, raw json.RawMessage, rerr error) error {
		rep := *base
		rep.Record = i
		if rerr != nil {
			return emit(&rep, nil, &InputError{Line: line, Err: fmt.Errorf("case %d: %w", i, rerr)})
		}
		cv, err := newCase(raw)
		if err != nil {
			return emit(&rep, nil, &InputError{Line: line, Err: fmt.Errorf("case %d: %w", i, err)})
		}
		id := caseID(opts, cv.c, i, 2)
		if used[id] {
			id = fitID(fmt.Sprintf("%s-%d", id, i))
		}
		used[id] = true
		var buf bytes.Buffer
		if err := cv.write(&buf, id); err != nil {
			return err
		}
		cv.report(&rep, id)
		return emit(&rep, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }, nil)
	})
}
