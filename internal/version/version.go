// Package version reports compact-eval's own version and the versions of
// the contract (docs/formats.md) it implements.
package version

import "runtime/debug"

// Contract versions.
const (
	Scenario = 1 // scenario file (docs/formats.md §2)
	Summary  = 1 // summary document (§3): its schema_version
	// SummaryMinor is the summary contract's minor version: 1.1 added
	// artifacts[].status and pinned down supersedes and extensions
	// (docs/contract.md). A minor version never invalidates a document.
	SummaryMinor = 1
	Protocol     = 1 // exec protocol (§4)
	Result       = 1 // canonical JSON result
)

// Release is set at build time with -ldflags "-X ...version.Release=v1.2.3".
var Release = ""

// Harness is the harness version: Release, else the module version, else
// "devel".
func Harness() string {
	if Release != "" {
		return Release
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
