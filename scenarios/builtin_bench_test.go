package scenarios

import "testing"

// BenchmarkBuiltin loads and lints the embedded suite, as `compact-eval
// run` does before its first request.
//
//	go test -run='^$' -bench=BenchmarkBuiltin -cpu=1,2 ./scenarios
func BenchmarkBuiltin(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		list, err := Builtin()
		if err != nil {
			b.Fatal(err)
		}
		if errs := Lint(list); errs != nil {
			b.Fatal(errs)
		}
	}
}
