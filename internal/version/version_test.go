package version

import (
	"runtime/debug"
	"testing"
)

// buildInfo parses build information in the form `go version -m` prints.
func buildInfo(t *testing.T, text string) *debug.BuildInfo {
	t.Helper()
	bi, err := debug.ParseBuildInfo(text)
	if err != nil {
		t.Fatal(err)
	}
	return bi
}

func TestFromBuild(t *testing.T) {
	const head = "go\tgo1.26.8\npath\tgithub.com/compact-eval/compact-eval/cmd/compact-eval\n"
	for _, tc := range []struct {
		name, release, info, want, rev string
		dirty                          bool
	}{
		{name: "release stamped by -ldflags", release: "v1.2.3",
			info: head + "mod\tgithub.com/compact-eval/compact-eval\t(devel)\t\n", want: "v1.2.3"},
		{name: "go install of a pinned commit: its pseudo-version",
			info: head + "mod\tgithub.com/compact-eval/compact-eval\tv0.0.0-20261204190734-8f2796b09095\th1:abc=\n",
			want: "v0.0.0-20261204190734-8f2796b09095", rev: "8f2796b09095"},
		{name: "go install of a tag",
			info: head + "mod\tgithub.com/compact-eval/compact-eval\tv1.4.0\th1:abc=\n", want: "v1.4.0"},
		{name: "go build in a clean checkout",
			info: head + "mod\tgithub.com/compact-eval/compact-eval\tv0.0.0-20261204190734-8f2796b09095\t\n" +
				"build\tvcs=git\nbuild\tvcs.revision=8f2796b0909561da2c5bf378e5d0a9165f2cb2db\nbuild\tvcs.time=2026-12-04T19:07:34Z\nbuild\tvcs.modified=false\n",
			want: "v0.0.0-20261204190734-8f2796b09095", rev: "8f2796b0909561da2c5bf378e5d0a9165f2cb2db"},
		{name: "a checkout with VCS settings and no module version, modified",
			info: head + "mod\tgithub.com/compact-eval/compact-eval\t(devel)\t\n" +
				"build\tvcs=git\nbuild\tvcs.revision=8f2796b0909561da2c5bf378e5d0a9165f2cb2db\nbuild\tvcs.time=2026-12-04T19:07:34Z\nbuild\tvcs.modified=true\n",
			want: "devel-8f2796b09095-20261204T190734Z+dirty", rev: "8f2796b0909561da2c5bf378e5d0a9165f2cb2db", dirty: true},
		{name: "a dirty pseudo-version",
			info: head + "mod\tgithub.com/compact-eval/compact-eval\tv0.0.0-20261204190734-8f2796b09095+dirty\t\n",
			want: "v0.0.0-20261204190734-8f2796b09095+dirty", rev: "8f2796b09095", dirty: true},
		{name: "go run with -buildvcs=false: nothing known",
			info: head + "mod\tgithub.com/compact-eval/compact-eval\t(devel)\t\n", want: "devel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bi := buildInfo(t, tc.info)
			if got := FromBuild(tc.release, bi); got != tc.want {
				t.Errorf("FromBuild = %q, want %q", got, tc.want)
			}
			if rev, dirty := RevisionOf(bi); rev != tc.rev || dirty != tc.dirty {
				t.Errorf("RevisionOf = %q, %v; want %q, %v", rev, dirty, tc.rev, tc.dirty)
			}
		})
	}
	if got := FromBuild("", nil); got != "devel" {
		t.Errorf("no build info: %q", got)
	}
}
