//go:build ignore

// o200k_gen writes o200k.bin, the o200k_base vocabulary and its lookup
// table (tokens.EncodeVocab), from the tiktoken-go module go.mod pins:
//
//	go generate ./internal/tokens
//
// TestO200kFile checks that the file is what this writes.
package main

import (
	"fmt"
	"os"

	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/tiktoken-go/tokenizer"
)

func main() {
	c, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		fail(err)
	}
	var toks []string
	for id := uint(0); ; id++ {
		s, err := c.Decode([]uint{id})
		if err != nil {
			break // the ranks are dense; the special tokens are not in the vocabulary
		}
		toks = append(toks, s)
	}
	b := tokens.EncodeVocab(toks)
	if err := os.WriteFile("o200k.bin", b, 0o644); err != nil {
		fail(err)
	}
	fmt.Printf("o200k.bin: %d tokens, %d bytes\n", len(toks), len(b))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "o200k_gen:", err)
	os.Exit(1)
}
