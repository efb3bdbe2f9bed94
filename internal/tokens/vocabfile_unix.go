//go:build unix

package tokens

import (
	"os"
	"syscall"
)

// readVocabFile maps the table's file read-only instead of reading it:
// 4 MB that the garbage collector never sees and the start never copies.
// The mapping lives as long as the process (the table is kept for good).
func readVocabFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() <= 0 || st.Size() > 64<<20 {
		return os.ReadFile(path)
	}
	return syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE)
}
