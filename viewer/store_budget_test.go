package viewer

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
)

// TestFullCacheBudget: past maxFullUnits the store keeps the two results
// opened last and lets the others go.
func TestFullCacheBudget(t *testing.T) {
	defer func(n int) { maxFullUnits = n }(maxFullUnits)
	maxFullUnits = 100
	root := t.TempDir()
	for i := range 4 {
		r := fake.Result(fake.Config{Scenarios: 10, Seed: uint64(i)}) // 40 units each
		d := filepath.Join(root, fmt.Sprintf("r%d", i))
		must(t, os.MkdirAll(d, 0o755))
		must(t, os.WriteFile(filepath.Join(d, "result.json"), writeJSON(t, r), 0o644))
	}
	s := NewStore([]string{root})
	for i := range 4 {
		if _, _, err := s.Result(fmt.Sprintf("0/r%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	for _, c := range s.full {
		ids = append(ids, c.id)
	}
	if !slices.Equal(ids, []string{"0/r3", "0/r2"}) {
		t.Errorf("kept %v, want the two opened last", ids)
	}
}
