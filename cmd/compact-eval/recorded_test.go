package main

import (
	"os"
	"path/filepath"

	"github.com/compact-eval/compact-eval/internal/testkit/suggestions"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdFixture is the script command "fixture NAME…": it copies each named
// log of testdata/import (or testdata/guard) into the script's work directory, so that the
// scripts import the very fixtures the importer's tests and golden files
// read.
func cmdFixture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: fixture NAME…")
	}
	for _, name := range args {
		// testdata/import's logs, and testdata/guard's variants of them
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "import", filepath.Base(name)))
		if os.IsNotExist(err) {
			data, err = os.ReadFile(filepath.Join("..", "..", "testdata", "guard", filepath.Base(name)))
		}
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(filepath.Base(name)), data, 0o644))
	}
}

// cmdAccept is the script command "accept FILE": it uncomments every
// suggested invariant of an imported scenario, as an author who confirms
// them all would.
func cmdAccept(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: accept FILE")
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), suggestions.Accept([]byte(ts.ReadFile(args[0]))), 0o644))
}

// cmdFixtureDir is the script command "fixturedir DIR": it copies the
// folder testdata/DIR, with everything under it, into the script's work
// directory under its last name (testdata/audit/logs becomes logs).
func cmdFixtureDir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: fixturedir DIR")
	}
	src := filepath.Join("..", "..", "testdata", filepath.FromSlash(args[0]))
	dst := ts.MkAbs(filepath.Base(src))
	ts.Check(filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	}))
}
