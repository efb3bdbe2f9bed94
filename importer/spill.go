package importer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
)

const spillMemory = 4 << 20 // events kept in memory before spilling to a file

// spill holds the rendered events' YAML, in memory up to spillMemory bytes
// and in a temporary file beyond.
type spill struct {
	dir string
	mem bytes.Buffer
	f   *os.File
	w   *bufio.Writer
}

func (s *spill) write(p []byte) error {
	if s.w != nil {
		_, err := s.w.Write(p)
		return err
	}
	s.mem.Write(p)
	if s.mem.Len() < spillMemory {
		return nil
	}
	f, err := os.CreateTemp(s.dir, "compact-eval-import-*")
	if err != nil {
		return fmt.Errorf("spilling events: %w", err)
	}
	s.f = f
	s.w = bufio.NewWriterSize(f, 1<<20)
	_, err = s.w.Write(s.mem.Bytes())
	s.mem = bytes.Buffer{}
	return err
}

func (s *spill) finish() error {
	if s.w == nil {
		return nil
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("spilling events: %w", err)
	}
	_, err := s.f.Seek(0, io.SeekStart)
	return err
}

// reader returns the spilled YAML.
func (s *spill) reader() io.Reader {
	if s.f != nil {
		return s.f
	}
	return bytes.NewReader(s.mem.Bytes())
}

func (s *spill) close() {
	if s.f != nil {
		s.f.Close()
		os.Remove(s.f.Name())
		s.f = nil
	}
}

// size is the number of bytes spilled so far.
func (s *spill) size() int64 {
	if s.f == nil {
		return int64(s.mem.Len())
	}
	if err := s.w.Flush(); err != nil {
		return 0
	}
	st, err := s.f.Stat()
	if err != nil {
		return 0
	}
	return st.Size()
}

// contents returns every byte spilled, and leaves the file (if any) read
// from its start again. Call it after finish.
func (s *spill) contents() ([]byte, error) {
	if s.f == nil {
		return s.mem.Bytes(), nil
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(s.f)
	if err != nil {
		return nil, fmt.Errorf("reading spilled events: %w", err)
	}
	_, err = s.f.Seek(0, io.SeekStart)
	return data, err
}
