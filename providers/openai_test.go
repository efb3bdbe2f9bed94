package providers_test

import (
	"encoding/json"
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/providers"
	"github.com/compact-eval/compact-eval/summarizers"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestOpenAIOptionsValidate(t *testing.T) {
	neg, hot := float32(-0.1), float32(2.5)
	tests := []struct {
		name string
		opts providers.OpenAIOptions
		want string
	}{
		{name: "zero", opts: providers.OpenAIOptions{}},
		{name: "negative temperature", opts: providers.OpenAIOptions{Temperature: &neg}, want: "temperature"},
		{name: "temperature above 2", opts: providers.OpenAIOptions{Temperature: &hot}, want: "temperature"},
		{name: "negative max tokens", opts: providers.OpenAIOptions{MaxTokens: -1}, want: "max tokens"},
		{name: "negative rpm", opts: providers.OpenAIOptions{RPM: -1}, want: "rpm"},
		{name: "bad endpoint", opts: providers.OpenAIOptions{BaseURL: "localhost:8000"}, want: "endpoint"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Getenv = func(string) string { return "" }
			err := tc.opts.Validate()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("Validate() = %q, want it to contain %q", got, tc.want)
			}
		})
	}
	if _, err := summarizers.NewOpenAI(" ", providers.OpenAIOptions{}); err == nil {
		t.Error("empty model: want an error")
	}
}

func TestFirstJSONObject(t *testing.T) {
	tests := []struct {
		name, in, want string
		err            bool
	}{
		{name: "whole", in: ` {"a":1} `, want: `{"a":1}`},
		{name: "fenced", in: "```json\n{\"a\":1}\n```", want: `{"a":1}`},
		{name: "prose around", in: `Here: {"a":{"b":"}"}} bye`, want: `{"a":{"b":"}"}}`},
		{name: "skips a broken brace", in: `{oops} then {"a":2}`, want: `{"a":2}`},
		{name: "none", in: "no json here", err: true},
		{name: "empty", in: "  ", err: true},
		{name: "array only", in: "[1]", err: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := providers.FirstJSONObject(tc.in)
			if (err != nil) != tc.err {
				t.Fatalf("err = %v, want error %v", err, tc.err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzFirstJSONObject(f *testing.F) {
	for _, s := range []string{`{"a":1}`, "```json\n{}\n```", `x {"a":{"b":[1,2]}} y`, `{{{{`, `{"a":`, ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		obj, err := providers.FirstJSONObject(s)
		if err != nil {
			return
		}
		var v map[string]any
		if json.Unmarshal(obj, &v) != nil {
			t.Errorf("FirstJSONObject(%q) = %s, not an object", s, obj)
		}
	})
}

func TestFirstJSONObjectHostile(t *testing.T) {
	// A megabyte of unterminated objects must not take quadratic time.
	s := strings.Repeat(`{"a":`, 200000)
	if _, err := providers.FirstJSONObject(s); err == nil {
		t.Error("want an error")
	}
}

func TestOpenAIRegisterFlags(t *testing.T) {
	temp, seed := float32(0), 7
	tests := []struct {
		name string
		args []string
		want providers.OpenAIOptions
		err  bool
	}{
		{name: "none", want: providers.OpenAIOptions{Timeout: llm.DefaultTimeout}},
		{name: "all", args: []string{"-prompt", "p.tmpl", "-temperature", "0", "-seed", "7", "-max-tokens", "900", "-max-retries", "2",
			"-call-timeout", "30s", "-rpm", "60", "-tpm", "90000", "-no-cache", "-cache-dir", "c"},
			want: providers.OpenAIOptions{PromptFile: "p.tmpl", Temperature: &temp, Seed: &seed, MaxTokens: 900, MaxRetries: 2,
				Timeout: 30 * time.Second, RPM: 60, TPM: 90000, NoCache: true, CacheDir: "c"}},
		{name: "max-retries 0 means none", args: []string{"-max-retries", "0"}, want: providers.OpenAIOptions{MaxRetries: -1, Timeout: llm.DefaultTimeout}},
		{name: "temperature out of range", args: []string{"-temperature", "3"}, err: true},
		{name: "negative retries", args: []string{"-max-retries", "-1"}, err: true},
		{name: "seed not a number", args: []string{"-seed", "x"}, err: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var o providers.OpenAIOptions
			fs := flag.NewFlagSet("run", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			o.RegisterFlags(fs)
			err := fs.Parse(tc.args)
			if (err != nil) != tc.err {
				t.Fatalf("Parse: %v, want error %v", err, tc.err)
			}
			if err == nil {
				if diff := cmp.Diff(tc.want, o, cmpopts.IgnoreFields(providers.OpenAIOptions{}, "Limiter", "Getenv")); diff != "" {
					t.Errorf("options (-want +got):\n%s", diff)
				}
			}
		})
	}
}
