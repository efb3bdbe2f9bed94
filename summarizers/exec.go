package summarizers

import "errors"

// NewExec returns a summarizer that runs command once per call (FORMATS.md §4).
// PLACEHOLDER until the exec issue lands.
func NewExec(command []string, opts Options) (Summarizer, error) {
	return nil, errors.New("exec summarizers are not built yet")
}
