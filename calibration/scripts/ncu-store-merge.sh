#!/usr/bin/env bash
# ncu-store-merge.sh profiles, with Nsight Compute, store_merge.cu's cells
# (issue 13): how many write requests and sectors the L2 receives from a
# warp's back-to-back stores to the same sectors against the same stores to
# distinct lines, on one SM (16 warps) with lanes 32 words apart (32 lines of
# one sector a store, as the queue at k >= 32) and 8 words apart (8 lines of
# four partly written sectors, as at k = 8); and queue.cu's pop_thread
# against the lab's popThread at even costs, k = 64 and 1024. Each launch's
# duration, global store requests and sectors at the L1, and L2 write
# requests and sectors.
#
# usage, from the repository root on the GPU machine (nvcc and ncu on PATH or
# in /usr/local/cuda/bin; no Go needed):
#
#   calibration/scripts/ncu-store-merge.sh OUTDIR
#
# It writes OUTDIR/ncu-store-merge.csv (ncu's raw metrics, one row a
# profiled launch, in the order below), cells.stdout, build.log,
# store_merge.sm_90.sass and ncu-store-merge.log (commands, times, exit
# codes). Expected time on an H200: about 30 s of build, about 1 minute of
# profiling.
set -u

. "$(dirname "${BASH_SOURCE[0]}")/ncu-common.sh" "$@"
ncu_header "ncu-store-merge: store_merge.cu's cells under ncu"

bin=/tmp/ncu-sm-store_merge
nvcc_build store_merge "$bin" || {
	echo "ncu-store-merge: store_merge failed to build, see $out/build.log" >&2
	exit 1
}
export MB_GATE=0

metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_op_write.sum
# The 3rd launch of each cell: `one` runs 3.
# STORE_MERGE_CELLS (cells separated by ";", each the arguments after
# `store_merge one`) profiles other cells, e.g. every SM storing:
#   STORE_MERGE_CELLS="path 132 8 8 1 4 0;path 132 8 8 0 4 0"
cells=${STORE_MERGE_CELLS:-"path 1 2 32 1 4 0;path 1 2 32 0 4 0;path 1 2 32 1 1 32;path 1 2 32 1 1 0;path 1 2 8 1 4 0;path 1 2 8 0 4 0;path 1 2 8 1 1 32;path 1 8 32 1 4 0;queue thread 1024;queue lab 1024;queue thread 64;queue lab 64"}
IFS=';' read -r -a cfgs <<<"$cells"
i=0
for cfg in "${cfgs[@]}"; do
	i=$((i + 1))
	run "$NCU" --cache-control none --kernel-name regex:'path|q_' --launch-skip 2 --launch-count 1 \
		--metrics "$metrics" --csv --log-file "$out/ncu-$i.csv" "$bin" one $cfg >>"$out/cells.stdout" 2>&1
	echo "cell $i: $cfg" >>"$log"
done
# One file: each cell's rows after a line naming it.
for j in $(seq 1 "$i"); do
	grep -m1 "^cell $j:" "$log"
	grep -v '^==' "$out/ncu-$j.csv"
done >"$out/ncu-store-merge.csv"
rm -f "$out"/ncu-[0-9]*.csv
run cuobjdump -sass "$bin" >"$out/store_merge.sm_90.sass" 2>>"$out/build.log"
echo "ncu-store-merge: done, see $log"
