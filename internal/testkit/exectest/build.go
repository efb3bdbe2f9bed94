package exectest

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// modulePath is the import path under which testdata/exec lives.
const modulePath = "github.com/compact-eval/compact-eval/testdata/exec/"

// Build compiles every program of Programs (testdata/exec/NAME) into dir with
// `go build` and returns each program's path by name. It needs the go
// command and must run inside the module (as tests do).
func Build(dir string) (map[string]string, error) {
	args := []string{"build", "-o", dir + string(filepath.Separator)}
	for _, p := range Programs {
		args = append(args, modulePath+p)
	}
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("building exec test programs: %v\n%s", err, strings.TrimSpace(string(out)))
	}
	paths := make(map[string]string, len(Programs))
	for _, p := range Programs {
		paths[p] = filepath.Join(dir, p)
	}
	return paths, nil
}
