#!/usr/bin/env bash
# ncu-sums-stride.sh profiles, with Nsight Compute, the two sets of
# microbenchmark launches the h200 profile misprices (issues 11 and 14):
#
#   sums    reproducible.cu's block-tree kernels at n = 4M (tree_partials,
#           reduce_partials, fixed_point, tree_atomic), with the L2 left as
#           the timed runs leave it (--cache-control none) and the launches
#           ungated (MB_GATE=0: ncu serialises launches itself): each
#           kernel's own duration (gpu__time_duration), its SASS warp
#           instructions, L2 hit rate and DRAM bytes (is the 16 MB input
#           L2-resident between runs?), and the warp-state and scheduler
#           sections (where a block's warps wait: barrier, long or short
#           scoreboard, MIO throttle).
#   stride  access.cu's read_stride at strides 8, 16 and 32 (every launch of
#           those strides, after the 39 of strides 1, 2 and 4): DRAM sectors
#           and bytes read, L2 read sectors and requests, L2 misses, sectors
#           from the other L2 partition, DRAM throughput: whether stride 32
#           reads more bytes than stride 16 or the same bytes less
#           efficiently.
#
# Each ncu run asks for one group of metrics, so that a metric name this ncu
# does not know costs only its own group.
#
# usage, from the repository root on the GPU machine (nvcc and ncu on PATH or
# in /usr/local/cuda/bin; no Go needed):
#
#   calibration/scripts/ncu-sums-stride.sh OUTDIR
#
# It writes OUTDIR/ncu-*.txt (ncu's details pages) and ncu-*.csv (raw
# metrics), the programs' own CSV output (*.stdout), build.log and
# ncu-sums-stride.log (commands, times, exit codes). Expected time on an
# H200: about 30 s of builds, about 1 minute of profiling.
set -u

. "$(dirname "${BASH_SOURCE[0]}")/ncu-common.sh" "$@"
ncu_header "ncu-sums-stride: reproducible.cu's tree kernels and access.cu's strided reads under ncu"

for p in reproducible access; do
	nvcc_build "$p" "/tmp/ncu-ss-$p" ||
		echo "ncu-sums-stride: $p failed to build, see $out/build.log" >&2
done
export MB_GATE=0

# ---- sums: the 4th and 5th launch of each kernel (3 warm-ups before them).
sections="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis --section LaunchStats"
basic=gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum
if [ -x /tmp/ncu-ss-reproducible ]; then
	# tree_partials and reduce_partials alternate (two_pass): skip 3 pairs.
	run "$NCU" --cache-control none --kernel-name regex:'tree_partials|reduce_partials' --launch-skip 6 --launch-count 4 \
		--metrics "$basic" $sections --log-file "$out/ncu-sums-twopass.txt" /tmp/ncu-ss-reproducible >"$out/sums-twopass.stdout" 2>&1
	for k in fixed_point tree_atomic; do
		run "$NCU" --cache-control none --kernel-name "$k" --launch-skip 3 --launch-count 2 \
			--metrics "$basic" $sections --log-file "$out/ncu-sums-$k.txt" /tmp/ncu-ss-reproducible >"$out/sums-$k.stdout" 2>&1
	done
	# Every launch of the four at n = 4M (23 each, 46 of each pass), durations only.
	run "$NCU" --cache-control none --kernel-name regex:'tree_partials|reduce_partials|fixed_point|tree_atomic' --launch-skip 0 --launch-count 138 \
		--csv --page raw --metrics gpu__time_duration.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum \
		--log-file "$out/ncu-sums-durations.csv" /tmp/ncu-ss-reproducible >"$out/sums-durations.stdout" 2>&1
fi

# ---- stride: launches 39.. of read_stride are strides 8, 16, 32 (13 each).
if [ -x /tmp/ncu-ss-access ]; then
	g1=gpu__time_duration.sum,dram__bytes_read.sum,dram__sectors_read.sum,lts__t_sectors_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sector_op_read_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
	g2=lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_write.sum,dram__bytes_write.sum
	n=1
	for g in "$g1" "$g2"; do
		run "$NCU" --cache-control all --kernel-name read_stride --launch-skip 39 --launch-count 39 --csv --page raw \
			--metrics "$g" --log-file "$out/ncu-stride-$n.csv" /tmp/ncu-ss-access >"$out/stride-$n.stdout" 2>&1
		n=$((n + 1))
	done
	# One launch per stride (the 4th: after 3 warm-ups) with the memory sections.
	for skip in 42 55 68; do
		run "$NCU" --cache-control all --kernel-name read_stride --launch-skip $skip --launch-count 1 \
			--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
			--log-file "$out/ncu-stride-sections-$skip.txt" /tmp/ncu-ss-access >"$out/stride-sections-$skip.stdout" 2>&1
	done
fi
echo "done: $(date -u '+%H:%M:%S UTC')" >>"$log"
cat "$log"
