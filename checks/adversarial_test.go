package checks

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

const adversarialDir = "../testdata/adversarial"

// adversarialCase is one file of testdata/adversarial (its README gives
// the format): a meaning change written blind, or under faithful/ its
// faithful twin.
type adversarialCase struct {
	paraphraseMutation
	Probe  string `json:"probe,omitempty"`
	Expect string `json:"expect,omitempty"`
}

// knownAdversarialMisses lists, exactly, the adversarial files whose
// target still passes silently (or, under faithful/, the twins whose
// target does not pass, and the files that fail another result), each
// with what the reader misses. The test fails on a miss not listed here
// and on a listed file that no longer misses: it is a ratchet, and each
// line is an open finding of issue 36, not an accepted outcome.
var knownAdversarialMisses = map[string]string{
	"bound-flip-es-1":                    "the reader passes it: 'hasta 24 r\u00e9plicas como m\u00e1ximo' becomes 'como m\u00ednimo hasta 24 r\u00e9plicas'",
	"bound-flip-es-2":                    "the reader passes it: the TTFT p95 budget 'por debajo de 800 ms' becomes 'por encima de 800 ms', so 0.86 s would pass",
	"command-lookalike-en-2":             "the reader passes it: the command that produces the eu-west digest hashes the amd64 tarball, though the rule still sends arm64 to eu-west (text-only)",
	"comparison-flip-en-1":               "the reader passes it: before becomes after: the card-number finding is placed behind the SQL injection, while 'first' still sits next to csv.go",
	"counterfactual-es-1":                "false alarm on another result:: correction/fecha-cierre is fail on the edit and pass on the source: the corrected fecha del cierre contable 15 de diciembre (from #18) is ",
	"faithful/anaphora-es":               "false alarm on the twin:: correction/recipient is fail: /next_steps/0 states the old capacity report recipient ops-alerts@northwind.io as current; it was corrected ",
	"faithful/conditional-permission-en": "false alarm on the twin:: constraint/no-failover is uncertain: /constraints/0/text touches the rule from #1 in words the reader cannot read plainly: \"a database fai",
	"faithful/counterfactual-en":         "false alarm on the twin:: refuted_hypothesis/cdn-refuted is uncertain: /decisions/0/text touches the hypothesis refuted at #31 in words the reader cannot read plain",
	"faithful/figure-reattached-en":      "false alarm on another result:: grounding/ is fail on the edit and pass on the source: /verified/3/claim cites #11, which does not support it: \"checkout_timeout_s\" is not",
	"faithful/id-swap-en":                "false alarm on another result:: unresolved/ is fail on the edit and pass on the source: unresolved call reindex-7713 (#17) is claimed done at /verified/0/claim: \"not to b",
	"faithful/invented-expiry-es":        "false alarm on the twin:: constraint/readonly-freeze is uncertain: /text touches the rule from #1 in words the reader cannot read plainly: \"hasta el viernes a las 1",
	"faithful/past-rule-es":              "false alarm on the twin:: constraint/solo-lectura is uncertain: /constraints/0/text touches the rule from #1 in words the reader cannot read plainly: \"al principio ",
	"faithful/retarget-en":               "false alarm on another result:: grounding/ is fail on the edit and pass on the source: /constraints/0/text cites #5, which does not support it: \"~/src/ledger\" is not in t",
	"faithful/rhetorical-question-en":    "false alarm on the twin:: constraint/readonly-freeze is uncertain: /constraints/0/text touches the rule from #1 in words the reader cannot read plainly: \"nothing is",
	"figure-reattached-es-1":             "the reader passes it: the 1650 ms the database takes per request is given to rendering, so the conclusion loses its subject",
	"figure-reattached-es-2":             "the reader passes it: the 128,000-token cap on the context is turned into a cap on output tokens, so long input prompts seem unbounded",
	"invented-expiry-es-1":               "false alarm on another result:: correction/fecha-cierre is fail on the edit and pass on the source: the corrected fecha del cierre contable 15 de diciembre (from #18) is ",
	"revived-precondition-es-3":          "false alarm on another result:: correction/fecha-cierre is fail on the edit and pass on the source: the corrected fecha del cierre contable 15 de diciembre (from #18) is ",
	"rhetorical-question-es-1":           "false alarm on another result:: correction/fecha-cierre is fail on the edit and pass on the source: the corrected fecha del cierre contable 15 de diciembre (from #18) is ",
}

