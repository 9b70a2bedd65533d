#!/usr/bin/env bash
# timing-gap.sh measures where the time between a launch's CUDA events goes,
# for the queue lab's popThread (even costs, 4M items, 1056 blocks of 256) at
# k = 1, 4, 64 and 1024, in one run on the GPU machine:
#
#   nvcc      calibration/microbench/queue_lab.cu (the same
#             source), ungated and gated (MB_GATE), its output reset by
#             cudaMemset and by cudaMemcpy from host zeros (MB_RESET=copy),
#             and queue.cu (the round-2 table's program) ungated and gated;
#             launch.cu (an empty kernel, events around one launch) ungated
#             and gated;
#   warplab   warplab run of labs/queue/kernels/queue.cu, in this process
#             (cuda:0?timeout=0) and in the helper process (cuda:0), each
#             ungated and gated (timing=), twice, in turn; and cudarun's
#             BenchmarkLaunchLatency (an empty kernel, ungated and gated).
#
# usage, from the repository root on the GPU machine, after
# `scripts/gpu-evidence.sh build` here and bin/gpu-evidence copied there:
#
#   calibration/scripts/timing-gap.sh OUTDIR
#
# It writes OUTDIR/timing-gap.txt (the date, the commit, the machine, the
# commands, the table) and every program's raw output beside it.
set -u

out=${1:?usage: $0 OUTDIR}
mkdir -p "$out" || exit 2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 2
bin=bin/gpu-evidence
[ -e "$bin/warplab" ] || gunzip -k "$bin/warplab.gz" || { echo "timing-gap: no $bin/warplab" >&2; exit 1; }
M=calibration/microbench
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
report=$out/timing-gap.txt
ks="1 4 64 1024"

{
	echo "timing-gap: where a launch's time goes, the queue lab's popThread (even costs) at k = $ks"
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	sed 's/^/build: /' "$bin/MANIFEST" 2>/dev/null
	echo "command: calibration/scripts/timing-gap.sh $out"
	echo "machine: $(nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap,clocks.sm --format=csv,noheader 2>/dev/null | head -1)"
	echo "machine: $(uname -srm), $(nproc) CPUs; nvcc: $("$NVCC" --version 2>/dev/null | grep -o 'V[0-9][0-9.]*' | head -1)"
} >"$report"

# The nvcc builds, side by side.
for p in queue_lab queue launch; do
	"$NVCC" -O3 -std=c++17 -arch=sm_90 -lineinfo -o "/tmp/timing-gap-$p" "$M/$p.cu" >"$out/build-$p.log" 2>&1 &
done
wait

# ms FILE K: the median of even,thread,K in a microbenchmark CSV.
ms() { awk -F, -v k="$2" '$1 == "even" && $2 == "thread" && $3 == k { print $8 }' "$1" 2>/dev/null; }

for gate in 0 1; do
	for reset in memset copy; do
		MB_GATE=$gate MB_RESET=$reset MB_BUDGET_S=30 "/tmp/timing-gap-queue_lab" >"$out/nvcc-queue_lab-gate$gate-$reset.csv" 2>"$out/nvcc-queue_lab-gate$gate-$reset.stderr"
	done
	MB_GATE=$gate MB_BUDGET_S=25 "/tmp/timing-gap-queue" >"$out/nvcc-queue-gate$gate.csv" 2>"$out/nvcc-queue-gate$gate.stderr"
	MB_GATE=$gate MB_BUDGET_S=20 "/tmp/timing-gap-launch" >"$out/nvcc-launch-gate$gate.csv" 2>"$out/nvcc-launch-gate$gate.stderr"
done
if [ -e "$bin/cudarun.test" ] || gunzip -k "$bin/cudarun.test.gz" 2>/dev/null; then
	(cd cudarun && "../$bin/cudarun.test" -test.run '^$' -test.bench '^BenchmarkLaunchLatency$' -test.benchtime 500x -test.v) >"$out/cudarun-launch-latency.txt" 2>&1
fi

# warplab run: SPEC K [FLAGS...] prints one JSON object per run.
wl() {
	local spec=$1 k=$2
	shift 2
	"$bin/warplab" run labs/queue/kernels/queue.cu --kernel popThread --grid 1056 --block 256 \
		--buf head=u32:1:zero --buf out=f32:4194304:zero --scalar n=u32:4194304 --scalar light=i32:32 \
		--scalar heavy=i32:32 --scalar period=u32:64 --scalar k=u32:"$k" --device "$spec" \
		--reps 20 --runs 2 --json "$@"
}
for round in 1 2; do
	for k in $ks; do
		for t in ungated gated; do
			wl "cuda:0?timing=$t" "$k" >"$out/wl-helper-$t-k$k-r$round.json" 2>&1
			wl "cuda:0?timeout=0&timing=$t" "$k" --timeout 0 >"$out/wl-inproc-$t-k$k-r$round.json" 2>&1
		done
	done
