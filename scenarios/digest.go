package scenarios

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"

	"gopkg.in/yaml.v3"
)

// Digests of a scenario. Scenario.Digest is the digest of its meaning: the
// parsed document in a canonical form, so that comments, blank lines,
// indentation, quoting, block styles that read the same and anchors never
// change it, while any value that changes does, and so does the order of a
// mapping's keys (a probe's options are read in order). Scenario.FileDigest is the digest of the file's bytes, kept so a
// baseline written before meaning digests existed still pairs.
//
// The canonical form: a mapping is its keys in order, each followed by its
// value; a sequence is its items in order; a scalar is its
// text (the scenario format reads `old: 5432` and `old: "5432"` alike),
// except null, which stays null. It is written as JSON and hashed.

// digestPrefix starts every digest.
const digestPrefix = "sha256:"

// fileDigest is the digest of data's bytes.
func fileDigest(data []byte) string {
	sum := sha256.Sum256(data)
	return digestPrefix + hex.EncodeToString(sum[:])
}

// meaningDigest is the digest of the canonical form of the document root.
func meaningDigest(root *yaml.Node) string {
	h := sha256.New()
	writeCanonical(h, root)
	return digestPrefix + hex.EncodeToString(h.Sum(nil))
}

// MeaningDigest parses data as one YAML document and returns the digest of
// its meaning (Scenario.Digest), without decoding it as a scenario.
func MeaningDigest(data []byte) (string, error) {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return "", fmt.Errorf("parsing YAML: %w", err)
	}
	return meaningDigest(&doc), nil
}

// writeCanonical writes n in the canonical form. Aliases never reach it:
// LoadBytes refuses them before the digest is taken.
func writeCanonical(w hash.Hash, n *yaml.Node) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			io.WriteString(w, "null")
			return
		}
		writeCanonical(w, n.Content[0])
	case yaml.MappingNode:
		io.WriteString(w, "{")
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				io.WriteString(w, ",")
			}
			writeString(w, n.Content[i].Value)
			io.WriteString(w, ":")
			writeCanonical(w, n.Content[i+1])
		}
		io.WriteString(w, "}")
	case yaml.SequenceNode:
		io.WriteString(w, "[")
		for i, c := range n.Content {
			if i > 0 {
				io.WriteString(w, ",")
			}
			writeCanonical(w, c)
		}
		io.WriteString(w, "]")
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			io.WriteString(w, "null")
			return
		}
		writeString(w, n.Value)
	default:
		// An alias (refused earlier) or a kind yaml.v3 may add: its text,
		// marked, so it never equals a scalar.
		fmt.Fprintf(w, "!%d:", n.Kind)
		writeString(w, n.Value)
	}
}

func writeString(w io.Writer, s string) {
	b, _ := json.Marshal(s) // a string always marshals
	w.Write(b)
}
