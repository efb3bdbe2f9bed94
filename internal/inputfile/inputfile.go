// Package inputfile opens the files compact-eval reads as input: scenarios,
// config files, results and baselines, prompt templates, sessions to
// import. Only regular files (and symlinks to them) are read. A named pipe,
// a device or a socket is refused with a sentence before any open that
// could block: opening a FIFO waits for a writer forever (and ignores
// Ctrl-C while it waits), and /dev/zero never ends.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is a path that names something other than a regular
// file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

// Error reads "PATH is a named pipe (FIFO), not a regular file: …".
func (e *NotRegularError) Error() string { return e.Path + " " + e.Reason() }

// Reason is the error without the path, for messages that name the file
// already ("file: reason").
func (e *NotRegularError) Reason() string {
	return fmt.Sprintf("is %s, not a regular file: compact-eval reads its inputs only from regular files", Kind(e.Mode))
}

// Kind names what a file mode is, with its article: "a directory", "a named
// pipe (FIFO)", "a character device", …
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// Check reports whether path names a regular file (following symlinks),
// without opening it.
func Check(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return nil
}

// Open opens path for reading if it is a regular file. The file is checked
// before it is opened, and opened without blocking, then checked again (it
// may have been replaced in between).
func Open(path string) (*os.File, error) {
	if err := Check(path); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // what the caller asked for, not how
		}
		return nil, err
	}
	return openChecked(path)
}

// openChecked is Open after the check: a file swapped for a FIFO or a
// device since (or a path whose check was skipped) opens without waiting,
// and is refused by what the open file is.
func openChecked(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return f, nil
}

// ReadFile reads the whole of path if it is a regular file.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Reason is err's text without the path when err names one (a
// *fs.PathError or a *NotRegularError), for positioned messages that start
// with the file already.
func Reason(err error) string {
	var nr *NotRegularError
	if errors.As(err, &nr) {
		return nr.Reason()
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
