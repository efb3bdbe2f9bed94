package runner

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines bounds a function of runner/ and cmd/ (issue 17: a stage
// that no longer fits on a screen is two stages). Test files are not held
// to it: a table of cases is long by nature.
const maxFuncLines = 100

func TestNoLongFunctions(t *testing.T) {
	fset := token.NewFileSet()
	for _, root := range []string{".", filepath.Join("..", "cmd")} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				var name string
				switch fn := n.(type) {
				case *ast.FuncDecl:
					name = fn.Name.Name
				case *ast.FuncLit:
					name = "a function literal"
				default:
					return true
				}
				from, to := fset.Position(n.Pos()), fset.Position(n.End())
				if lines := to.Line - from.Line + 1; lines > maxFuncLines {
					t.Errorf("%s:%d: %s is %d lines, more than %d", path, from.Line, name, lines, maxFuncLines)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
