#!/bin/sh
# bench-run.sh: whole-run figures for `compact-eval run`, offline.
#
# It builds the command, generates scenarios of 500 events
# (runner/internal/gen), runs each size through the four built-in
# summarizers with the reference agent, and prints wall time, CPU time and
# peak RSS (/usr/bin/time -v) per size, so that the scaling from 100 to
# 1,000 scenarios shows. It also runs the built-in suite benchmark.
#
#	scripts/bench-run.sh            # sizes 100 and 1000
#	scripts/bench-run.sh 10 100     # other sizes
#	EVENTS=200 scripts/bench-run.sh
set -eu
cd "$(dirname "$0")/.."
sizes=${*:-100 1000}
events=${EVENTS:-500}
if [ ! -x /usr/bin/time ]; then
	echo "bench-run.sh: /usr/bin/time is needed (apt-get install time)" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ce-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

go build -o "$tmp/compact-eval" ./cmd/compact-eval
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "built-in suite × 4 built-in summarizers (go test -bench):"
go test ./runner -run '^$' -bench 'BuiltinSuite$' -benchtime 3x | grep '^Benchmark'
echo
printf '%-10s %8s %10s %10s %12s %10s\n' scenarios events wall_s cpu_s peak_rss_MB units/s
for n in $sizes; do
	go run ./runner/internal/gen/cmd/ce-gen -n "$n" -events "$events" -out "$tmp/s$n"
	/usr/bin/time -v "$tmp/compact-eval" run -j "$(nproc)" --out "$tmp/out$n" "$tmp/s$n" >"$tmp/stdout$n" 2>"$tmp/time$n" || {
		cat "$tmp/time$n" >&2
		exit 1
	}
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time$n" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
	user=$(sed -n 's/.*User time (seconds): //p' "$tmp/time$n")
	sys=$(sed -n 's/.*System time (seconds): //p' "$tmp/time$n")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time$n")
	awk -v n="$n" -v e="$events" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" \
		'BEGIN { printf "%-10d %8d %10.2f %10.2f %12.1f %10.1f\n", n, e, w, u + s, r / 1024, 4 * n / w }'
	rm -rf "$tmp/s$n" "$tmp/out$n"
done
