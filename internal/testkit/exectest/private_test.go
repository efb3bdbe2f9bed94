package exectest

import (
	"encoding/json"
	"testing"
)

// CheckPrivate must catch each kind of leak, or the privacy tests that rely
// on it prove nothing.
func TestCheckPrivate(t *testing.T) {
	sc := PrivateScenario()
	p := sc.Probes[0]
	leaks := map[string]any{
		"invariants as a field": map[string]any{"invariants": []string{}},
		"an invariant's values": sc.Invariants,
		"expect as a field":     map[string]any{"expect": p.Expect},
		"requires patterns":     p.Requires,
		"the secret":            sc.Invariants[6],
	}
	for name, v := range leaks {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if CheckPrivate(b) == nil {
			t.Errorf("%s: %s passed CheckPrivate", name, b)
		}
	}
	// What the protocol sends passes: events, goal, rules, probe question and options.
	clean, err := json.Marshal(map[string]any{"events": sc.Events, "arrivals": sc.Arrivals, "goal": sc.Goal,
		"rules": sc.Rules, "question": p.Question, "options": p.Options})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckPrivate(clean); err != nil {
		t.Errorf("the public part of the scenario fails CheckPrivate: %v", err)
	}
}
