package gen

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/compact-eval/compact-eval/scenarios"
)

func TestWriteLoadsAndLints(t *testing.T) {
	for _, events := range []int{20, 500} {
		for n := 1; n <= 3; n++ {
			t.Run(fmt.Sprintf("%d events #%d", events, n), func(t *testing.T) {
				var a, b bytes.Buffer
				if err := Write(&a, n, Options{Events: events}); err != nil {
					t.Fatal(err)
				}
				Write(&b, n, Options{Events: events})
				if a.String() != b.String() {
					t.Error("not deterministic")
				}
				sc, err := scenarios.LoadBytes("gen.yaml", a.Bytes())
				if err != nil {
					t.Fatalf("load: %v\n%s", err, a.String())
				}
				if errs := scenarios.LintScenario(sc); len(errs) > 0 {
					t.Fatalf("lint: %v", errs)
				}
				if got := len(sc.Events); got != events {
					t.Errorf("%d events, want %d", got, events)
				}
				if len(sc.Invariants) < 2 || len(sc.Probes) != 1 {
					t.Errorf("%d invariants, %d probes", len(sc.Invariants), len(sc.Probes))
				}
			})
		}
	}
}
