//go:build !unix

package execproc

import "os/exec"

// setGroup does nothing where process groups are not available.
func setGroup(cmd *exec.Cmd) {}

// killGroup kills the command itself; processes it spawned are not reached
// on this platform.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	_ = cmd.Process.Kill()
	return nil
}
