//go:build race

package runner

// raceOn is set when the tests run under the race detector (.ci/run runs
// this package once more with -race).
const raceOn = true
