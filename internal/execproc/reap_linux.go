//go:build linux

package execproc

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux nothing a call starts outlives it, not even a descendant that
// left the process group with setsid, and not when the harness itself is
// killed with SIGKILL:
//
//   - the command gets SIGKILL when the harness dies (parent-death signal);
//   - every process of a call carries ExecIDEnv=<run>.<n>, inherited by its
//     descendants;
//   - the harness is a child subreaper: a descendant whose parent exits is
//     handed to the harness, not to init, so when a call ends the harness
//     finds what is left (its adopted children), kills those that carry the
//     call's id (or none), with their descendants, and reaps them;
//   - a watchdog (the harness binary run again, in its own process group)
//     waits on a pipe for the harness to die, then kills every process that
//     carries the run's id.

func init() {
	// The watchdog is this binary run again: it never reaches main.
	if v := os.Getenv(watchdogEnv); v != "" {
		run, harness := parseWatchdog(v)
		watchdog(run, harness)
		os.Exit(0)
	}
}

// parseWatchdog reads the watchdog's "RUN:PID:START" value: the run id, and
// the harness's pid when that process (the same pid and start time) is
// still this process's parent, else 0. A harness that died before the
// watchdog could look has already handed it to another parent (a
// subreaper, or init): that parent's tree is not the run's, and must never
// be walked, let alone killed.
func parseWatchdog(v string) (run string, harness int) {
	run, rest, ok := strings.Cut(v, ":")
	if !ok {
		return run, 0
	}
	pidText, start, _ := strings.Cut(rest, ":")
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 1 || os.Getppid() != pid {
		return run, 0
	}
	if st, ok := startTime(pid); !ok || st != start {
		return run, 0
	}
	return run, pid
}

var reaper struct {
	once    sync.Once
	run     string // this process's run id
	calls   atomic.Uint64
	mu      sync.Mutex   // held while a child starts, and while orphans are sorted out
	active  map[int]bool // pids of commands started and not yet waited for
	dogPid  int
	dogPipe *os.File // the watchdog's stdin; closed only when this process dies
}

func setupReaper() {
	reaper.once.Do(func() {
		var b [8]byte
		rand.Read(b[:])
		reaper.run = hex.EncodeToString(b[:])
		reaper.active = map[int]bool{}
		// Best effort: without it, orphans go to init and only the
		// ExecIDEnv scan finds them.
		_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
		startWatchdog()
	})
}

// startWatchdog starts the process that kills this run's processes after
// this process dies. Best effort: without it, a harness killed with SIGKILL
// still takes its commands along (parent-death signal), but not their
// descendants.
func startWatchdog() {
	exe, err := os.Executable()
	if err != nil {
		exe = "/proc/self/exe"
	}
	r, w, err := os.Pipe() // close-on-exec: no command inherits w
	if err != nil {
		return
	}
	dog := exec.Command(exe)
	// The value names the run and the harness (pid and start time): the
	// watchdog walks the tree of that process only while it is still the
	// watchdog's parent, never of whatever process it was handed to.
	st, _ := startTime(os.Getpid())
	dog.Env = append(filterEnv(os.Environ(), nil), watchdogEnv+"="+reaper.run+":"+strconv.Itoa(os.Getpid())+":"+st)
	dog.Stdin = r
	// Its own process group: a Ctrl-C at the terminal does not reach it.
	dog.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := dog.Start(); err != nil {
		r.Close()
		w.Close()
		return
	}
	r.Close()
	reaper.dogPid, reaper.dogPipe = dog.Process.Pid, w
	go dog.Wait() // it only exits early if something killed it
}

