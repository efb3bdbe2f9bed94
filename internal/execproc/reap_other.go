//go:build !linux

package execproc

import "os/exec"

// Elsewhere than Linux there is no parent-death signal and no subreaper: a
// call's process group is killed when it ends (on Unix), but a descendant
// that left the group with setsid, or the command itself when the harness
// is killed with SIGKILL, is not reached. No marker is set.

func newCallID() string { return "" }

func childAttrs(cmd *exec.Cmd) {}

func start(cmd *exec.Cmd) error { return cmd.Start() }

func cleanup(cmd *exec.Cmd, id string) {}

func whenExited(cmd *exec.Cmd, id string) (wait func()) { return func() {} }
