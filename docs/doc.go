// Package docs embeds compact-eval's user-facing contract, formats.md, and
// the config file's reference, config.md, so that the binary ships them:
// `compact-eval help formats` and `compact-eval help config` print them. The
// other pages of this folder are read on the web or in a checkout.
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

//go:embed config.md
var config []byte

// Config returns config.md: every key of compact-eval.yaml, with an example.
func Config() []byte { return slices.Clone(config) }
