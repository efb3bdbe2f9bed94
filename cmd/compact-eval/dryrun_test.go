package main

import (
	"testing"

	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
)

func TestHumanCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 9999: "9999", 10_000: "10k", 775_937: "776k", 1_010_669: "1.0M", 12_500_000: "12M"} {
		if got := humanCount(n); got != want {
			t.Errorf("humanCount(%d) = %q, want %q", n, got, want)
		}
	}
}

// The cost is the tokens to send times the prices per million tokens; a
// target with no price has none.
func TestPlanRowCost(t *testing.T) {
	r := &planRow{tokensIn: 2_000_000, tokensOut: 100_000}
	if _, ok := r.cost(); ok {
		t.Error("a row with no price has a cost")
	}
	r.price = &config.Price{Input: 2.5, Output: 10}
	if c, ok := r.cost(); !ok || c != 6 {
		t.Errorf("cost = %v, %v; want 6 (2M × $2.50 + 0.1M × $10)", c, ok)
	}
}
