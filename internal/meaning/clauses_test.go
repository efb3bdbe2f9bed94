package meaning

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMessageHeaderEndsSentence: a copied transcript's message header
// starts a sentence, so what one message lists is not read with what the
// next says ("… pool_resize_OLD.md [#61 assistant] The current runbook is
// …"); a citation in brackets cuts nothing.
func TestMessageHeaderEndsSentence(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"a.md a_old.md [#61 assistant] the current one is a.md",
			[]string{"a.md a_old.md", "[#61 assistant] the current one is a.md"}},
		{"[#60 tool rb_ls] a.md a.md.bak [#61 user] use a.md",
			[]string{"[#60 tool rb_ls] a.md a.md.bak", "[#61 user] use a.md"}},
		{"the current one is a.md [#61] and a_old.md is stale",
			[]string{"the current one is a.md [#61] and a_old.md is stale"}},
	} {
		x := New(c.text)
		var got []string
		sents := map[int]bool{}
		for ci, cl := range x.Clauses() {
			got = append(got, x.ClauseText(ci))
			sents[cl.Sent] = true
		}
		if diff := cmp.Diff(c.want, got); diff != "" || len(sents) != len(c.want) {
			t.Errorf("%q: clauses (-want +got):\n%s; %d sentences", c.text, diff, len(sents))
		}
	}
}
