package importer

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// lineReader reads JSONL one line at a time through a bufio.Reader, with a
// maximum line length; it numbers lines from 1.
type lineReader struct {
	br   *bufio.Reader
	max  int
	buf  []byte
	line int
}

// errLineTooLong is returned (with the line's number) for a line over max;
// the rest of the line has been consumed.
var errLineTooLong = errors.New("line too long")

func newLineReader(br *bufio.Reader, max int) *lineReader {
	if max <= 0 {
		max = DefaultMaxLineBytes
	}
	return &lineReader{br: br, max: max}
}

// next returns the next line without its line ending; the slice is valid until
// the following call. At the end of input it returns io.EOF.
func (l *lineReader) next() ([]byte, error) {
	l.buf = l.buf[:0]
	tooLong := false
	for {
		chunk, err := l.br.ReadSlice('\n')
		if !tooLong {
			if len(l.buf)+len(chunk) > l.max+1 {
				tooLong = true
				l.buf = l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		if err == io.EOF && len(l.buf) == 0 && !tooLong && len(chunk) == 0 {
			return nil, io.EOF
		}
		l.line++
		if tooLong {
			return nil, fmt.Errorf("%w (over %d bytes)", errLineTooLong, l.max)
		}
		return bytes.TrimRight(l.buf, "\r\n"), nil
	}
}
