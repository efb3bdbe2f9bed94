#!/bin/sh
# bench-checks.sh: BenchmarkChecks (every check on a ~2,000-token summary of
# a 500-event scenario, one core) at two revisions, run alternately so that
# both see the same machine, and the fastest round of each reported: wall
# time per summary (the benchmark's ns/op) and CPU time per summary (the
# test process's user+system time over N summaries, less that of a run of
# one, divided by N-1), which a shared machine's load inflates far less.
#
#	scripts/bench-checks.sh                    # HEAD against HEAD~1, 6 rounds
#	scripts/bench-checks.sh REV [ROUNDS [N]]   # HEAD against REV, N summaries a round (1000)
set -eu
cd "$(dirname "$0")/.."
rev=${1:-HEAD~1}
rounds=${2:-6}
n=${3:-1000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ce-bench-checks.XXXXXX")
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT INT TERM

git worktree add --detach "$tmp/base" "$rev" >/dev/null 2>&1
(cd "$tmp/base" && go test -c -o "$tmp/base.test" ./checks)
go test -c -o "$tmp/head.test" ./checks
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# bench SIDE COUNT prints the run's ns/op and its CPU time in ms.
bench() {
	(cd checks && /usr/bin/time -f 'cpu %U %S' "$tmp/$1.test" -test.run '^$' -test.bench 'BenchmarkChecks$' \
		-test.cpu 1 -test.benchtime "$2x" 2>&1) |
		awk '/^BenchmarkChecks/ {ns = $3} /^cpu / {cpu = ($2 + $3) * 1000} END {printf "%d %d\n", ns, cpu}'
}

# lesser A B prints the smaller of two integers, A when B is 0.
lesser() { if [ "$2" -eq 0 ] || [ "$1" -lt "$2" ]; then echo "$1"; else echo "$2"; fi; }

best_base=0 best_head=0 cpu_base=0 cpu_head=0 one_base=0 one_head=0
for side in base head; do
	for _ in 1 2 3; do
		set -- $(bench "$side" 1)
		eval "one_$side=\$(lesser $2 \$one_$side)"
	done
done
i=0
while [ "$i" -lt "$rounds" ]; do
	for side in base head; do
		set -- $(bench "$side" "$n")
		eval "one=\$one_$side"
		cpu=$(((($2 - one) * 1000000) / (n - 1)))
		eval "best_$side=\$(lesser $1 \$best_$side)"
		eval "cpu_$side=\$(lesser $cpu \$cpu_$side)"
	done
	i=$((i + 1))
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-12s %12s %14s %14s\n' side revision ns/op summaries/s cpu-ns/summary
printf '%-6s %-12s %12d %14d %14d\n' base "$(git rev-parse --short "$rev")" "$best_base" $((1000000000 / best_base)) "$cpu_base"
printf '%-6s %-12s %12d %14d %14d\n' head "$(git rev-parse --short HEAD)" "$best_head" $((1000000000 / best_head)) "$cpu_head"
echo "head/base: $(awk -v b="$best_base" -v h="$best_head" 'BEGIN {printf "%.2fx", b / h}') in summaries/s, $(awk -v b="$cpu_base" -v h="$cpu_head" 'BEGIN {printf "%.2fx", b / h}') in CPU per summary"
