package config

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/scenarios"
)

// FuzzParse: any input gives a config or a positioned error list, never a
// panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"",
		"summarizers: [builtin:none, {type: exec, command: [a, b]}]\n",
		"endpoints: [{name: e, base_url: 'http://x', api_key_env: K}]\nsummarizers: [{spec: 'openai:m', endpoint: e, params: {seed: 1}}]\n",
		"gates: {min_pass: {all: 90%}, baseline: b.json}\nexec_timeout: 1m\n",
		"a: &x 1\nb: *x\n",
		"- - -\n",
		"trials: [1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		timer := time.AfterFunc(3*time.Second, func() { panic(fmt.Sprintf("Parse hangs on %q", data)) })
		cfg, err := Parse("fuzz.yaml", data)
		timer.Stop()
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Parse took %v on %d bytes", d, len(data))
		}
		if err == nil {
			if cfg == nil {
				t.Fatal("nil config and nil error")
			}
			return
		}
		var list scenarios.ErrorList
		if !errors.As(err, &list) && err.Error() == "" {
			t.Fatalf("unpositioned, empty error %#v", err)
		}
	})
}
