//go:build !unix

package tokens

import "os"

// readVocabFile reads the table's file (unix maps it instead).
func readVocabFile(path string) ([]byte, error) { return os.ReadFile(path) }
