package agents

import (
	"errors"

	"github.com/compact-eval/compact-eval/summarizers"
)

// NewExec returns an agent that runs command once per call (FORMATS.md §4).
// PLACEHOLDER until the exec issue lands.
func NewExec(command []string, opts summarizers.Options) (Agent, error) {
	return nil, errors.New("exec agents are not built yet")
}
