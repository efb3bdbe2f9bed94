package checks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBaseNames: a file name binds a clause to its path only when no
// other path of the group shares it.
func TestBaseNames(t *testing.T) {
	got := baseNames([]string{"charts/svc/values-production.yaml", "config/db.yaml"},
		[]string{"charts/svc/values-prod.yaml", "deploy/config/db.yaml", "Makefile"})
	want := map[string][]string{
		"charts/svc/values-production.yaml": {"values-production.yaml"},
		"charts/svc/values-prod.yaml":       {"values-prod.yaml"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("baseNames (-want +got):\n%s", diff)
	}
}
