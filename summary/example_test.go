package summary_test

import (
	"fmt"

	"github.com/compact-eval/compact-eval/summary"
)

// Validate says what a summary document gets wrong, each problem at its
// JSON pointer.
func ExampleValidate() {
	for _, v := range summary.Validate([]byte(`{"schema_version": 1, "covers_through": "three", "constraints": [{}]}`)) {
		fmt.Println(v)
	}
	// Output:
	// /constraints/0: text is required
	// /covers_through: covers_through is a string; want an integer
}
