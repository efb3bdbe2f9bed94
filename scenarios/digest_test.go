package scenarios

import (
	"strings"
	"testing"
)

// digestBase is a small valid scenario; the edits below rewrite it.
const digestBase = `version: 1
id: digest-probe
title: Digest
goal: Keep the rule.
compaction: {at: [3]}
events:
  - {seq: 1, role: user, text: "Read-only session: never write to prod."}
  - {seq: 2, role: assistant, text: "Understood."}
  - {seq: 3, role: user, text: "The pool size is 20."}
invariants:
  - type: constraint
    id: ro
    source_seq: 1
    match: ['read-only']
probes:
  - id: write
    question: "May you write to prod?"
    options: {"no": "No", "yes": "Yes"}
    expect: "no"
    requires: {"no": ['read-only']}
`

// TestMeaningDigestIgnoresForm: comments, blank lines, flow or block
// style, quoting and anchors leave the digest alone (a baseline
// must not unpair over them, issue 26), while the file digest changes.
func TestMeaningDigestIgnoresForm(t *testing.T) {
	base := mustLoad(t, digestBase)
	same := map[string]string{
		"a comment on every line": strings.ReplaceAll(digestBase, "\n", " # reviewed\n"),
		"a comment block":         "# This scenario was reviewed.\n\n" + digestBase + "\n# end\n",
		"block style":             strings.Replace(digestBase, `compaction: {at: [3]}`, "compaction:\n  at:\n    - 3", 1),
		"quoting":                 strings.Replace(digestBase, "title: Digest", `title: "Digest"`, 1),
		"an anchor":               strings.Replace(digestBase, "match: ['read-only']", "match: &m ['read-only']", 1),
		"a folded plain scalar":   strings.Replace(digestBase, "goal: Keep the rule.", "goal: Keep\n  the rule.", 1),
	}
	for name, text := range same {
		sc := mustLoad(t, text)
		if sc.Digest != base.Digest {
			t.Errorf("%s: digest %s, want %s (the meaning did not change)", name, sc.Digest, base.Digest)
		}
		if sc.FileDigest == base.FileDigest {
			t.Errorf("%s: the file digest did not change", name)
		}
	}
	changed := map[string]string{
		"a pattern":        strings.Replace(digestBase, "match: ['read-only']", "match: ['read-only', 'readonly']", 1),
		"an event's words": strings.Replace(digestBase, "The pool size is 20.", "The pool size is 25.", 1),
		"the cut":          strings.Replace(digestBase, "at: [3]", "at: [2]", 1),
		"the expected key": strings.Replace(digestBase, `expect: "no"`, `expect: "yes"`, 1),
		"an option's text": strings.Replace(digestBase, `"yes": "Yes"`, `"yes": "Yes, go ahead"`, 1),
		// The order of a mapping's keys is kept: a probe's options are
		// read in order (the first without requirements is the default).
		"the options' order": strings.Replace(digestBase, `{"no": "No", "yes": "Yes"}`, `{"yes": "Yes", "no": "No"}`, 1),
		"a text made empty":  strings.Replace(digestBase, "goal: Keep the rule.", "goal: ''", 1),
	}
	for name, text := range changed {
		if sc := mustLoad(t, text); sc.Digest == base.Digest {
			t.Errorf("%s: the digest did not change", name)
		}
	}
	// null and the empty string are different values.
	if a, b := mustDigest(t, "a: ~\n"), mustDigest(t, "a: ''\n"); a == b {
		t.Error("null and '' share a digest")
	}
	// A key's text cannot be confused with a value: {a: [b]} vs {a: b}.
	if a, b := mustDigest(t, "a: [b]\n"), mustDigest(t, "a: b\n"); a == b {
		t.Error("a sequence and its only item share a digest")
	}
}

func mustDigest(t *testing.T, text string) string {
	t.Helper()
	d, err := MeaningDigest([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return d
}
