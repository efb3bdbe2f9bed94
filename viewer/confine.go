package viewer

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// confined returns an error when the file name of the run folder dir is a
// symlink that leads out of the folder (or nowhere): the viewer does not
// follow it, since a result.json linked to another file of the machine
// would show that file's first bytes in the reason it does not decode.
// A symlink to a file of the folder is read as that file.
func confined(dir, name string) error {
	p := filepath.Join(dir, name)
	st, err := os.Lstat(p)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return nil // the read says what is wrong, if anything
	}
	leaves := fmt.Errorf("%s is a symlink that leads out of the run folder: not followed", name)
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return leaves
	}
	base, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return leaves
	}
	rel, err := filepath.Rel(base, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return leaves
	}
	return nil
}
