package scenarios

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// TestFillerGolden pins what filler expands to. The built-in suite, its
// gold summaries and the checks' mutations cite filler events by seq and
// role and count their tokens: a change here changes them all, so it must
// be deliberate (go test ./scenarios -run FillerGolden -update) and the
// suite's gold files rechecked.
func TestFillerGolden(t *testing.T) {
	for _, topic := range FillerTopics {
		t.Run(topic, func(t *testing.T) {
			evs, err := ExpandFiller(Filler{Count: 12, Seed: 2026, Topic: topic}, 1, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, e := range evs {
				line, err := json.Marshal(e)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(line)
				b.WriteByte('\n')
			}
			got := b.String()
			path := filepath.Join("testdata", "filler", topic+".jsonl")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("filler for %s changed (-want +got):\n%s", topic, diff)
			}
		})
	}
}
