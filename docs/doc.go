// Package docs embeds compact-eval's user-facing contract, formats.md, so
// that the binary ships it: `compact-eval help formats` prints it. The other
// pages of this folder are read on the web or in a checkout.
package docs

import (
	_ "embed"
	"slices"
)

//go:embed formats.md
var formats []byte

// Formats returns formats.md: the scenario file, the summary document, the
// exec protocol, the result file and the exit codes, versioned.
func Formats() []byte { return slices.Clone(formats) }
