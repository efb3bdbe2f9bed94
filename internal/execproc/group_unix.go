//go:build unix

package execproc

import (
	"os/exec"
	"syscall"
)

// setGroup makes the command the leader of a new process group, so that
// killGroup reaches everything it spawns.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the command's whole process group. Errors (the group is
// already gone) are ignored.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return nil
}
