package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The viewer as the command serves it refuses a forged Host over its real
// listener: a page on a rebinding domain reads nothing.
func TestViewRefusesOtherHosts(t *testing.T) {
	t.Chdir(t.TempDir())
	os.MkdirAll("compact-eval-out", 0o755)
	site := startView(t)
	req, err := http.NewRequest(http.MethodGet, site, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "attacker.example" + strings.TrimPrefix(strings.TrimSuffix(site, "/"), "http://127.0.0.1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("Host %s: status %d, want 421", req.Host, resp.StatusCode)
	}
	if code, _ := fetch(t, site); code != 200 {
		t.Errorf("its own address: status %d", code)
	}
}

// An address that is not loopback needs --public, and says so; with it,
// --addr 0.0.0.0 binds 0.0.0.0 (IPv4), not [::], and warns on stderr.
func TestViewPublic(t *testing.T) {
	t.Chdir(t.TempDir())
	os.MkdirAll("compact-eval-out", 0o755)
	for _, addr := range []string{"0.0.0.0:0", ":0"} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"view", "--addr", addr}, newEnv(strings.NewReader(""), &out, &errb))
		if code != exitUsage || !strings.Contains(errb.String(), "not a loopback address") || !strings.Contains(errb.String(), "--public") {
			t.Errorf("view --addr %s: exit %d, stderr %q; want 2 and a word on --public", addr, code, errb.String())
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	var out, errb lockedBuffer
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"view", "--addr", "0.0.0.0:0", "--public"}, newEnv(strings.NewReader(""), &out, &errb))
	}()
	re := regexp.MustCompile(`serving \d+ runs at http://([^/]+)/`)
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		m = re.FindStringSubmatch(out.String())
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("view --public: exit %d\n%s", code, errb.String())
	}
	if m == nil || !strings.HasPrefix(m[1], "0.0.0.0:") {
		t.Errorf("view --addr 0.0.0.0:0 --public: serves at %q, want 0.0.0.0:PORT (stdout %q)", m, out.String())
	}
	if !strings.Contains(errb.String(), "warning: --public: listening on 0.0.0.0:") {
		t.Errorf("no warning on stderr: %q", errb.String())
	}
}