// TestAdversarialSummariesNeverPassSilently reads every file of
// testdata/adversarial as its README says a test should: a meaning change
// fails or is uncertain at its target (a probe file: the reference agent
// regresses on it), its faithful twin passes, and neither fails a result
// that passes on its source unless the file names it in also. It logs the
// outcomes by class, the figures issue 36's notes quote.
func TestAdversarialSummariesNeverPassSilently(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(adversarialDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no adversarial summaries in %s (%v)", adversarialDir, err)
	}
	twins, _ := filepath.Glob(filepath.Join(adversarialDir, "faithful", "*.json"))
	byID := builtinByID(t)
	type tally struct{ caught, silent int }
	byClass := map[string]*tally{}
	missed := map[string]bool{}
	for _, f := range append(files, twins...) {
		twin := strings.Contains(f, string(filepath.Separator)+"faithful"+string(filepath.Separator))
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if twin {
			name = "faithful/" + name
		}
		t.Run(name, func(t *testing.T) {
			var c adversarialCase
			readStrictJSON(t, f, &c)
			if (c.Check == "") == (c.Probe == "") || c.Why == "" || len(c.Edits) == 0 || twin != (c.Expect == "pass") {
				t.Fatalf("a file needs a check or a probe (not both), a why, edits, and expect: pass exactly under faithful/")
			}
			sc, base := adversarialSource(t, byID, &c)
			before := map[string]result.Status{}
			for _, r := range Run(goldInput(t, sc.sc, sc.g, c.Generation, base)) {
				before[r.Check+"/"+r.Invariant] = r.Status
			}
			target := c.Check + "/" + c.Invariant
			if c.Check != "" && before[target] != result.Pass {
				t.Fatalf("%s on the source %s is %s, not pass: the file would prove nothing", target, c.From, before[target])
			}
			edited := applyEdits(t, base, &c.paraphraseMutation)
			caught, outcome, collateral := false, "", false
			for _, r := range Run(goldInput(t, sc.sc, sc.g, c.Generation, edited)) {
				key := r.Check + "/" + r.Invariant
				also := slices.ContainsFunc(c.Also, func(a struct {
					Check     string `json:"check"`
					Invariant string `json:"invariant,omitempty"`
				}) bool {
					return r.Check == a.Check && (a.Invariant == "" || r.Invariant == a.Invariant)
				})
				switch {
				case key == target:
					caught = r.Status == result.Fail || r.Status == result.Uncertain
					outcome = fmt.Sprintf("%s is %s: %s", key, r.Status, r.Message)
				case also:
				case !twin && r.Status == result.Uncertain:
				case (r.Status == result.Fail || r.Status == result.Error) && before[key] == result.Pass:
					collateral = true
					if _, known := knownAdversarialMisses[name]; known {
						t.Logf("known collateral: %s is %s: %s", key, r.Status, r.Message)
					} else {
						t.Errorf("collateral: %s is %s on the edit and pass on the source: %s", key, r.Status, r.Message)
					}
				}
			}
			if c.Probe != "" {
				regressed := slices.Contains(regressedProbes(t, sc.sc, edited), c.Probe)
				caught, outcome = regressed, fmt.Sprintf("probe %s regressed: %v", c.Probe, regressed)
			}
			if outcome == "" {
				t.Fatalf("no result for %s", target)
			}
			miss := caught == twin
			if collateral {
				missed[name] = true
			}
			tl := byClass[c.Class]
			if tl == nil {
				tl = &tally{}
				byClass[c.Class] = tl
			}
			if !twin && caught {
				tl.caught++
			} else if !twin {
				tl.silent++
			}
			switch why, known := knownAdversarialMisses[name]; {
			case miss && known:
				missed[name] = true
				t.Logf("known miss (%s): %s", why, outcome)
			case miss && twin:
				t.Errorf("a faithful twin does not pass: %s", outcome)
			case miss:
				t.Errorf("passes silently (%s): %s", c.Why, outcome)
			default:
				t.Logf("%s", outcome)
			}
		})
	}
	for name := range knownAdversarialMisses {
		if !missed[name] {
			t.Errorf("known miss %q no longer misses: delete it from knownAdversarialMisses", name)
		}
	}
	classes := make([]string, 0, len(byClass))
	caught, total := 0, 0
	for c, tl := range byClass {
		classes = append(classes, fmt.Sprintf("%s %d/%d", c, tl.caught, tl.caught+tl.silent))
		caught += tl.caught
		total += tl.caught + tl.silent
	}
	sort.Strings(classes)
	t.Logf("adversarial: %d of %d meaning changes caught (fail, uncertain or a regressed probe); %d faithful twins; by class: %s", caught, total, len(twins), strings.Join(classes, ", "))
}

// src is the scenario and the summary file a case edits.
type src struct {
	sc *scenarios.Scenario
	g  *goldFile
}

// adversarialSource returns the scenario and the summary of the
// generation a file edits: a paraphrase's, or with "gold:<scenario>" the
// gold summary's.
func adversarialSource(t *testing.T, byID map[string]*scenarios.Scenario, c *adversarialCase) (src, json.RawMessage) {
	t.Helper()
	var g *goldFile
	if id, ok := strings.CutPrefix(c.From, "gold:"); ok {
		gf, found := readGold(t, id)
		if !found {
			t.Fatalf("no gold summary for %s", id)
		}
		g = gf
	} else {
		g = readGoldFile(t, filepath.Join(paraphraseDir, c.From))
	}
	sc := byID[g.Scenario]
	if sc == nil || c.Generation < 1 || c.Generation > len(g.Generations) {
		t.Fatalf("%s has no generation %d of a built-in scenario", c.From, c.Generation)
	}
	return src{sc: sc, g: g}, g.Generations[c.Generation-1].Summary
}
