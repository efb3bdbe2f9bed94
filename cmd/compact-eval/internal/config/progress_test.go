package config

import (
	"strings"
	"testing"
)

// progress: takes the four modes of run --progress and refuses anything
// else with its position.
func TestProgressKey(t *testing.T) {
	for _, mode := range []string{"auto", "tty", "plain", "none"} {
		f, err := Parse("cfg.yaml", []byte("progress: "+mode+"\n"))
		if err != nil || f.Progress != mode {
			t.Errorf("progress: %s: got %q, %v", mode, f.Progress, err)
		}
	}
	f, err := Parse("cfg.yaml", []byte("trials: 2\n"))
	if err != nil || f.Progress != "" {
		t.Errorf("no progress key: got %q, %v", f.Progress, err)
	}
	for in, want := range map[string]string{
		"progress: quiet\n": `1:11: progress: "quiet": want auto`,
		"progress: [tty]\n": `1:11: progress`,
	} {
		if _, err := Parse("cfg.yaml", []byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
	}
}

// prices: maps a target's name or spec to its input and output prices;
// both are required, finite and not negative.
func TestPricesKey(t *testing.T) {
	f, err := Parse("cfg.yaml", []byte("prices:\n  ours: {input: 0.15, output: 0.6}\n  openai:gpt-4o: {input: 2.5, output: 10}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Price{"ours": {Input: 0.15, Output: 0.6}, "openai:gpt-4o": {Input: 2.5, Output: 10}}
	if len(f.Prices) != 2 || f.Prices["ours"] != want["ours"] || f.Prices["openai:gpt-4o"] != want["openai:gpt-4o"] {
		t.Errorf("got %v, want %v", f.Prices, want)
	}
	for in, wants := range map[string][]string{
		"prices: 3\n":                                   {"1:9: prices: want a mapping"},
		"prices:\n  a: {input: 1}\n":                    {"2:6: prices.a: missing output"},
		"prices:\n  a: {input: -1, output: 1}\n":        {"2:14: prices.a.input: a price must not be negative"},
		"prices:\n  a: {input: .nan, output: 1}\n":      {"prices.a.input"},
		"prices:\n  a: {input: 1, output: 1, cur: 2}\n": {`unknown field "cur"`},
	} {
		_, err := Parse("cfg.yaml", []byte(in))
		for _, w := range wants {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%q: got %v, want %q", in, err, w)
			}
		}
	}
}

// recall: takes true, false or a budget per probe (which turns the arm
// on, its missing limits left zero for the defaults) and refuses anything
// else with its position.
func TestRecallKey(t *testing.T) {
	for in, want := range map[string]*Recall{
		"trials: 1\n":                                nil,
		"recall: true\n":                             {On: true},
		"recall: false\n":                            {On: false},
		"recall: {calls: 2, tokens: 800}\n":          {On: true, Calls: 2, Tokens: 800},
		"recall:\n  events: 3\n":                     {On: true, Events: 3},
		"recall: {calls: 1, events: 1, tokens: 1}\n": {On: true, Calls: 1, Events: 1, Tokens: 1},
	} {
		f, err := Parse("cfg.yaml", []byte(in))
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if (f.Recall == nil) != (want == nil) || f.Recall != nil && *f.Recall != *want {
			t.Errorf("%q: got %+v, want %+v", in, f.Recall, want)
		}
	}
	for in, want := range map[string]string{
		"recall: yes\n":          `1:9: recall: want true, false or a budget`,
		"recall: 4\n":            `1:9: recall: want true, false or a budget`,
		"recall: {calls: 0}\n":   `1:17: recall.calls: want an integer ≥ 1, got 0`,
		"recall: {calls: two}\n": `1:17: recall.calls`,
		"recall: {budget: 3}\n":  `1:10: unknown field "budget"`,
		"recall: [4, 5, 1500]\n": `1:9: recall: want true, false or a budget`,
	} {
		if _, err := Parse("cfg.yaml", []byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
	}
}
