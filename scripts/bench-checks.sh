#!/bin/sh
# bench-checks.sh: BenchmarkChecks (every check on a ~2,000-token summary of
# a 500-event scenario, one core) at two revisions, run alternately so that
# both see the same machine, and the fastest round of each reported.
#
#	scripts/bench-checks.sh               # HEAD against HEAD~1, 6 rounds
#	scripts/bench-checks.sh REV [ROUNDS]  # HEAD against REV
set -eu
cd "$(dirname "$0")/.."
rev=${1:-HEAD~1}
rounds=${2:-6}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ce-bench-checks.XXXXXX")
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT INT TERM

git worktree add --detach "$tmp/base" "$rev" >/dev/null 2>&1
(cd "$tmp/base" && go test -c -o "$tmp/base.test" ./checks)
go test -c -o "$tmp/head.test" ./checks
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

best_base=0 best_head=0
i=0
while [ "$i" -lt "$rounds" ]; do
	for side in base head; do
		ns=$(cd checks && "$tmp/$side.test" -test.run '^$' -test.bench 'BenchmarkChecks$' -test.cpu 1 -test.benchtime 1s |
			awk '/^BenchmarkChecks/ {print $3}')
		eval "best=\$best_$side"
		if [ "$best" -eq 0 ] || [ "$ns" -lt "$best" ]; then
			eval "best_$side=$ns"
		fi
	done
	i=$((i + 1))
done
printf '%-6s %-12s %12s %14s\n' side revision ns/op summaries/s
printf '%-6s %-12s %12d %14d\n' base "$(git rev-parse --short "$rev")" "$best_base" $((1000000000 / best_base))
printf '%-6s %-12s %12d %14d\n' head "$(git rev-parse --short HEAD)" "$best_head" $((1000000000 / best_head))
