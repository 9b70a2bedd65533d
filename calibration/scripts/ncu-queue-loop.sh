#!/usr/bin/env bash
# ncu-queue-loop.sh profiles, with Nsight Compute, queue_loop.cu's grid
# cells at even costs and k = 8 (issue 13: the queue lab's popThread takes
# about 1.35 times queue.cu's pop_thread there, with the same pops and
# stores): the lab's item loop (lab), the constant-cost loop kept rolled
# (seq32) and nvcc's interleaved one (ilp32), each with its stores as the
# kernels have them (st), without them (none), and coalesced (coal lab):
# each launch's duration, SASS warp instructions, global store requests
# and sectors, L2 write and atomic sectors, and the warp-state and
# scheduler sections (where the warps wait: long scoreboard on the pop's
# atomic, LG throttle on the store queue, MIO throttle, branch resolving,
# the FMA chain's wait), and the warp-state samples per SASS instruction
# (source page) for lab st and ilp32 st.
#
# usage, from the repository root on the GPU machine (nvcc and ncu on PATH or
# in /usr/local/cuda/bin; no Go needed):
#
#   calibration/scripts/ncu-queue-loop.sh OUTDIR
#
# It writes OUTDIR/ncu-*.txt (details pages), ncu-*.csv (raw metrics and
# source pages), the program's own output (*.stdout), build.log and
# ncu-queue-loop.log (commands, times, exit codes). Expected time on an
# H200: about 20 s of build, about 1 minute of profiling.
set -u

. "$(dirname "${BASH_SOURCE[0]}")/ncu-common.sh" "$@"
ncu_header "ncu-queue-loop: queue_loop.cu's item loops at k = 8 under ncu"

bin=/tmp/ncu-ql-queue_loop
nvcc_build queue_loop "$bin" || {
	echo "ncu-queue-loop: queue_loop failed to build, see $out/build.log" >&2
	exit 1
}
export MB_GATE=0

sections="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis"
basic=gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_op_atom.sum,dram__bytes_write.sum
# The 3rd launch of the cell: after its 2 warm-ups.
for cfg in "lab st" "seq32 st" "ilp32 st" "lab none" "ilp32 none" "lab coal"; do
	set -- $cfg
	name=$1-$2
	run "$NCU" --cache-control none --kernel-name regex:qloop --launch-skip 2 --launch-count 1 \
		--metrics "$basic" $sections --log-file "$out/ncu-$name.txt" "$bin" one "$1" "$2" atomic 8 >"$out/$name.stdout" 2>&1
done
# Warp-state samples per SASS instruction.
for cfg in "lab st" "ilp32 st"; do
	set -- $cfg
	name=$1-$2
	run "$NCU" --cache-control none --kernel-name regex:qloop --launch-skip 2 --launch-count 1 \
		--section WarpStateStats --section SourceCounters --page source --print-source sass --csv \
		--log-file "$out/ncu-source-$name.csv" "$bin" one "$1" "$2" atomic 8 >"$out/source-$name.stdout" 2>&1
done
# The SASS of every kernel in the program.
run cuobjdump -sass "$bin" >"$out/queue_loop.sm_90.sass" 2>>"$out/build.log"
echo "ncu-queue-loop: done, see $log"
