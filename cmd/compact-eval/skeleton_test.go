package main

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/internal/redact/redacttest"
	"github.com/compact-eval/compact-eval/viewer"
)

// cmdNoSkeleton is the script command "noskeleton [-finder] SECRET PATH…":
// it fails
// if any file under the paths (folders are walked) holds the secret's
// skeleton (redact.Skeleton: its letters and digits, folded as the finder
// folds them), a run of redact.MinRun of them (the whole skeleton when it
// is shorter) in the skeleton of the file's bytes, whatever separated,
// spelled or disguised them; or one of the secret's other spellings
// (redacttest.Leaks: escapes, base64, hex, read independently of the
// finder). It prints how many files it read, and fails when it read none,
// so a script proves what it greps.
//
// With -finder, a file also fails when the secret finder reads the secret
// in it (redact's Contains, every class: encodings, spelled-out forms,
// shifted letters), as the secret check would.
func cmdNoSkeleton(ts *testscript.TestScript, neg bool, args []string) {
	finder := len(args) > 0 && args[0] == "-finder"
	if finder {
		args = args[1:]
	}
	if neg || len(args) < 2 {
		ts.Fatalf("usage: noskeleton [-finder] SECRET PATH…")
	}
	secret := args[0]
	rd := redact.New([]redact.Secret{{ID: "secret", Value: secret}})
	k := redact.Skeleton(secret)
	n := min(redact.MinRun, len(k))
	var windows []string
	for i := 0; i+n <= len(k); i++ {
		windows = append(windows, k[i:i+n])
	}
	files := 0
	for _, a := range args[1:] {
		err := filepath.WalkDir(ts.MkAbs(a), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			skel := redact.Skeleton(string(b))
			for _, w := range windows {
				if i := strings.Index(skel, w); i >= 0 {
					ts.Fatalf("%s holds %d characters of the secret's skeleton (%q in its skeleton %q)", path, n, w, skel[max(0, i-20):min(len(skel), i+n+20)])
				}
			}
			if leaks := redacttest.Leaks(b, secret); len(leaks) > 0 {
				ts.Fatalf("%s holds the secret: %s", path, leaks[0])
			}
			if finder {
				if leaks := rd.Find(string(b)); len(leaks) > 0 {
					l := leaks[0]
					ts.Fatalf("%s holds the secret as the finder reads it: %s at %q", path, l.Describe("the secret"), b[max(0, l.Start-20):min(len(b), l.Start+80, l.End+20)])
				}
			}
			return nil
		})
		if err != nil {
			ts.Fatalf("noskeleton %s: %v", a, err)
		}
	}
	if files == 0 {
		ts.Fatalf("noskeleton: no file under %v", args[1:])
	}
	ts.Logf("noskeleton: %d files hold no run of the secret's skeleton", files)
}

// viewPaths are the viewer's pages over one run folder found as 0/NAME:
// the runs, trends and head-to-head pages, the run's report, its grid and
// its two CSVs; cmdViewPages adds each unit's page the grid links to.
var viewPaths = []string{"/", "/runs/rows", "/trends", "/trends?figure=secret", "/diff?base=0/{run}&new=0/{run}", "/run/0/{run}/report", "/run/0/{run}", "/run/0/{run}/report.csv", "/run/0/{run}/units.csv"}

// unitLink is a link of the grid to a unit's page.
var unitLink = regexp.MustCompile(`href="(/run/[^"]+/unit/u-[0-9a-f]+)"`)

// cmdViewPages is the script command "viewpages DIR RUN OUT": it serves
// the viewer over the folder of run folders DIR, as compact-eval view
// serves it, and writes every page it has over the run folder RUN (named
// as in DIR) into the folder OUT, one file a page, failing on a status
// other than 200.
func cmdViewPages(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: viewpages DIR RUN OUT")
	}
	site := viewer.New([]string{ts.MkAbs(args[0])})
	out := ts.MkAbs(args[2])
	ts.Check(os.MkdirAll(out, 0o755))
	paths := slices.Clone(viewPaths)
	for i := 0; i < len(paths); i++ {
		p := strings.ReplaceAll(paths[i], "{run}", args[1])
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		if rec.Code != http.StatusOK {
			ts.Fatalf("viewer %s: status %d\n%s", p, rec.Code, rec.Body)
		}
		ts.Check(os.WriteFile(filepath.Join(out, "page"+strconv.Itoa(i)+".html"), rec.Body.Bytes(), 0o644))
		if p == "/run/0/"+args[1] {
			for _, m := range unitLink.FindAllStringSubmatch(rec.Body.String(), -1) {
				if !slices.Contains(paths, m[1]) {
					paths = append(paths, m[1])
				}
			}
		}
	}
}
