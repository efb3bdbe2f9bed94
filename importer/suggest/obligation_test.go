package suggest

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// A requirement stated with should, needs to, has to, is required to or
// ought to, in the user's words, is a rule; its pattern finds the rule
// restated with another modal. The same modals stating an expectation of
// an outcome (a verdict, a perception, a hedge, a counterfactual, a
// condition, the speaker's errand) are no rule.
func TestObligationRules(t *testing.T) {
	const task = "Build the billing exporter."
	rules := []struct{ said, restated string }{
		{"The CLI needs to accept input from stdin.", "Rule: the CLI must accept input from stdin"},
		{"Each webhook handler has to be idempotent.", "webhook handler should be idempotent"},
		{"Invoices should round to whole cents.", "invoices must round to whole cents"},
		{"The exporter shouldn't touch the archived rows.", "the exporter must not touch the archived rows"},
		{"All unit tests should pass before you open the PR.", "all unit tests must pass before you open a PR"},
		{"You should run the linter before committing.", "you must run the linter before committing"},
		{"The dashboard is required to load without network access.", "the dashboard has to load without network access"},
		{"Passwords ought to be hashed with bcrypt.", "passwords must be hashed with bcrypt"},
		{"If an upload fails, the client should retry with backoff.", "the client must retry with backoff"},
		{"The reader app should work offline.", "the reader app must work offline"},
		{"It should be a static site with no server.", "it must be a static site"},
		{"The importer is slow and needs to stream its input.", "the importer is slow and must stream its input"},
		// no obligation, a scope rule: kept in its own words
		{"You don't need to update the changelog.", "you don't need to update the changelog"},
	}
	for _, tc := range rules {
		t.Run(tc.said, func(t *testing.T) {
			got := scan(userRec(task), userRec(tc.said)).Constraints()
			if len(got) != 1 {
				t.Fatalf("constraints = %+v, want one rule", got)
			}
			p := got[0].Pattern
			for _, text := range []string{tc.said, tc.restated} {
				if _, ok := textmatch.Find(p, strings.ToLower(textmatch.Fold(text))); !ok {
					t.Errorf("pattern %q does not find %q", p, text)
				}
			}
		})
	}
	expectations := []string{
		"That should work now.",
		"It should be fine.",
		"This change should fix the flaky benchmark.",
		"You should see a login prompt.",
		"We should get a 201 back.",
		"I think the config should be reloaded.",
		"The worker should probably restart.",
		"It should have failed earlier.",
		"If the job should stall, ping me.",
		"Should you need credentials, ask Dana.",
		"I need to step out for a bit.",
		"I'm having some issues with money and need to downgrade my flights.",
		"That should do the trick.",
		"The suite should pass again.",
		"That should be it.",
		"Everything should be ready.",
		"It should be working by the time you read this.",
		"It should be noted that the cache is shared.",
		"It has to be quick.", // a pattern of one word would match any "must be quick"
	}
	for _, said := range expectations {
		t.Run("no rule: "+said, func(t *testing.T) {
			if got := scan(userRec(task), userRec(said)).Constraints(); len(got) != 0 {
				t.Errorf("constraints = %+v, want none: an expectation, not a requirement", got)
			}
		})
	}
	// The agent's words are not the user's rules.
	if got := scan(userRec(task), assistantRec("The exporter should stream rows to disk.")).Constraints(); len(got) != 0 {
		t.Errorf("constraints = %+v from the agent's words, want none", got)
	}
}
