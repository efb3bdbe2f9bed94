//go:build ignore

// o200k_gen writes o200k.bin, the o200k_base vocabulary as o200k.go reads
// it, from the tiktoken-go module go.mod pins:
//
//	go generate ./internal/tokens
//
// The file is the magic "o200k.v1", the token count N as a little-endian
// uint32, N uvarint lengths (the token of rank r is the r-th), then the
// tokens' bytes one after the other. TestO200kTable checks that it holds
// exactly the codec's vocabulary.
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"

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
	var b bytes.Buffer
	b.WriteString("o200k.v1")
	binary.Write(&b, binary.LittleEndian, uint32(len(toks)))
	for _, t := range toks {
		b.Write(binary.AppendUvarint(nil, uint64(len(t))))
	}
	for _, t := range toks {
		b.WriteString(t)
	}
	if err := os.WriteFile("o200k.bin", b.Bytes(), 0o644); err != nil {
		fail(err)
	}
	fmt.Printf("o200k.bin: %d tokens, %d bytes\n", len(toks), b.Len())
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "o200k_gen:", err)
	os.Exit(1)
}
