package viewer_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/viewer"
)

// serve serves the site over dir on a real listener of addr through
// viewer.OwnHost, as compact-eval view does, and returns the listener's
// port.
func serve(t *testing.T, dir, network, addr, named string) int {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: viewer.OwnHost(viewer.New([]string{dir}), ln.Addr(), named)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}

// raw sends one request written by hand to 127.0.0.1:port (so that its
// Host header is whatever the test forges, or missing) and returns the
// status and body.
func raw(t *testing.T, port int, request string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, request); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The viewer answers only the requests addressed to its own address: a
// page on a rebinding domain (Host attacker.example) gets 421 and not a
// byte of a run, whatever the path.
func TestOwnHost(t *testing.T) {
	dir := fixture(t, 2)
	run := fixtureRun(1, 4).RunID
	port := serve(t, dir, "tcp4", "127.0.0.1:0", "127.0.0.1")
	p := strconv.Itoa(port)
	for _, tc := range []struct {
		host string
		want int
	}{
		{"127.0.0.1:" + p, 200},
		{"localhost:" + p, 200},
		{"LocalHost:" + p, 200},
		{"[::1]:" + p, 200},
		{"attacker.example:" + p, 421},
		{"attacker.example", 421},
		{"127.0.0.1.nip.io:" + p, 421},
		{"localhost.:" + p, 421},
		{"127.0.0.1:" + strconv.Itoa(port+1), 421},
		{"127.0.0.1", 421},
		{"", 421},
	} {
		for _, path := range []string{"/", "/run/0/" + run, "/run/0/" + run + "/report.csv", "/static/style.css"} {
			req := "GET " + path + " HTTP/1.1\r\nHost: " + tc.host + "\r\nConnection: close\r\n\r\n"
			code, body := raw(t, port, req)
			if code != tc.want {
				t.Errorf("Host %q, %s: status %d, want %d", tc.host, path, code, tc.want)
			}
			if tc.want == 421 && (strings.Contains(body, run) || strings.Contains(body, "builtin:")) {
				t.Errorf("Host %q, %s: the refusal shows the run: %q", tc.host, path, body)
			}
		}
	}
	// HTTP/1.0 without a Host header at all.
	if code, _ := raw(t, port, "GET / HTTP/1.0\r\n\r\n"); code != 421 {
		t.Errorf("no Host header: status %d, want 421", code)
	}
}

// A viewer started on another host name (--addr NAME:PORT) answers that
// name too; one on every interface (--addr 0.0.0.0:PORT --public) answers
// the machine's own addresses, never another domain.
func TestOwnHostNamedAndEveryInterface(t *testing.T) {
	dir := fixture(t, 1)
	port := serve(t, dir, "tcp4", "127.0.0.1:0", "viewer.internal")
	p := strconv.Itoa(port)
	for host, want := range map[string]int{"viewer.internal:" + p: 200, "localhost:" + p: 200, "other.internal:" + p: 421} {
		if code, _ := raw(t, port, "GET / HTTP/1.1\r\nHost: "+host+"\r\nConnection: close\r\n\r\n"); code != want {
			t.Errorf("--addr viewer.internal: Host %q: status %d, want %d", host, code, want)
		}
	}
	port = serve(t, dir, "tcp4", "0.0.0.0:0", "0.0.0.0")
	p = strconv.Itoa(port)
	for host, want := range map[string]int{"127.0.0.1:" + p: 200, "attacker.example:" + p: 421} {
		if code, _ := raw(t, port, "GET / HTTP/1.1\r\nHost: "+host+"\r\nConnection: close\r\n\r\n"); code != want {
			t.Errorf("--addr 0.0.0.0: Host %q: status %d, want %d", host, code, want)
		}
	}
	if name, err := os.Hostname(); err == nil && name != "" {
		if code, _ := raw(t, port, "GET / HTTP/1.1\r\nHost: "+name+":"+p+"\r\nConnection: close\r\n\r\n"); code != 200 {
			t.Errorf("--addr 0.0.0.0: the machine's name %q: status %d, want 200", name, code)
		}
	}
}

// A file of a run folder that is a symlink out of the folder is not
// followed: the run is listed unreadable with the reason, and no page
// shows a byte of the file it points at. A symlink to a file of the folder
// is read as that file.
func TestSymlinkOutOfRunFolder(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "private.txt")
	must(t, os.WriteFile(outside, []byte("PRIVATE-4f9a first line of a file that is no result\n"), 0o644))

	out := writeRun(t, dir, "linked-out", fixtureRun(1, 2))
	must(t, os.Remove(filepath.Join(out, "result.json")))
	must(t, os.Symlink(outside, filepath.Join(out, "result.json")))
	rel := writeRun(t, dir, "linked-out-relative", fixtureRun(2, 2))
	must(t, os.Remove(filepath.Join(rel, "result.json")))
	must(t, os.Symlink("../../"+filepath.Base(filepath.Dir(outside))+"/private.txt", filepath.Join(rel, "result.json")))
	header := writeRun(t, dir, "header-out", fixtureRun(3, 2))
	must(t, os.Remove(filepath.Join(header, "result.json")))
	must(t, os.Remove(filepath.Join(header, "run.json")))
	must(t, os.Symlink(outside, filepath.Join(header, "run.json")))
	inside := writeRun(t, dir, "linked-in", fixtureRun(4, 2))
	must(t, os.Mkdir(filepath.Join(inside, "keep"), 0o755))
	must(t, os.Rename(filepath.Join(inside, "result.json"), filepath.Join(inside, "keep", "result.json")))
	must(t, os.Symlink("keep/result.json", filepath.Join(inside, "result.json")))

	site := viewer.New([]string{dir})
	for _, r := range site.Store().Runs() {
		switch r.ID {
		case "0/linked-out", "0/linked-out-relative", "0/header-out":
			if r.State != viewer.StateUnreadable || !strings.Contains(r.Reason, "symlink that leads out of the run folder: not followed") {
				t.Errorf("%s: state %s, reason %q; want unreadable, not followed", r.ID, r.State, r.Reason)
			}
		case "0/linked-in":
			if r.State != viewer.StateDone {
				t.Errorf("%s: a symlink to a file of the folder: state %s (%s), want done", r.ID, r.State, r.Reason)
			}
		}
	}
	for _, p := range []string{"/", "/runs/rows", "/run/0/linked-out", "/run/0/linked-out-relative", "/run/0/header-out", "/run/0/linked-out/report.csv", "/trends"} {
		if _, body := get(t, site, p); strings.Contains(body, "PRIVATE") || strings.Contains(body, "first line") {
			t.Errorf("%s shows the file a symlink points at", p)
		}
	}
	if code, _ := get(t, site, "/run/0/linked-in"); code != 200 {
		t.Errorf("/run/0/linked-in: status %d, want 200", code)
	}
}
