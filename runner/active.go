package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// Install refusals. Install wraps them; test with errors.Is.
var (
	// ErrStaleBase: the candidate was built on a summary that is no longer
	// the active one (compare-and-swap failed).
	ErrStaleBase = errors.New("stale base")
	// ErrCoverage: the candidate's coverage does not extend the active one.
	ErrCoverage = errors.New("coverage does not extend the active summary")
	// ErrBoundary: the coverage is not a safe boundary of the history.
	ErrBoundary = errors.New("coverage is not a safe boundary")
)

// Installed is one summary version. Versions are never removed: the active
// pointer moves, the history and older versions stay.
type Installed struct {
	// ID is the summary's id ("g<N>"); BaseID the id it was built on ("" for
	// none).
	ID     string
	BaseID string
	// CoversThrough is the last seq the summary covers.
	CoversThrough int
	// Summary is the document; nil for the empty base.
	Summary json.RawMessage
}

// Active is the pointer to the active summary of one unit, with
// compare-and-swap install as in the seed's runtime: a candidate names the
// base it was built on, and installs only when that base is still active and
// its coverage extends the active one. The zero value is not usable: use
// NewActive. Active is safe for concurrent use, so that two candidates can
// race for one base.
type Active struct {
	mu       sync.Mutex
	boundary func(seq int) error
	versions []Installed // versions[0] is the empty base
	active   int         // index into versions
}

// NewActive returns an Active with no summary (id "", coverage 0). boundary,
// if non-nil, is asked whether a coverage is a safe boundary of the durable
// history; it returns an error wrapping ErrBoundary when not.
func NewActive(boundary func(seq int) error) *Active {
	return &Active{boundary: boundary, versions: []Installed{{}}}
}

// Current returns the active summary (the empty base before any install).
func (a *Active) Current() Installed {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.versions[a.active]
}

// Versions returns every installed version, the empty base first.
func (a *Active) Versions() []Installed {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Installed(nil), a.versions...)
}

// Install makes candidate the active summary if candidate.BaseID is still
// the active id (compare-and-swap), candidate.CoversThrough is greater than
// the active coverage, and it is a safe boundary. Otherwise the active
// summary is unchanged and the error wraps ErrStaleBase, ErrCoverage or
// ErrBoundary.
func (a *Active) Install(candidate Installed) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	cur := a.versions[a.active]
	if candidate.BaseID != cur.ID {
		return fmt.Errorf("installing %s: built on %q but %q is active: %w", candidate.ID, candidate.BaseID, cur.ID, ErrStaleBase)
	}
	if candidate.CoversThrough <= cur.CoversThrough {
		return fmt.Errorf("installing %s: covers through %d, active %q already covers through %d: %w",
			candidate.ID, candidate.CoversThrough, cur.ID, cur.CoversThrough, ErrCoverage)
	}
	if a.boundary != nil {
		if err := a.boundary(candidate.CoversThrough); err != nil {
			return fmt.Errorf("installing %s: %w", candidate.ID, err)
		}
	}
	a.versions = append(a.versions, candidate)
	a.active = len(a.versions) - 1
	return nil
}
