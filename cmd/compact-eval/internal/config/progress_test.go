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
