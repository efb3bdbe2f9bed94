#!/usr/bin/env bash
# Explores every fuzz target for new inputs, FUZZTIME each (default 30s).
# This is the non-blocking job: `go test ./...` (and so .ci/run) already
# runs each target over its seeds and the kept corpus in testdata/fuzz as a
# regression test; a new failing input found here is saved under
# testdata/fuzz/<Target>/ by the go command, to be fixed and kept.
#
#   scripts/fuzz-explore.sh [FUZZTIME] [PACKAGE-PATTERN]
set -uo pipefail
cd "$(dirname "$0")/.."
fuzztime="${1:-30s}"
pattern="${2:-./...}"
status=0
for pkg in $(go list "$pattern"); do
  dir="$(go list -f '{{.Dir}}' "$pkg")"
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "fuzz: $pkg $target ($fuzztime)"
    if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"; then
      echo "fuzz: $pkg $target found a failing input (kept under $dir/testdata/fuzz/$target)"
      status=1
    fi
  done
done
exit $status