// watchdog waits for the harness to close its pipe (die), then kills every
// process of the run: those that carry its id, and those it last saw below
// the harness (a descendant that emptied its environment, as env -i and
// sudo do, carries no id; as the harness is their subreaper, every
// descendant alive stays below it while it lives).
func watchdog(run string, harness int) {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	self := os.Getpid()
	var mu sync.Mutex
	var seen map[int]string // pid -> start time, at the last look
	stop := make(chan struct{})
	looked := make(chan struct{})
	go func() {
		defer close(looked)
		if harness == 0 {
			// The harness is gone already (or unknown): only the marked
			// processes are known to be the run's.
			return
		}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			if os.Getppid() != harness {
				return
			}
			now := map[int]string{}
			var walk func(pid, depth int)
			walk = func(pid, depth int) {
				for _, c := range children(pid) {
					if c == self || depth > 64 {
						continue
					}
					if st, ok := startTime(c); ok {
						now[c] = st
					}
					walk(c, depth+1)
				}
			}
			walk(harness, 0)
			if os.Getppid() != harness {
				// The harness died (this process was handed to another
				// parent), perhaps during the look: its orphans went to
				// init, so the look may have missed them. Keep the last.
				return
			}
			mu.Lock()
			seen = now
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	io.Copy(io.Discard, os.Stdin)
	close(stop)
	<-looked
	mu.Lock()
	last := seen
	mu.Unlock()
	for pid, st := range last {
		// The same process, not a new one that reused the pid.
		if now, ok := startTime(pid); ok && now == st {
			unix.Kill(pid, unix.SIGKILL)
		}
	}
	for range 5 {
		if killMarked(func(v string) bool { return strings.HasPrefix(v, run+".") }) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// newCallID returns the ExecIDEnv value of a new call.
func newCallID() string {
	setupReaper()
	return reaper.run + "." + strconv.FormatUint(reaper.calls.Add(1), 10)
}

// childAttrs adds the parent-death signal to cmd.
func childAttrs(cmd *exec.Cmd) {
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// start starts cmd and records it as a running command, so that the orphan
// sweep of another call never takes it for an orphan.
func start(cmd *exec.Cmd) error {
	reaper.mu.Lock()
	defer reaper.mu.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	reaper.active[cmd.Process.Pid] = true
	return nil
}

// whenExited kills what cmd left running as soon as cmd exits, while
// cmd.Wait still waits for its pipes: a descendant holding stdout open
// would otherwise keep the call waiting for the pipe grace period. The
// returned function waits for that to be done.
func whenExited(cmd *exec.Cmd, id string) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		var info unix.Siginfo
		// WNOWAIT leaves the exit status to cmd.Wait.
		if unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil) != nil {
			return
		}
		killGroup(cmd)
		sweep(id)
	}()
	return func() { <-done }
}

// cleanup runs after cmd was waited for and its process group killed: it
// kills and reaps what the call left behind.
func cleanup(cmd *exec.Cmd, id string) {
	reaper.mu.Lock()
	if cmd.Process != nil {
		delete(reaper.active, cmd.Process.Pid)
	}
	reaper.mu.Unlock()
	for range 5 {
		if sweep(id) == 0 {
			return
		}
	}
}

// sweep kills the orphans this process adopted that belong to call id (or
// to no call: their marker is unreadable, or they are already dead), with
// their descendants, and reaps them. It returns how many it found.
func sweep(id string) int {
	reaper.mu.Lock()
	var orphans []int
	for _, pid := range children(os.Getpid()) {
		if !reaper.active[pid] && pid != reaper.dogPid {
			orphans = append(orphans, pid)
		}
	}
	reaper.mu.Unlock()
	n := 0
	for _, pid := range orphans {
		if v, ok := marker(pid); ok && v != id {
			continue // another call's, still running: its own end sweeps it
		}
		n++
		killTree(pid)
		var ws unix.WaitStatus
		unix.Wait4(pid, &ws, 0, nil)
	}
	return n
}

// killTree kills pid and every descendant it has.
func killTree(pid int) {
	for _, c := range children(pid) {
		killTree(c)
	}
	unix.Kill(pid, unix.SIGKILL)
}

// children lists the children of pid, from /proc/PID/task/*/children.
func children(pid int) []int {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// startTime returns the start time of process pid (field 22 of
// /proc/PID/stat, in clock ticks since boot): with the pid, it names one
// process.
func startTime(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	// The command name (field 2) may hold spaces and parentheses: the
	// fields after it start after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return "", false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return "", false
	}
	return f[19], true // fields 3.. are f[0..]: field 22 is f[19]
}

// marker returns the ExecIDEnv value of process pid; ok is false when it
// cannot be read (the process is gone or a zombie) or has none.
func marker(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return "", false
	}
	prefix := []byte(ExecIDEnv + "=")
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, prefix); ok {
			return string(v), true
		}
	}
	return "", false
}

// killMarked kills every process whose ExecIDEnv value satisfies match and
// returns how many it killed.
func killMarked(match func(string) bool) int {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	self := os.Getpid()
	n := 0
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == self {
			continue
		}
		if v, ok := marker(pid); ok && match(v) {
			if unix.Kill(pid, unix.SIGKILL) == nil {
				n++
			}
		}
	}
	return n
}
