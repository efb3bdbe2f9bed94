// Package version reports compact-eval's own version and the versions of
// the contract (docs/formats.md) it implements.
package version

import (
	"runtime/debug"
	"strings"
)

// Contract versions.
const (
	Scenario = 1 // scenario file (docs/formats.md §2)
	Summary  = 1 // summary document (§3): its schema_version
	// SummaryMinor is the summary contract's minor version: 1.1 added
	// artifacts[].status and pinned down supersedes and extensions; 1.2
	// added the typed fields of constraints[]; 1.3 added approvals[] and
	// handoff (docs/contract.md). A minor version never invalidates a
	// document.
	SummaryMinor = 3
	Protocol     = 1 // exec protocol (§4)
	Result       = 1 // canonical JSON result
)

// Release is set at build time with -ldflags "-X ...version.Release=v1.2.3".
var Release = ""

// Harness is the harness version (see FromBuild), from the running
// binary's build information.
func Harness() string {
	bi, _ := debug.ReadBuildInfo()
	return FromBuild(Release, bi)
}

// FromBuild is the version of a binary: release when set; else the main
// module's version as the go command stamped it (a tag, or the
// pseudo-version of a commit: `go install …@COMMIT`, or `go build` in a
// checkout, which appends "+dirty" to a modified one); else, from a checkout
// whose build info holds the VCS settings but no module version,
// "devel-REVISION-DATE" with the commit's first 12 hex digits and its UTC
// time, and "+dirty" when files differed from it; else "devel". bi may be
// nil.
func FromBuild(release string, bi *debug.BuildInfo) string {
	if release != "" {
		return release
	}
	if bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, when string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	v := "devel-" + rev[:min(12, len(rev))]
	if when != "" {
		v += "-" + strings.NewReplacer("-", "", ":", "").Replace(when)
	}
	if dirty {
		v += "+dirty"
	}
	return v
}

// Revision is the VCS commit the binary was built from, from its build
// information: the revision the go command recorded when building in a
// checkout, or the commit a pseudo-version names (`go install …@COMMIT`),
// as 12 or more hex digits; "" when neither says. Dirty is true when the
// checkout had changes. `compact-eval init` pins the workflow's install
// to it.
func Revision() (rev string, dirty bool) {
	bi, _ := debug.ReadBuildInfo()
	return RevisionOf(bi)
}

// RevisionOf is Revision for the build information bi (nil: none).
func RevisionOf(bi *debug.BuildInfo) (rev string, dirty bool) {
	if bi == nil {
		return "", false
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		return rev, dirty
	}
	// v0.0.0-20261204190734-8f2796b09095 (+dirty): the last part is the
	// commit.
	v, plus, _ := strings.Cut(bi.Main.Version, "+")
	parts := strings.Split(v, "-")
	if len(parts) >= 3 && len(parts[len(parts)-2]) >= 14 {
		if last := parts[len(parts)-1]; len(last) == 12 && strings.Trim(last, "0123456789abcdef") == "" {
			return last, plus == "dirty"
		}
	}
	return "", false
}