done

# medians FILE...: each run's median, and a note where a launch was not gated.
medians() {
	local f v
	for f in "$@"; do
		v=$(grep -o '"median_ms":[0-9.e-]*' "$f" | cut -d: -f2 | awk '{ printf "%s%.4f", (NR > 1 ? "/" : ""), $1 }')
		grep -q 'not gated\|gate expired' "$f" && v="$v!"
		printf '%s ' "${v:-fail}"
	done
}

{
	echo
	echo "median ms of popThread, even costs (32 FMAs per item), 4194304 items, 1056 x 256:"
	echo "nvcc: queue_lab.cu (the lab's source) median of 7 after 2 warm-ups; queue.cu the round-2 program (the loop nvcc unrolls)."
	echo "warplab run: median of 20 after 3 warm-ups, two runs (a/b) on fresh buffers, each cell run twice in turn (round 1, round 2)."
	echo "! marks a warplab run with a launch that was not gated (first launch or an expired gate: see the JSON)."
	echo
	printf '%-6s %-10s %-10s %-10s %-10s %-10s %-10s | %s\n' k nvcc-ung nvcc-gated nvcc-ung nvcc-gated queue.cu queue.cu "warplab run"
	printf '%-6s %-10s %-10s %-10s %-10s %-10s %-10s | %s\n' "" memset memset "copy" "copy" ungated gated "in-process ungated, gated; helper ungated, gated (round 1 | round 2)"
	for k in $ks; do
		printf '%-6s %-10s %-10s %-10s %-10s %-10s %-10s | ' "$k" \
			"$(ms "$out/nvcc-queue_lab-gate0-memset.csv" "$k")" "$(ms "$out/nvcc-queue_lab-gate1-memset.csv" "$k")" \
			"$(ms "$out/nvcc-queue_lab-gate0-copy.csv" "$k")" "$(ms "$out/nvcc-queue_lab-gate1-copy.csv" "$k")" \
			"$(ms "$out/nvcc-queue-gate0.csv" "$k")" "$(ms "$out/nvcc-queue-gate1.csv" "$k")"
		for round in 1 2; do
			medians "$out/wl-inproc-ungated-k$k-r$round.json" "$out/wl-inproc-gated-k$k-r$round.json" \
				"$out/wl-helper-ungated-k$k-r$round.json" "$out/wl-helper-gated-k$k-r$round.json"
			[ "$round" = 1 ] && printf '| '
		done
		echo
	done
	echo
	echo "an empty kernel <<<1, 32>>>, events around one launch (us: median, mean, min):"
	for g in 0 1; do
		awk -F, -v g="$g" '$1 == "event_single" || $1 == "event_back2back" { printf "  nvcc launch.cu MB_GATE=%s %-16s %s %s %s\n", g, $1, $6, $7, $8 }' "$out/nvcc-launch-gate$g.csv" 2>/dev/null
	done
	grep -h 'empty kernel, events around one launch' "$out/cudarun-launch-latency.txt" 2>/dev/null | sed 's/^ */  cudarun: /'
	grep -h '^Benchmark\|FAIL' "$out/cudarun-launch-latency.txt" 2>/dev/null | sed 's/^/  /'
	echo
	echo "gate expiries reported by the nvcc runs (gated):"
	grep -H '^# gate_expired' "$out"/nvcc-*gate1*.csv
	echo "nvcc builds:"
	for p in queue_lab queue launch; do echo "  $p: $(grep -c 'error' "$out/build-$p.log") error lines"; done
	echo "the gated warplab runs' timing sources (a note follows the GPU's name where a launch was not gated):"
	grep -ho '"source":"[^"]*"' "$out"/wl-*-gated-*.json | sort | uniq -c
	echo "failures of warplab run, if any:"
	grep -L '"median_ms"' "$out"/wl-*.json | while read -r f; do echo "  $f:"; tail -3 "$f" | sed 's/^/    /'; done
	echo
	echo "the full CSVs of the nvcc runs (all costs, pops and k) are beside this file; the even-cost popThread rows:"
	for f in "$out"/nvcc-*.csv; do
		echo "-- $(basename "$f")"
		grep '^even,thread\|^# timing\|^# reset' "$f"
	done
} >>"$report"
cat "$report"
