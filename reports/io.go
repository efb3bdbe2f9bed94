package reports

import (
	"fmt"

	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/result"
)

// Read reads a result file written by WriteJSON: only a regular file (a
// named pipe or a device is refused before it is opened), decoded by
// result.Decode. It is strict: unknown
// fields, trailing data, a missing or unsupported result_version and invalid
// statuses are errors that name the file and, for syntax errors, the line.
// The aggregates are recomputed from the units, so they always agree.
func Read(path string) (*result.Result, error) {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading result: %w", err)
	}
	r, err := result.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}
