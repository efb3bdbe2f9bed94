// Command agent-recall is an exec-protocol test program; see package exectest.
package main

import "github.com/compact-eval/compact-eval/internal/testkit/exectest"

func main() { exectest.AgentRecall() }
