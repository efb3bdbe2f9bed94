package agents

import (
	"context"
	"errors"
)

// Reference is the offline reference agent. PLACEHOLDER until the scenarios
// issue lands.
type Reference struct{}

// Decide picks an option.
func (Reference) Decide(ctx context.Context, req *Request) (*Decision, error) {
	return nil, errors.New("not built yet")
}
