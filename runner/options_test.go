package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestOptionsRefused: every bad Options is refused before anything runs,
// with what is wrong.
func TestOptionsRefused(t *testing.T) {
	list := builtinSuite(t)[:1]
	tests := []struct {
		name string
		set  func(*Options)
		want string
	}{
		{name: "no summarizer", set: func(o *Options) { o.Summarizers = nil }, want: "no summarizer"},
		{name: "nil summarizer", set: func(o *Options) { o.Summarizers[0].Summarizer = nil }, want: `summarizer 1 ("builtin:none"): nil`},
		{name: "unnamed summarizer", set: func(o *Options) { o.Summarizers[1].Name = "" }, want: "summarizer 2: no name"},
		{name: "summarizer twice", set: func(o *Options) { o.Summarizers[1].Name = o.Summarizers[0].Name }, want: `summarizer "builtin:none" given twice`},
		{name: "no agent", set: func(o *Options) { o.Agent = nil }, want: "no agent"},
		{name: "no output folder", set: func(o *Options) { o.Out = "" }, want: "no output folder"},
		{name: "negative trials", set: func(o *Options) { o.Trials = -1 }, want: "trials -1: want ≥ 1"},
		{name: "shard index above count", set: func(o *Options) { o.Shard = Shard{Index: 3, Count: 2} }, want: "shard 3/2: want 1 ≤ i ≤ n"},
		{name: "shard index zero", set: func(o *Options) { o.Shard = Shard{Index: 0, Count: 2} }, want: "shard 0/2: want 1 ≤ i ≤ n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := baseOptions(t, filepath.Join(t.TempDir(), "run"))
			tc.set(&opts)
			res, err := Run(context.Background(), list, opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
			if res != nil && res.Ran != 0 {
				t.Errorf("ran %d units with bad options", res.Ran)
			}
		})
	}
}
