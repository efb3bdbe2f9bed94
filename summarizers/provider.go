package summarizers

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/tokens"
)

// providerDoc builds the summary document of a provider compaction.
func providerDoc(cut int, text string, pc summary.ProviderCompaction) (json.RawMessage, error) {
	ext, err := json.Marshal(pc)
	if err != nil {
		return nil, err
	}
	doc := struct {
		SchemaVersion int                        `json:"schema_version"`
		CoversThrough int                        `json:"covers_through"`
		Text          string                     `json:"text,omitempty"`
		Extensions    map[string]json.RawMessage `json:"extensions"`
	}{summary.SchemaVersion, cut, text, map[string]json.RawMessage{summary.ExtProviderCompaction: ext}}
	return json.Marshal(doc)
}

func setExtra(c *result.Call, k, v string) {
	if c.Extra == nil {
		c.Extra = map[string]string{}
	}
	c.Extra[k] = v
}

// errNoModel is the error of a provider spec without a model.
func errNoModel(kind string) error {
	return fmt.Errorf("%s: missing model name (want %s:MODEL)", kind, kind)
}

// textTokens counts s with the default encoding.
func textTokens(s string) int { return tokens.Default().Count(s) }

var errEmptyEvents = errors.New("no events to compact")
