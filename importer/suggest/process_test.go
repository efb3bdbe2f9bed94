package suggest

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// An imperative with no marker is a rule when its verb constrains how the
// work is done (keep, preserve, stick to, limit; finish, stop, wait, ask
// with a condition; leave with a state); a task step, a continuation or a
// courtesy is not.
func TestProcessRules(t *testing.T) {
	const task = "Migrate the billing tables."
	rules := []string{
		"Keep two backup copies of each export.",
		"Preserve the original timestamps when copying.",
		"Please stop after the first failing test.",
		"Wait for my go-ahead before tagging the release.",
		"Ask me before deleting any branch.",
		"Leave the generated clients untouched.",
		"Stick to the standard library.",
		"Limit the change to the parser package.",
		"Also maintain the old column names for readers.",
		"Keep at least two workers idle.",
	}
	for _, said := range rules {
		t.Run(said, func(t *testing.T) {
			got := scan(userRec(task), userRec(said)).Constraints()
			if len(got) != 1 {
				t.Fatalf("constraints = %+v, want one rule", got)
			}
			if _, ok := textmatch.Find(got[0].Pattern, strings.ToLower(textmatch.Fold(said))); !ok {
				t.Errorf("pattern %q does not find its own sentence", got[0].Pattern)
			}
		})
	}
	steps := []string{
		"Keep going.",
		"Keep at it.",
		"Keep me posted.",
		"Keep in mind the cluster is shared.",
		"Stop the dev server.",
		"Leave a comment on the PR.",
		"Check the logs.",
		"Finish the migration script.",
		"Add a retry to the uploader.",
		"Ask the DBA for the schema dump.",
	}
	for _, said := range steps {
		t.Run("no rule: "+said, func(t *testing.T) {
			if got := scan(userRec(task), userRec(said)).Constraints(); len(got) != 0 {
				t.Errorf("constraints = %+v, want none: a step, not a rule", got)
			}
		})
	}
}
